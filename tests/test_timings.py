from assistant import events as ev
from assistant.timings import events_complete_and_ordered, percentile, stage_durations, summarize


def turn(offset: float = 0.0, asr_at: float = 2.8):
    t = offset
    return [ev.SpeechStart(1, t + 0.0), ev.SpeechEnd(1, t + 2.0), ev.Endpoint(1, t + 2.5),
            ev.AsrDone(1, t + asr_at, started=t + asr_at - 0.3), ev.RecallDone(1, t + 2.81, started=t + 2.805),
            ev.LlmFirstToken(1, t + 3.0), ev.FirstAudio(1, t + 3.2), ev.ReplyDone(1, t + 5.0)]


def close(a, b):
    return abs(a - b) < 1e-9


def test_stage_durations_come_from_event_times():
    d = stage_durations(turn())
    assert close(d["endpoint_delay"], 0.5)
    assert close(d["asr"], 0.3) and close(d["asr_after_speech_end"], 0.8)
    assert close(d["speech_end_to_first_audio"], 1.2)
    assert close(d["recall_after_speech_end"], 0.81) and close(d["recall"], 0.005)


def test_missing_events_leave_stages_out():
    d = stage_durations(turn()[:4])
    assert "asr" in d and "speech_end_to_first_audio" not in d and "llm_first_token" not in d


def test_complete_and_ordered():
    assert events_complete_and_ordered(turn())
    assert events_complete_and_ordered(turn(asr_at=2.2))  # speculative: transcribed before the endpoint
    broken = turn()
    broken[3] = ev.AsrDone(1, 1.0)  # before the person stopped speaking
    assert not events_complete_and_ordered(broken)
    assert not events_complete_and_ordered(turn()[:-1])
    assert not events_complete_and_ordered(turn() + [ev.AsrDone(1, 4.0)])  # a stale second transcript


def test_percentiles_and_summary():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([5], 95) == 5
    s = summarize([stage_durations(turn()), stage_durations(turn(10))])
    assert s["asr"]["n"] == 2


def test_events_serialise_with_their_kind():
    line = ev.AsrDone(3, 1.5, text="héllo").to_json()
    assert '"event": "asr_done"' in line and "héllo" in line and '"turn_id": 3' in line
