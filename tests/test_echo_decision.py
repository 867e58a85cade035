"""The echo decision as pure logic: what Hearth said, what was heard and the levels in; echo or a
person out. Also the reference timeline the sinks feed, and the planner's side of a suspect turn."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from assistant.config import Config, load_config
from assistant.pipeline.echo_guard import EchoGuard
from assistant.errors import HearthError
from assistant.pipeline.planner import CancelJob, StartJob, TurnPlanner
from audio.echo import DRIFT_SLICES, ECHO_LEAD_FRAMES, EchoMonitor, EchoReference, FrameLevels
from audio.echo_decision import (BRIEF_FRAMES, FADE_WAIT_FRAMES, LOUD_CEILING_FRAMES, LOUD_ONSET_MAX_FRAMES,
                                 LOUD_ONSET_WAIT_FRAMES, PAUSE_FRAMES, PERSON_FRAMES, brief, canceller_added,
                                 faded_with_pause, is_echo,
                                 loud_run, louder_than_echo, onset_waits, person_confirmed, person_run, person_speaking,
                                 share_of_own_words)
from audio import FRAME_SAMPLES
from audio.endpointer import Signal, Step
from audio.sources import Frame

SAID = ["Great news for Sam!", "She must be thrilled about the new puppy."]


@pytest.mark.parametrize("heard", [
    "Great new",  # the first words of the reply, cut where the echo was heard
    "Great news for Sam.",
    "she must be thrilled about the new",
    "She must be thrilled of the new puppy.",  # one word misheard
    "I must be thrilled about the new puppy",
])
def test_hearths_own_words_in_its_order_are_echo(heard):
    assert is_echo(heard, SAID)


def test_a_short_word_misheard_in_its_last_letter_is_still_hearths():
    # live, at 60% through a room: heard, paused for, and answered "That sounds like a big one."
    said = ["That sounds like a bit of a challenge.", "Do you want to talk about it?"]
    assert is_echo("like a big one.", said)
    assert not is_echo("Is it a big one?", said)


@pytest.mark.parametrize("heard", [
    "What is my daughter called?",  # shares "my daughter" with the reply, not its order
    "Stop, that's wrong.",
    "Sam is my daughter, not my dog",
    "",
    "[BLANK_AUDIO]",
])
def test_a_persons_words_are_not_echo(heard):
    said = ["My daughter is Sam.", "Sam has a dog called Biscuit."]
    assert not is_echo(heard, said)


def test_nothing_said_means_nothing_is_echo():
    assert not is_echo("Great news for Sam", [])


def test_share_of_own_words_counts_words_in_order():
    assert share_of_own_words("news for great", ["Great news for Sam"]) == pytest.approx(2 / 3)
    assert share_of_own_words("Great news", ["great NEWS, for Sam"]) == 1.0
    assert share_of_own_words("puppy new the", ["the new puppy"]) == pytest.approx(1 / 3)


def levels(mic: float, cleaned: float, converged: bool = True, n: int = 4) -> list[FrameLevels]:
    return [FrameLevels(mic=mic, cleaned=cleaned, playing=1e-2, converged=converged)] * n


def test_speech_with_nothing_played_is_a_person():
    assert person_speaking(levels(1e-3, 1e-6), echo_possible=False)


def test_speech_the_canceller_removes_is_echo():
    assert not person_speaking(levels(1e-3, 1e-5), echo_possible=True)  # 20 dB removed


def test_speech_the_canceller_leaves_is_a_person():
    assert person_speaking(levels(1e-3, 6e-4), echo_possible=True)  # 2 dB removed


def test_nothing_is_confirmed_before_the_canceller_converged():
    assert not person_speaking(levels(1e-3, 1e-3, converged=False), echo_possible=True)


def test_a_quiet_residue_is_not_a_person():
    assert not person_speaking(levels(1e-8, 1e-8), echo_possible=True)


def test_the_ratio_is_judged_over_the_frames_together():
    # one loud frame that the canceller left outweighs three quiet ones it removed
    frames = [FrameLevels(1e-5, 1e-7, 1e-2, True)] * 3 + [FrameLevels(1e-3, 8e-4, 1e-2, True)]
    assert person_speaking(frames, echo_possible=True)
    frames = [FrameLevels(1e-3, 1e-5, 1e-2, True)] * 3 + [FrameLevels(1e-5, 1e-5, 1e-2, True)]
    assert not person_speaking(frames, echo_possible=True)


def with_ceiling(mic: float, cleaned: float, ceiling: float, converged: bool = True) -> list[FrameLevels]:
    return [FrameLevels(mic=mic, cleaned=cleaned, playing=1e-2, converged=converged, echo_ceiling=ceiling)] * 4


def test_while_the_canceller_learns_the_echo_again_a_microphone_well_above_its_ceiling_is_a_person():
    """Over a quiet echo (-20 dB in the echo benchmark) a person's voice, 15-28 dB above the loudest
    echo the room had carried, threw the canceller at their first syllables: it lost the echo, and
    was still learning it again when they stopped, so they were dropped as echo."""
    assert person_speaking(with_ceiling(1e-3, 1e-3, ceiling=1e-4, converged=False), echo_possible=True)  # 10 dB
    assert not person_speaking(with_ceiling(1e-3, 1e-3, ceiling=5e-4, converged=False), echo_possible=True)  # 3 dB
    assert not person_speaking(with_ceiling(1e-3, 1e-3, ceiling=0.0, converged=False), echo_possible=True)  # unknown


def test_a_canceller_that_has_the_echo_judges_alone():
    assert not person_speaking(with_ceiling(1e-3, 1e-5, ceiling=1e-4), echo_possible=True)  # it took 20 dB
    assert person_speaking(with_ceiling(1e-3, 6e-4, ceiling=5e-4), echo_possible=True)  # it left most
    # of a sound above the loudest echo, and took 4 dB of one under it: the canceller's judgement
    assert person_speaking(with_ceiling(1e-3, 4e-4, ceiling=2e-3), echo_possible=True)


def test_a_sound_no_louder_than_the_echo_that_the_canceller_took_little_of_is_its_lapse():
    """Live at 60%: the tail of a word 1 s into a reply came out of the canceller within 1.2 dB of the
    microphone (and 30 dB over the residue it had left lately), 7-10 dB under the loudest echo the room
    had carried, and paused the reply for its own voice."""
    lapse = [FrameLevels(mic=5e-4, cleaned=4e-4, playing=1e-2, converged=True, residual=1e-7, echo_ceiling=3e-3)] * 4
    assert not person_speaking(lapse, echo_possible=True)
    # a person as loud as that, over it, stands above the loudest echo
    person = [FrameLevels(mic=5e-3, cleaned=4e-3, playing=1e-2, converged=True, residual=1e-7, echo_ceiling=3e-3)] * 4
    assert person_speaking(person, echo_possible=True)
    # the ceiling unknown: the canceller alone decides, as before it was learned
    unknown = [FrameLevels(mic=5e-4, cleaned=4e-4, playing=1e-2, converged=True, residual=1e-7)] * 4
    assert person_speaking(unknown, echo_possible=True)


def test_a_frame_the_canceller_made_much_louder_than_the_microphone_says_it_lost_the_echo():
    """The live room after a barge-in: the echo's delay jumped and the canceller subtracted an echo
    that was not there (12.2 dB louder out than in); in the quiet between a person's words over
    Hearth it added up to 6.4 dB (echo benchmark), and their voice itself passes through."""
    assert canceller_added(FrameLevels(2e-5, 3.3e-4, 5.6e-2, True))
    assert not canceller_added(FrameLevels(1.65e-5, 7.16e-5, 1.55e-2, True))
    assert not canceller_added(FrameLevels(1.9e-3, 3.9e-3, 5.6e-2, True))
    assert not canceller_added(FrameLevels(1e-9, 1e-8, 5.6e-2, True))  # nothing there to judge


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


def test_the_reference_places_played_samples_where_they_were_played_on_the_input_timeline():
    clock = FakeClock()
    ref = EchoReference(now=clock.now, seconds=2.0)
    ref.anchor(16_000)  # input sample 16000 was read at t = 100.0
    clock.t = 100.5  # half a second later a slice starts to play: input position 24000
    ref.played(np.ones(1600, dtype=np.float32), 16_000)
    assert ref.position_at(100.5) == 24_000
    assert not ref.span(23_000, 1000).any()
    assert np.allclose(ref.span(24_000, 1600), 1.0)
    assert not ref.span(25_600, 400).any()
    # the next slice, told a little late, follows the first without a gap
    clock.t = 100.6 + 0.004
    ref.played(np.full(1600, 0.5, dtype=np.float32), 16_000)
    assert np.allclose(ref.span(25_600, 1600), 0.5)
    # a slice far later leaves silence between
    clock.t = 101.5
    ref.played(np.full(160, 0.25, dtype=np.float32), 16_000)
    assert not ref.span(27_200, 40_000 - 27_200).any()
    assert np.allclose(ref.span(40_000, 160), 0.25)
    assert np.allclose(ref.span(24_000, 1600), 1.0)  # still within the two seconds kept
    # what lies further back than the ring holds is gone, not wrapped around
    clock.t = 104.0
    ref.played(np.full(160, 0.75, dtype=np.float32), 16_000)
    assert np.allclose(ref.span(80_000, 160), 0.75)
    assert not ref.span(24_000, 1600).any()
    assert not ref.span(40_000, 160).any()


def test_a_continuous_stream_is_placed_back_to_back_whatever_each_slices_time_says():
    # The speakers' callback asks for every buffer, silence included, and its reported times jitter
    # by tens of milliseconds, now and then by more than a hundred; the reference must hold what was played, without holes or overlaps.
    clock = FakeClock()
    ref = EchoReference(now=clock.now, seconds=4.0)
    ref.anchor(16_000)
    rng = np.random.default_rng(1)
    played = rng.standard_normal(100 * 160).astype(np.float32)
    for k in range(100):
        clock.t = 100.0 + k * 0.01
        jitter = float(rng.uniform(-0.06, 0.06))  # each slice's time off by up to 60 ms,
        if k % 10 == 5:
            jitter = -0.15  # and now and then by more (a slice placed by it left a hole)
        ref.played_continuously(played[k * 160:(k + 1) * 160], 16_000, latency=0.05 + jitter)
    start = 16_000 + int(0.05 * 16_000)
    held = ref.span(start - 1600, len(played) + 3200)
    lag = int(np.argmax(np.correlate(held, played, mode="valid"))) - 1600
    assert abs(lag) <= 1000  # placed where the first slice's time put it (within its jitter)
    # (the resampler is the identity at 16 kHz, but keeps no more than it is given)
    assert np.allclose(held[1600 + lag:1600 + lag + len(played)], played, atol=1e-4)


def test_a_continuous_stream_follows_the_clock_once_it_has_moved_for_good():
    clock = FakeClock()
    ref = EchoReference(now=clock.now, seconds=4.0)
    ref.anchor(16_000)
    for k in range(10):
        clock.t = 100.0 + k * 0.01
        ref.played_continuously(np.full(160, 0.5, dtype=np.float32), 16_000, latency=0.0)
    # the device restarted: every slice now plays 300 ms later than the stream so far would say
    for k in range(10, 10 + DRIFT_SLICES + 5):
        clock.t = 100.3 + k * 0.01
        ref.played_continuously(np.full(160, 0.25, dtype=np.float32), 16_000, latency=0.0)
    last = 16_000 + int((100.3 + (9 + DRIFT_SLICES + 5) * 0.01 - 100.0) * 16_000)
    assert np.allclose(ref.span(last - 80, 80), 0.25)  # the newest slices sit where the clock says


def test_the_reference_keeps_the_words_said_recently():
    clock = FakeClock()
    ref = EchoReference(now=clock.now)
    ref.said("Great news for Sam!")
    clock.t += 60
    ref.said("Anything else?")
    assert ref.recent_words(seconds=30) == ["Anything else?"]


def test_a_suspect_turn_starts_a_turn_but_stops_nothing_until_confirmed():
    planner = TurnPlanner()
    planner.on_signal(Signal.SPEECH_START, 1)
    planner.on_signal(Signal.SILENCE_START, 10)
    planner.on_signal(Signal.ENDPOINT, 20, 20)
    active = planner.replying
    assert active is not None
    assert planner.on_signal(Signal.SPEECH_START, 30, barge_in=False) == []
    assert planner.turn_id == 2 and planner.replying == active
    assert planner.confirm_barge_in() == [CancelJob(active, "barge-in")]
    assert planner.replying is None
    assert planner.confirm_barge_in() == []
    assert isinstance(planner.on_signal(Signal.SILENCE_START, 40)[0], StartJob)


def test_echo_guard_names_and_their_older_aliases(tmp_path):
    assert Config().echo_guard == "speakers"
    for old, new in (("threshold", "speakers"), ("off", "headphones"), ("mute", "half-duplex")):
        path = tmp_path / f"{old}.toml"
        path.write_text(f"[audio]\necho_guard = '{old}'\n")
        assert load_config(path).echo_guard == new
    path = tmp_path / "bad.toml"
    path.write_text("[audio]\necho_guard = 'loud'\n")
    with pytest.raises(HearthError, match="echo_guard must be speakers, headphones or half-duplex"):
        load_config(path)


def test_half_duplex_ignores_the_microphone_only_while_hearth_talks():
    guard = EchoGuard("mute", sink=None, clock=FakeClock())
    assert guard.mode == "half-duplex"
    assert guard.threshold(0.5, talking=True) > 1.0
    assert guard.threshold(0.5, talking=False) == 0.5
    assert EchoGuard("headphones", sink=None, clock=FakeClock()).threshold(0.5, talking=True) == 0.5


def test_headphones_pass_every_step_as_it_came():
    guard = EchoGuard("headphones", sink=None, clock=FakeClock())
    step = Step(Signal.SPEECH_START, first_frame=3)
    assert guard.judge(step, voiced=True, turn_id=1) == (step, "")
    assert not guard.heard_echo(2, "Great news for Sam")


def test_frames_read_late_by_a_busy_loop_do_not_move_the_timeline():
    clock = FakeClock()
    ref = EchoReference(now=clock.now)
    for index in range(10):  # frames of 512 samples read on time, then late by 0.2 s
        clock.t = 100.0 + (index + 1) * 0.032 + (0.2 if index >= 5 else 0.0)
        ref.anchor((index + 1) * 512)
    assert ref.position_at(100.0 + 10 * 0.032) == 10 * 512


def test_what_is_about_to_play_counts_as_playing_since_its_echo_may_come_first():
    # the reference may sit a little later than where the sound really played: the echo of a reply's
    # first frame can be in the microphone a frame or two before the reference says it plays
    clock = FakeClock()
    ref = EchoReference(now=clock.now)
    monitor = EchoMonitor(ref, canceller=None)
    seconds = FRAME_SAMPLES / 16_000
    starts = ECHO_LEAD_FRAMES + 2  # the input frame the reply is placed at

    def read(index: int) -> None:  # input frame `index` is read as soon as it is there
        clock.t = 100.0 + (index + 1) * seconds
        monitor.clean(Frame(np.zeros(FRAME_SAMPLES, dtype=np.float32), index, (index + 1) * seconds))

    read(0)
    ref.played(np.full(FRAME_SAMPLES * 10, 0.1, dtype=np.float32), 16_000, latency=(starts - 1) * seconds)
    read(1)  # the reply is more than ECHO_LEAD_FRAMES ahead
    assert monitor.levels.playing == 0.0 and not monitor.echo_possible
    read(2)  # its first frame is ECHO_LEAD_FRAMES ahead
    assert monitor.levels.playing == pytest.approx(0.01) and monitor.echo_possible


def test_a_person_is_confirmed_only_after_frames_in_a_row_hold_one():
    person, echo = [FrameLevels(1e-3, 8e-4, 1e-2, True)] * 4, [FrameLevels(1e-3, 1e-5, 1e-2, True)] * 4
    run = 0
    for _ in range(PERSON_FRAMES - 1):
        run = person_run(run, person, voiced=True, echo_possible=True)
        assert not person_confirmed(run)
    assert person_run(run, person, voiced=False, echo_possible=True) == run  # a gap between syllables
    assert person_run(run, echo, voiced=True, echo_possible=True) == 0  # an echo's burst, then echo again
    assert person_confirmed(person_run(run, person, voiced=True, echo_possible=True))


def test_a_voice_left_unconfirmed_is_brief_under_twice_the_frames_that_confirm_one():
    """A word or two, or a fragment of echo that faded with the pause; not a sentence the echo blurred."""
    assert brief(0) and brief(BRIEF_FRAMES - 1) and not brief(BRIEF_FRAMES)
    assert BRIEF_FRAMES > PERSON_FRAMES


def test_speech_begun_while_echo_is_possible_stops_nothing_until_it_holds_a_person():
    """The reply is paused once PAUSE_FRAMES in a row hold a person, and stops at PERSON_FRAMES."""
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=_Monitor(FrameLevels(1e-3, 8e-4, 1e-2, True)))
    list(guard.frames([FRAME] * 4))  # four frames heard at these levels
    start = Step(Signal.SPEECH_START, first_frame=3)
    assert guard.judge(start, voiced=True, turn_id=1) == (start, "suspect")  # even one that looks like a person
    said = [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(PERSON_FRAMES - 1)]
    assert said == [""] * (PAUSE_FRAMES - 2) + ["pause"] + [""] * (PERSON_FRAMES - PAUSE_FRAMES - 1) + ["person"]


def test_a_suspect_that_looked_like_a_person_and_then_like_echo_keeps_the_reply_paused_to_its_end():
    """Played on at each frame of echo and paused again at the next that looked like a person, the
    reply stuttered (each time heard again from a little before the pause): it stays paused, and
    the suspect is then too brief to be known a person by its levels (its words decide)."""
    monitor = _Monitor(FrameLevels(1e-3, 8e-4, 1e-2, True))
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    list(guard.frames([FRAME] * 4))
    guard.judge(Step(Signal.SPEECH_START, first_frame=3), voiced=True, turn_id=1)
    said = [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(PAUSE_FRAMES - 1)]
    assert said[-1] == "pause"
    monitor.levels = FrameLevels(1e-3, 1e-5, 1e-2, True)  # the canceller has the echo again
    list(guard.frames([FRAME] * 4))
    assert guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] == ""
    monitor.levels = FrameLevels(1e-3, 8e-4, 1e-2, True)
    list(guard.frames([FRAME] * 4))
    said = [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(PAUSE_FRAMES)]
    assert said == [""] * PAUSE_FRAMES
    end = Step(Signal.ENDPOINT, end_frame=20)
    assert guard.judge(end, voiced=False, turn_id=2) == (end, "unsure")


def _paused_suspect(monitor: _Monitor) -> EchoGuard:
    """A guard whose suspect the reply was paused for, not yet confirmed."""
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    list(guard.frames([FRAME] * 4))
    guard.judge(Step(Signal.SPEECH_START, first_frame=3), voiced=True, turn_id=1)
    assert [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(PAUSE_FRAMES - 1)][-1] == "pause"
    return guard


def test_a_voice_that_went_quiet_with_the_paused_reply_is_left_to_words_asking_to_stop():
    """Echo benchmark, -6 dB: 1.7 s of a reply's echo that the canceller let through was paused for,
    and then fell 21 dB within 300 ms; its transcript was answered. A person goes on at their level."""
    end = Step(Signal.ENDPOINT, end_frame=40)
    for after, heard in ((1e-5, "faded"), (5e-4, "unsure")):  # 20 dB under the level at the pause, 3 dB under
        monitor = _Monitor(FrameLevels(1e-3, 8e-4, 1e-2, True))
        guard = _paused_suspect(monitor)
        monitor.levels = FrameLevels(after, after, 1e-2, True)
        for _ in range(FADE_WAIT_FRAMES + 2):
            assert guard.judge(Step(Signal.NONE), voiced=False, turn_id=2)[1] == ""
        assert guard.judge(end, voiced=False, turn_id=2) == (end, heard)
    # ended before the room's echo of the reply could have gone: its level says nothing
    monitor = _Monitor(FrameLevels(1e-3, 8e-4, 1e-2, True))
    guard = _paused_suspect(monitor)
    monitor.levels = FrameLevels(1e-5, 1e-5, 1e-2, True)
    for _ in range(FADE_WAIT_FRAMES - 2):
        guard.judge(Step(Signal.NONE), voiced=False, turn_id=2)
    assert guard.judge(end, voiced=False, turn_id=2) == (end, "unsure")
    assert faded_with_pause(1e-3, 3e-5) and not faded_with_pause(1e-3, 1e-4) and not faded_with_pause(1e-3, None)


def test_after_a_pause_for_a_suspect_that_ended_unconfirmed_only_a_confirmed_person_pauses_the_reply_for_a_while():
    """Played on after a pause for its own echo, a live reply was paused for its echo six times more:
    for WARY_SECONDS the next suspect pauses it only once it is a person."""
    from assistant.pipeline.echo_guard import WARY_SECONDS

    clock = FakeClock()
    guard = EchoGuard("speakers", sink=None, clock=clock, monitor=_Monitor(FrameLevels(1e-3, 8e-4, 1e-2, True)))
    list(guard.frames([FRAME] * 4))

    def suspect_for(frames: int) -> list[str]:
        guard.judge(Step(Signal.SPEECH_START, first_frame=3), voiced=True, turn_id=1)
        return [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(frames)]

    assert "pause" in suspect_for(PAUSE_FRAMES)
    guard.judge(Step(Signal.DISCARD), voiced=False, turn_id=2)
    clock.t += WARY_SECONDS - 1
    assert suspect_for(PERSON_FRAMES - 1) == [""] * (PERSON_FRAMES - 2) + ["person"]  # (the loop pauses it then)
    clock.t += 1
    assert "pause" in suspect_for(PAUSE_FRAMES)


def test_a_suspect_that_ends_without_holding_a_person_is_dropped_as_echo():
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=_Monitor(FrameLevels(1e-3, 1e-5, 1e-2, True)))
    list(guard.frames([FRAME] * 4))  # four frames heard at these levels
    guard.judge(Step(Signal.SPEECH_START, first_frame=3), voiced=True, turn_id=1)
    for _ in range(10):
        assert guard.judge(Step(Signal.NONE), voiced=True, turn_id=2) == (Step(Signal.NONE), "")
    assert guard.judge(Step(Signal.ENDPOINT), voiced=False, turn_id=2) == (Step(Signal.NONE), "echo")


def test_a_suspect_that_ends_while_the_reply_is_paused_for_it_is_left_to_its_words():
    """Too brief to be confirmed on its levels ("wait", "no"), but it held a person to its end: its
    endpoint goes on, for the loop to judge its words (assistant/pipeline/overlap.py)."""
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=_Monitor(FrameLevels(1e-3, 8e-4, 1e-2, True)))
    list(guard.frames([FRAME] * 4))
    guard.judge(Step(Signal.SPEECH_START, first_frame=3), voiced=True, turn_id=1)
    said = [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(PAUSE_FRAMES + 2)]
    assert "pause" in said and "person" not in said
    end = Step(Signal.ENDPOINT, end_frame=20)
    assert guard.judge(end, voiced=False, turn_id=2) == (end, "unsure")
    assert not guard.suspect and guard.dropped == 0


def test_once_the_canceller_has_lost_the_echo_nothing_is_confirmed_until_it_is_learned_again():
    """As in the live room: Hearth's next reply after a barge-in, its echo looking like a person, and
    then a frame the canceller made 12 dB louder than it came: no person on that canceller's word."""
    like_a_person = FrameLevels(2.4e-3, 2.1e-3, 5.6e-2, True)
    monitor = _Monitor(like_a_person)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    list(guard.frames([FRAME] * 4))
    guard.judge(Step(Signal.SPEECH_START, first_frame=3), voiced=True, turn_id=1)
    said = [guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] for _ in range(4)]
    assert "pause" in said
    monitor.levels = FrameLevels(2e-5, 3.3e-4, 5.6e-2, True)
    list(guard.frames([FRAME]))
    guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)
    assert monitor.relearned == 1
    monitor.levels = FrameLevels(2.4e-3, 2.1e-3, 5.6e-2, converged=False)  # what the canceller leaves is unknown
    for _ in range(PERSON_FRAMES + 5):
        list(guard.frames([FRAME]))
        assert guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] == ""
    # paused for it, it is left to its words, which stop the reply only if they ask it to stop
    assert guard.judge(Step(Signal.ENDPOINT), voiced=False, turn_id=2)[1] == "unsure"


def test_a_microphone_well_above_the_loudest_echo_the_room_carried_is_louder_than_echo():
    """Whatever the canceller made of it: its suppressor silences a person's first syllables over a
    loud reply (cleaned 0 here)."""
    learned = LOUD_CEILING_FRAMES
    assert louder_than_echo(FrameLevels(4e-3, 0.0, 1e-2, True, echo_ceiling=1e-3, ceiling_frames=learned))  # 6 dB
    assert not louder_than_echo(FrameLevels(1.5e-3, 1.5e-3, 1e-2, True, echo_ceiling=1e-3, ceiling_frames=learned))
    assert not louder_than_echo(FrameLevels(4e-3, 4e-3, 1e-2, True, echo_ceiling=0.0))  # the room not learned yet
    # learned from too little echo (the first second of a session's first reply) it is not trusted
    assert not louder_than_echo(FrameLevels(4e-3, 0.0, 1e-2, True, echo_ceiling=1e-3, ceiling_frames=learned - 1))
    assert loud_run(1, FrameLevels(4e-3, 0.0, 1e-2, True, echo_ceiling=1e-3, ceiling_frames=learned)) == 2
    assert loud_run(1, FrameLevels(1e-3, 0.0, 1e-2, True, echo_ceiling=1e-3, ceiling_frames=learned)) == 0


# a person's first syllables over a loud reply: the microphone 9 dB above the loudest echo, the
# canceller's output silenced, no speech to the listener yet
_LOUD_ONSET = FrameLevels(4e-3, 1e-10, 1e-2, True, echo_ceiling=5e-4, ceiling_frames=LOUD_CEILING_FRAMES)
_ECHO_ONLY = FrameLevels(4e-4, 1e-8, 1e-2, True, echo_ceiling=5e-4, ceiling_frames=LOUD_CEILING_FRAMES)
_FADED = replace(_ECHO_ONLY, mic=4e-6)  # the echo's tail, the reply paused


def _before_speech(guard: EchoGuard, monitor, levels: FrameLevels, frames: int, may_pause: bool = True) -> list[str]:
    """What the guard makes of `frames` frames at these levels, no speech heard."""
    monitor.levels = levels
    said = []
    for _ in range(frames):
        list(guard.frames([FRAME]))
        said.append(guard.judge(Step(Signal.NONE), voiced=False, turn_id=1, loud_may_pause=may_pause)[1])
    return said


def test_a_sound_well_above_the_loudest_echo_pauses_the_reply_before_the_listener_hears_speech():
    """The speech that follows is a suspect the reply is already paused for: ended with frames that
    held a person but unconfirmed, its words decide."""
    monitor = _Monitor(_ECHO_ONLY)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    assert _before_speech(guard, monitor, _ECHO_ONLY, 10) == [""] * 10
    assert _before_speech(guard, monitor, _LOUD_ONSET, PAUSE_FRAMES) == [""] * (PAUSE_FRAMES - 1) + ["pause"]
    assert _before_speech(guard, monitor, _LOUD_ONSET, 3) == [""] * 3  # paused, waiting for speech
    start = Step(Signal.SPEECH_START, first_frame=3)
    assert guard.judge(start, voiced=True, turn_id=1) == (start, "suspect")
    monitor.levels = FrameLevels(1e-3, 8e-4, 1e-2, True, echo_ceiling=5e-4,
                                 ceiling_frames=LOUD_CEILING_FRAMES)  # the canceller lets it through
    said = []
    for _ in range(PAUSE_FRAMES + 2):
        list(guard.frames([FRAME]))
        said.append(guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1])
    assert said == [""] * (PAUSE_FRAMES + 2)  # paused already
    end = Step(Signal.ENDPOINT, end_frame=20)
    assert guard.judge(end, voiced=False, turn_id=2) == (end, "unsure")


def test_speech_after_a_loud_onset_that_never_held_a_person_is_echo_when_it_ends():
    """The reply paused, Hearth's echo fades with it: Whisper made sentences of such echo, and they
    stopped the reply."""
    monitor = _Monitor(_ECHO_ONLY)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    assert _before_speech(guard, monitor, _LOUD_ONSET, PAUSE_FRAMES)[-1] == "pause"
    start = Step(Signal.SPEECH_START, first_frame=3)
    assert guard.judge(start, voiced=True, turn_id=1) == (start, "suspect")
    monitor.levels = _ECHO_ONLY
    for _ in range(8):
        list(guard.frames([FRAME]))
        assert guard.judge(Step(Signal.NONE), voiced=True, turn_id=2)[1] == ""
    assert guard.judge(Step(Signal.ENDPOINT, end_frame=20), voiced=False, turn_id=2) == (Step(Signal.NONE), "echo")


def test_a_loud_sound_that_never_becomes_speech_lets_the_reply_play_on():
    monitor = _Monitor(_ECHO_ONLY)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    assert _before_speech(guard, monitor, _LOUD_ONSET, PAUSE_FRAMES)[-1] == "pause"
    said = _before_speech(guard, monitor, _FADED, LOUD_ONSET_WAIT_FRAMES + 1)
    assert said == [""] * LOUD_ONSET_WAIT_FRAMES + ["resume"]
    start = Step(Signal.SPEECH_START, first_frame=30)  # speech later is judged afresh
    assert guard.judge(start, voiced=True, turn_id=1) == (start, "suspect")
    end = Step(Signal.ENDPOINT, end_frame=40)
    assert guard.judge(end, voiced=False, turn_id=2) == (Step(Signal.NONE), "echo")


def test_a_loud_sound_that_goes_on_keeps_the_reply_paused_a_while_longer_for_speech_to_be_heard():
    # at -6 dB the suppressor held a talk-over's voice from the listener for 416 ms: the reply played on
    # one frame before the speech start came, and was paused again 128 ms later (echo benchmark)
    monitor = _Monitor(_ECHO_ONLY)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    assert _before_speech(guard, monitor, _LOUD_ONSET, PAUSE_FRAMES)[-1] == "pause"
    said = _before_speech(guard, monitor, _LOUD_ONSET, LOUD_ONSET_MAX_FRAMES + 1)
    assert said == [""] * LOUD_ONSET_MAX_FRAMES + ["resume"]  # and no longer: it may be no voice at all


def test_a_paused_reply_waits_for_speech_the_first_frames_and_then_only_while_the_sound_goes_on():
    level = 4e-3
    assert all(onset_waits(n, level, 1e-9) for n in range(LOUD_ONSET_WAIT_FRAMES))
    assert onset_waits(LOUD_ONSET_WAIT_FRAMES, level, level / 10)  # 10 dB down: still a voice
    assert not onset_waits(LOUD_ONSET_WAIT_FRAMES, level, level / 100)  # 20 dB down: gone quiet
    assert not onset_waits(LOUD_ONSET_MAX_FRAMES, level, level)


def test_a_loud_voice_within_an_utterance_or_with_no_reply_playing_pauses_nothing():
    """Once the listener hears speech, the reply's pauses are the suspect's or the overlap judge's: a
    loud onset judged there played the reply on while the overlap judge held the person's words."""
    monitor = _Monitor(_ECHO_ONLY)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    assert _before_speech(guard, monitor, _LOUD_ONSET, 20, may_pause=False) == [""] * 20


def test_where_no_echo_path_was_measured_a_loud_sound_pauses_nothing():
    """The microphone goes to the listener as it came, and nothing silences a person's voice; the
    room's noise stood above the little echo that reached it as a reply's echo tail faded."""
    no_path = replace(_LOUD_ONSET, cancelled=False)
    assert not louder_than_echo(no_path)
    monitor = _Monitor(no_path)
    guard = EchoGuard("speakers", sink=None, clock=FakeClock(), monitor=monitor)
    assert _before_speech(guard, monitor, no_path, 20) == [""] * 20


class _Monitor:
    """The guard's view of the echo canceller, fixed at one frame's levels (what is being judged)."""

    def __init__(self, levels: FrameLevels) -> None:
        self.levels = levels
        self.echo_possible = True
        self.relearned = 0

    def clean(self, frame: Frame) -> Frame:
        return frame

    def learn(self, voiced: bool) -> None:
        pass

    def relearn(self) -> None:
        self.relearned += 1


FRAME = Frame(np.zeros(FRAME_SAMPLES, dtype=np.float32), 0, 0.032)


def test_the_speakers_player_gives_the_device_what_is_queued_then_silence():
    from audio.players import DevicePlayer

    heard = []
    player = DevicePlayer(16_000, lambda block, delay: heard.append((block, delay)))
    player.put(np.ones(300, dtype=np.float32))
    assert player.playing
    out = np.full(160, 9.0, dtype=np.float32)
    player.fill(out, 0.05)
    assert np.all(out == 1.0) and player.playing
    player.fill(out, 0.05)
    assert np.all(out[:140] == 1.0) and np.all(out[140:] == 0.0)  # the rest of the buffer is silence
    assert not player.playing and player.played_seconds == 300 / 16_000
    player.fill(out, 0.05)
    assert not out.any()
    assert [len(b) for b, _ in heard] == [160, 160, 160]  # every buffer, silence too, told as played
    player.put(np.ones(1000, dtype=np.float32))
    player.fill(out, 0.05)
    assert player.stop() == (300 + 160) / 16_000 and not player.playing  # a barge-in drops the rest
    player.fill(out, 0.05)
    assert not out.any()


class _Unconverged:
    """A canceller that has not learned the room yet: it passes the echo through."""

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        return near


def test_the_echos_residue_is_not_learned_before_the_echo_can_have_arrived():
    """The session's first reply: playing begins, the microphone stays silent while the sound
    travels, then the echo arrives and the canceller, which has never heard it, passes it. Frames
    of silence at the start of playing must not teach a residue of nothing: the echo would then
    pass for a person and stop the reply (it did, in the live room)."""
    from audio.echo import ECHO_ARRIVAL_FRAMES, EchoMonitor

    clock = FakeClock()
    reference = EchoReference(now=clock.now)
    reference.anchor(0)
    reference.played(np.full(2 * 16_000, 0.1, dtype=np.float32), 16_000)  # two seconds from input sample 0
    monitor = EchoMonitor(reference, _Unconverged())
    recent = []
    for index in range(40):
        arrived = index >= ECHO_ARRIVAL_FRAMES  # the echo reaches the microphone this many frames late
        samples = np.full(FRAME_SAMPLES, 0.1 if arrived else 0.0, dtype=np.float32)
        monitor.clean(Frame(samples, index, (index + 1) * 0.032))
        recent.append(monitor.levels)
        if arrived:
            assert not person_speaking(recent, echo_possible=True), f"the echo passed for a person at frame {index}"
        monitor.learn(voiced=arrived)


class _Taking:
    """A canceller that has learned the room: it takes the echo (a tenth of what plays) and passes
    a person's voice."""

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        return near - 0.1 * far


def test_the_rooms_echo_ceiling_outlasts_a_canceller_that_lost_the_echo():
    """The canceller's residue is learned again after it lost the echo; the room still carries
    the echo as loud as before, so a person well above it is heard meanwhile, and the echo is not."""
    from audio.echo import EchoMonitor

    clock = FakeClock()
    reference = EchoReference(now=clock.now)
    reference.anchor(0)
    reference.played(np.full(4 * 16_000, 0.1, dtype=np.float32), 16_000)
    monitor = EchoMonitor(reference, _Taking())

    def hear(index: int, level: float, voiced: bool) -> FrameLevels:
        monitor.clean(Frame(np.full(FRAME_SAMPLES, level, dtype=np.float32), index, (index + 1) * 0.032))
        levels = monitor.levels
        monitor.learn(voiced)
        return levels

    for index in range(40):  # the echo, 20 dB below what plays
        hear(index, 0.01, voiced=True)
    monitor.relearn()
    echo = [hear(index, 0.01, voiced=True) for index in range(40, 44)]
    assert not echo[-1].converged and not person_speaking(echo, echo_possible=True)
    person = [hear(index, 0.1, voiced=True) for index in range(44, 48)]  # 20 dB above the echo
    assert not person[-1].converged and person_speaking(person, echo_possible=True)
