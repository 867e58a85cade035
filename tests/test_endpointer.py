"""The endpointer as a pure state machine: start, end, pre-roll, max length, blips."""

from audio.endpointer import Endpointer, EndpointSettings, Signal

F = 0.032


def feed(ep: Endpointer, pattern: str):
    """'1' voiced frame, '0' silent frame -> the non-NONE steps with their frame index."""
    out = []
    for i, c in enumerate(pattern):
        step = ep.feed(c == "1")
        if step.signal is not Signal.NONE:
            out.append((i, step))
    return out


def settings(**kw) -> EndpointSettings:
    base = dict(frame_seconds=F, start_seconds=3 * F, end_silence_seconds=5 * F, pre_roll_seconds=2 * F,
                max_seconds=40 * F, min_speech_seconds=4 * F, silence_start_seconds=F)
    base.update(kw)
    return EndpointSettings(**base)


def signals(steps):
    return [s.signal for _, s in steps]


def test_speech_starts_after_a_short_voiced_run_with_pre_roll():
    steps = feed(Endpointer(settings()), "0000011111")
    i, start = steps[0]
    assert start.signal is Signal.SPEECH_START
    assert i == 7  # third voiced frame
    assert start.first_frame == 5 - 2  # run began at 5, two frames of pre-roll


def test_pre_roll_never_goes_before_the_first_frame():
    steps = feed(Endpointer(settings()), "111")
    assert steps[0][1].first_frame == 0


def test_end_after_configured_silence_reports_last_voiced_frame():
    steps = feed(Endpointer(settings()), "0011111111" + "00000" + "000")
    assert signals(steps) == [Signal.SPEECH_START, Signal.SILENCE_START, Signal.ENDPOINT]
    i, end = steps[-1]
    assert i == 14  # fifth silent frame
    assert end.last_voiced_frame == 9
    assert end.end_frame == 15
    assert not end.cut


def test_pause_shorter_than_the_end_silence_keeps_one_utterance():
    steps = feed(Endpointer(settings()), "11111" + "0000" + "11111" + "00000")
    assert signals(steps) == [Signal.SPEECH_START, Signal.SILENCE_START, Signal.SPEECH_RESUMED,
                              Signal.SILENCE_START, Signal.ENDPOINT]
    assert steps[-1][1].first_frame == 0


def test_short_blips_are_ignored():
    assert feed(Endpointer(settings()), "0110110010100110") == []


def test_speech_too_short_in_total_is_discarded():
    steps = feed(Endpointer(settings()), "111" + "00000")
    assert signals(steps) == [Signal.SPEECH_START, Signal.SILENCE_START, Signal.DISCARD]


def test_max_length_cuts_a_monologue_and_listening_resumes():
    steps = feed(Endpointer(settings(max_seconds=10 * F)), "1" * 25)
    kinds = signals(steps)
    assert kinds.count(Signal.ENDPOINT) >= 2
    cut = next(s for _, s in steps if s.signal is Signal.ENDPOINT)
    assert cut.cut
    assert cut.end_frame - cut.first_frame == 10


def test_end_silence_can_be_changed():
    ep = Endpointer(settings())
    ep.set_end_silence(2 * F)
    steps = feed(ep, "11111" + "00")
    assert signals(steps)[-1] is Signal.ENDPOINT


def test_default_settings_match_the_documented_values():
    s = EndpointSettings()
    assert s.frames(s.end_silence_seconds) == 16  # 500 ms of 32 ms frames
    assert s.frames(s.pre_roll_seconds) == 9  # ~300 ms
    assert s.max_seconds == 30.0


def test_silence_start_waits_for_a_short_hangover():
    steps = feed(Endpointer(settings(silence_start_seconds=3 * F)), "11111" + "01" + "000" + "00")
    kinds = signals(steps)
    # one silent frame then voice again is neither a silence start nor a resumption
    assert kinds == [Signal.SPEECH_START, Signal.SILENCE_START, Signal.ENDPOINT]
    assert steps[1][0] == 9  # third silent frame of the final pause
