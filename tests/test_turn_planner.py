"""Cancellation and turn ids as pure logic."""

from assistant.pipeline.planner import CancelJob, ReleaseJob, StartJob, TurnPlanner
from audio.endpointer import Signal as S


def run(planner, signals):
    out = []
    for i, s in enumerate(signals):
        out += planner.on_signal(s, i, end_frame=i + 1)
    return out


def test_speculative_job_is_released_at_the_endpoint():
    acts = run(TurnPlanner(), [S.SPEECH_START, S.SILENCE_START, S.ENDPOINT])
    assert acts == [StartJob(1, 1, 1, speculative=True), ReleaseJob(1)]


def test_speech_resuming_in_the_silence_window_drops_the_work_and_answers_once():
    p = TurnPlanner()
    acts = run(p, [S.SPEECH_START, S.SILENCE_START, S.SPEECH_RESUMED, S.SILENCE_START, S.ENDPOINT])
    assert CancelJob(1, "speech resumed") in acts
    assert [a for a in acts if isinstance(a, ReleaseJob)] == [ReleaseJob(2)]  # only the newest is heard
    assert p.turn_id == 1  # still one turn


def test_a_discarded_blip_cancels_its_speculation():
    acts = run(TurnPlanner(), [S.SPEECH_START, S.SILENCE_START, S.DISCARD])
    assert acts[-1] == CancelJob(1, "discarded")
    assert not any(isinstance(a, ReleaseJob) for a in acts)


def test_without_speculation_the_job_starts_at_the_endpoint():
    acts = run(TurnPlanner(speculate=False), [S.SPEECH_START, S.SILENCE_START, S.ENDPOINT])
    assert acts == [StartJob(1, 1, 3, speculative=False)]


def test_speaking_over_a_reply_is_a_barge_in():
    p = TurnPlanner()
    acts = run(p, [S.SPEECH_START, S.SILENCE_START, S.ENDPOINT, S.SPEECH_START])
    assert acts[-1] == CancelJob(1, "barge-in") and p.turn_id == 2


def test_speaking_after_the_reply_finished_is_a_new_turn_not_a_barge_in():
    p = TurnPlanner()
    run(p, [S.SPEECH_START, S.SILENCE_START, S.ENDPOINT])
    p.job_finished(1)
    assert p.on_signal(S.SPEECH_START, 10) == []


def test_a_stale_finish_does_not_clear_the_current_job():
    p = TurnPlanner()
    run(p, [S.SPEECH_START, S.SILENCE_START, S.ENDPOINT, S.SPEECH_START, S.SILENCE_START, S.ENDPOINT])
    p.job_finished(1)  # the old, cancelled job reports late
    assert p.replying == 2


def test_max_length_cut_starts_a_fresh_job():
    acts = run(TurnPlanner(), [S.SPEECH_START, S.NONE, S.ENDPOINT])
    assert acts == [StartJob(1, 1, 3, speculative=False)]


def test_a_carried_utterance_is_answered_alone_in_the_turn_of_the_blip_that_followed_it():
    p = TurnPlanner()
    acts = run(p, [S.SPEECH_START, S.SILENCE_START, S.ENDPOINT, S.SPEECH_START, S.SILENCE_START, S.DISCARD])
    assert acts[-2:] == [StartJob(2, 2, 4, speculative=True), CancelJob(2, "discarded")]
    assert p.answer_carried() == [StartJob(3, 2, -1, speculative=False)]
    assert p.replying == 3
    assert p.answer_carried() == []  # a reply is under way: nothing is started beside it
