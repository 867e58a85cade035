from assistant import events as ev
from assistant.timings import events_complete_and_ordered, percentile, stage_durations, summarize


def turn(offset: float = 0.0):
    t = offset
    return [ev.SpeechStart(1, t + 0.0), ev.SpeechEnd(1, t + 2.0), ev.Endpoint(1, t + 2.5), ev.AsrDone(1, t + 2.8),
            ev.RecallDone(1, t + 2.81), ev.LlmFirstToken(1, t + 3.0), ev.FirstAudio(1, t + 3.2),
            ev.ReplyDone(1, t + 5.0)]


def test_stage_durations_come_from_event_times():
    d = stage_durations(turn())
    assert abs(d["endpoint_delay"] - 0.5) < 1e-9
    assert abs(d["asr"] - 0.3) < 1e-9
    assert abs(d["speech_end_to_first_audio"] - 1.2) < 1e-9
    assert abs(d["recall_after_speech_end"] - 0.81) < 1e-9


def test_missing_events_leave_stages_out():
    d = stage_durations(turn()[:4])
    assert "asr" in d and "first_audio" not in d and "llm_first_token" not in d


def test_complete_and_ordered():
    assert events_complete_and_ordered(turn())
    broken = turn()
    broken[3] = ev.AsrDone(1, 1.0)  # before the endpoint
    assert not events_complete_and_ordered(broken)
    assert not events_complete_and_ordered(turn()[:-1])


def test_percentiles_and_summary():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([5], 95) == 5
    s = summarize([stage_durations(turn()), stage_durations(turn(10))])
    assert s["asr"]["n"] == 2


def test_events_serialise_with_their_kind():
    line = ev.AsrDone(3, 1.5, text="héllo").to_json()
    assert '"event": "asr_done"' in line and "héllo" in line and '"turn_id": 3' in line
