"""Speech over a playing reply (assistant/pipeline/overlap.py): backchannels let it play on,
interruptions stop it. The decision on its own, then real recordings talked over a reply."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

from assistant.pipeline.overlap import OverlapJudge, Ruling, is_backchannel, ruling_on_words
from audio.endpointer import Signal, Step
from conftest import load_benchmark


@pytest.mark.parametrize("text", ["Mm-hmm.", "Uh-huh, right.", "Yeah.", "Okay", "I see.", "(laughs)", "",
                                  "Yeah yeah.", "Oh, really?", "Yeah, go.", "Nice.", "Did."])
def test_a_listeners_words_are_a_backchannel(text):
    assert is_backchannel(text)


@pytest.mark.parametrize("text", ["Wait.", "No, no.", "Okay, stop.", "Yeah, but", "Seven of clubs.",
                                  "Hold on a second", "What?", "Tell me more", "Yeah yeah yeah yeah yeah",
                                  "3 of course.", "Ten, of course", "Hearth?", "Enough.", "Pardon?"])
def test_words_that_want_the_floor_are_no_backchannel(text):
    assert not is_backchannel(text)


def test_words_heard_back_from_hearth_are_echo_and_words_not_made_stop_the_reply():
    assert ruling_on_words("Printing has always had", own_words=True) == Ruling(False, "echo")
    assert ruling_on_words(None, own_words=False).stops  # not transcribed: the person is answered
    # too brief to be known a person: not transcribed, or no word asking Hearth to stop, and it plays on
    assert ruling_on_words(None, own_words=False, brief=True) == Ruling(False, "echo")
    assert ruling_on_words("Is that all?", own_words=False, brief=True) == Ruling(False, "echo")
    assert ruling_on_words("Stop.", own_words=False, brief=True) == Ruling(True, "words")


class Transcripts:
    """Stands in for the speech recogniser so each step's outcome is known: the judge's decisions
    are what is tested here (real recordings go through the real one below). Calls wait on `go`."""

    def __init__(self, text: str) -> None:
        self.text, self.calls, self.go = text, 0, threading.Event()
        self.go.set()

    def __call__(self, audio) -> str:
        self.calls += 1
        self.go.wait(5)
        return self.text


def judge_of(text: str, max_frames: int = 25, own=False):
    transcripts = Transcripts(text)
    return OverlapJudge(max_frames, transcripts, lambda turn, words: own), transcripts


def run(judge, signals):
    """Feed (signal, voiced) pairs; the steps the loop would act on and the first ruling."""
    out, ruling = [], None
    for signal, voiced in signals:
        step, r = judge.judge(Step(signal), voiced, lambda: [0.0] * 16000)
        out.append(step.signal)
        ruling = ruling or r
    return out, ruling


SPEECH, SILENCE = (Signal.NONE, True), (Signal.NONE, False)


def test_a_backchannel_is_swallowed_and_lets_the_reply_play_on():
    judge, _ = judge_of("Mm-hmm.")
    assert judge.hold(turn_id=2, voiced_frames=3)
    steps, ruling = run(judge, [SPEECH] * 8 + [(Signal.SILENCE_START, False)] + [SILENCE] * 10
                        + [(Signal.ENDPOINT, False)])
    assert ruling == Ruling(False, "backchannel")
    assert set(steps) == {Signal.NONE}  # no endpoint reaches the planner: nothing is answered
    assert not judge.holding


def test_an_interruption_in_words_stops_the_reply_before_its_endpoint_and_is_then_a_turn():
    judge, _ = judge_of("Wait.")
    judge.hold(2, 3)
    steps, ruling = run(judge, [SPEECH] * 5 + [(Signal.SILENCE_START, False)])
    deadline = time.monotonic() + 5
    while ruling is None and time.monotonic() < deadline:  # silence goes on while the words are transcribed
        step, ruling = judge.judge(Step(Signal.NONE), False, lambda: [])
        steps.append(step.signal)
        time.sleep(0.01)
    assert ruling == Ruling(True, "words") and set(steps) == {Signal.NONE}
    assert not judge.holding  # what follows (the endpoint) goes to the planner as it comes
    assert judge.judge(Step(Signal.ENDPOINT), False, lambda: [])[0].signal is Signal.ENDPOINT


def test_speech_longer_than_a_backchannel_stops_the_reply_whatever_was_transcribed():
    judge, transcripts = judge_of("Mm-hmm.", max_frames=10)
    judge.hold(2, 3)
    steps, ruling = run(judge, [SPEECH] * 7)
    assert ruling == Ruling(True, "long")
    assert steps[-1] is Signal.NONE and not judge.holding
    assert transcripts.calls == 1  # its first words were looked at halfway


def test_first_words_that_stop_it_stop_it_while_the_rest_is_still_being_transcribed():
    """Looked at halfway, "Wait a minute" stops the reply; the voice stopped meanwhile, and the
    transcript of all of it (queued behind the first) is not waited for."""
    first, rest, made = threading.Event(), threading.Event(), []

    def transcribe(audio):
        (first if not made else rest).wait(5)
        made.append("Wait a minute.")
        return made[-1]

    judge = OverlapJudge(10, transcribe, lambda turn, words: False)
    judge.hold(2, 3)
    run(judge, [SPEECH] * 2 + [(Signal.SILENCE_START, False)])  # looked at 5 voiced frames
    first.set()
    ruling, deadline = None, time.monotonic() + 5
    while ruling is None and time.monotonic() < deadline:
        _, ruling = judge.judge(Step(Signal.NONE), False, lambda: [])
        time.sleep(0.01)
    assert ruling == Ruling(True, "words") and len(made) == 1 and not judge.holding
    rest.set()


def test_first_words_the_recogniser_is_unsure_of_decide_nothing_and_all_of_them_do():
    """Looked at halfway, a word cut off mid-way is no ruling (the quick decode gives None rather
    than a slow one in Whisper's full window); the words of all of it, at the voice's stop, decide."""
    starts = []

    def start(audio):
        starts.append(len(audio))
        return None

    whole = Transcripts("Wait.")
    whole.go.clear()  # all of it is transcribed only once the first words have been judged
    judge = OverlapJudge(10, whole, lambda turn, words: False, transcribe_start=start)
    judge.hold(2, 3)
    steps, ruling = run(judge, [SPEECH] * 3)
    deadline = time.monotonic() + 5
    while not starts and time.monotonic() < deadline:
        time.sleep(0.01)
    steps, ruling = run(judge, [SPEECH] + [(Signal.SILENCE_START, False)])
    assert ruling is None and starts == [16000]  # looked at once, and no ruling from it
    whole.go.set()
    deadline = time.monotonic() + 5
    while ruling is None and time.monotonic() < deadline:
        _, ruling = judge.judge(Step(Signal.NONE), False, lambda: [])
        time.sleep(0.01)
    assert ruling == Ruling(True, "words")


def test_a_blip_too_short_to_be_a_turn_lets_the_reply_play_on():
    judge, transcripts = judge_of("anything")
    judge.hold(2, 3)
    steps, ruling = run(judge, [SPEECH, (Signal.DISCARD, False)])
    assert ruling == Ruling(False, "too short") and steps == [Signal.NONE, Signal.NONE]
    assert transcripts.calls == 0


def test_speech_resumed_after_a_pause_is_judged_on_all_of_it_at_the_end():
    judge, transcripts = judge_of("Yeah.")
    judge.hold(2, 3)
    transcripts.go.clear()  # the first pause's transcript is still being made when speech resumes
    run(judge, [SPEECH, (Signal.SILENCE_START, False), (Signal.SPEECH_RESUMED, True)])
    transcripts.text = "Yeah, but the other thing"
    transcripts.go.set()
    steps, ruling = run(judge, [SPEECH, (Signal.SILENCE_START, False), (Signal.ENDPOINT, False)])
    assert ruling == Ruling(True, "words") and steps[-1] is Signal.ENDPOINT


def test_words_of_hearths_own_reply_heard_back_let_it_play_on():
    judge, _ = judge_of("I wonder what the first printers", own=True)
    judge.hold(2, 3)
    _, ruling = run(judge, [SPEECH, (Signal.SILENCE_START, False), (Signal.ENDPOINT, False)])
    assert ruling == Ruling(False, "echo")


@pytest.mark.parametrize("text, stops", [("Wait.", True), ("Mm-hmm.", False), ("No, no.", True),
                                         ("Hang on a second.", True), ("I'll since the boy.", False)])
def test_speech_held_only_at_its_end_is_ruled_there_on_all_its_words(text, stops):
    """The echo guard's "unsure": a voice too brief to be known a person by its levels, handed over
    at its endpoint. Only words that ask Hearth to stop stop it: an echo's few words, paused, end so
    too, and Whisper hears them as anything (at -6 dB in the echo benchmark, "I'll since the boy."
    of Hearth's own reply stopped it)."""
    judge, transcripts = judge_of(text)
    judge.hold(2, 0, brief=True)
    step, ruling = judge.judge(Step(Signal.ENDPOINT), False, lambda: [0.0] * 8000)
    assert ruling.stops is stops and transcripts.calls == 1 and not judge.holding
    assert step.signal is (Signal.ENDPOINT if stops else Signal.NONE)


def test_holding_off_means_every_barge_in_stops_at_once():
    judge, _ = judge_of("Mm-hmm.", max_frames=0)
    assert not judge.hold(2, 3) and not judge.holding


# Real recordings over a reply that is playing, through the whole loop (benchmarks/backchannels.py's
# trial): a meeting's "okay" and a read "indeed" let it play on; "seven of clubs" stops it. With headphones, so that
# the person is heard from the first frame (the echo guard's own tests are in test_streaming.py).
def test_a_real_okay_over_the_reply_lets_it_play_on_and_a_real_sentence_stops_it(speech_dir, engines, test_config,
                                                                                tmp_path):
    bench = load_benchmark("backchannels")
    overlaps = {o["said"]: o for o in bench.load_overlaps()}
    config = replace(test_config, echo_guard="headphones")

    reply = "That is a lovely thing to say. Printing has always had its champions."  # still playing when ruled on
    okay = bench.trial(engines, config, overlaps["okay"], tmp_path / "okay", reply)
    assert not okay["stopped"] and okay["skipped"] == ["backchannel"], okay
    assert okay["pause_ms"] is not None and okay["held_ms"] > 0  # it gave way while it listened, then played on

    # a listener's one word that no list holds (Whisper hears this "indeed" as "did") plays on too
    word = bench.trial(engines, config, overlaps["indeed"], tmp_path / "indeed", reply)
    assert not word["stopped"] and word["skipped"] == ["backchannel"], word

    sentence = bench.trial(engines, config, overlaps["seven of clubs"], tmp_path / "seven", reply)
    assert sentence["stopped"] and "clubs" in " ".join(sentence["heard"]).lower(), sentence


def test_a_wait_whose_words_come_only_at_its_endpoint_still_stops_the_reply(speech_dir, engines, test_config,
                                                                          tmp_path, monkeypatch):
    """A real "wait" over the reply, its words transcribed only once its endpoint has come (on this
    2-core machine the transcription beside a playing reply once took 0.7 s): the reply stops, and
    "wait" is then answered as a turn. The delay stands in for a busy machine; the words are the real
    recogniser's. Acted on after the endpoint, such a ruling stopped the turn's own new job instead,
    and the reply played on to its end."""
    from assistant.pipeline.loop import TurnLoop

    bench = load_benchmark("backchannels")
    wait = next(o for o in bench.load_overlaps() if o["said"] == "wait")
    transcribe = TurnLoop._transcribe_overlap

    def late(self, samples):
        time.sleep(1.5)  # past the endpoint (at most 1.1 s of silence), within the judge's wait for words
        return transcribe(self, samples)

    monkeypatch.setattr(TurnLoop, "_transcribe_overlap", late)
    trial = bench.trial(engines, replace(test_config, echo_guard="headphones"), wait, tmp_path / "wait")
    assert trial["stopped"] and "wait" in " ".join(trial["heard"]).lower(), trial


def test_the_overlaps_benchmark_reports_both_kinds():
    bench = load_benchmark("backchannels")
    trials = [{"kind": "backchannel", "stopped": False, "stop_ms": None, "ruled_ms": None, "pause_ms": 100.0,
               "held_ms": 900.0},
              {"kind": "backchannel", "stopped": True, "stop_ms": 100.0, "ruled_ms": 700.0, "pause_ms": 100.0,
               "held_ms": None},
              {"kind": "interruption", "stopped": True, "stop_ms": 120.0, "ruled_ms": 500.0, "pause_ms": 120.0,
               "held_ms": None}]
    summary = bench.summary(trials)
    assert summary["stopped_by_backchannel"] == 0.5 and summary["stopped_by_interruption"] == 1.0
    assert summary["stop_ms"]["p50"] == 120.0 and summary["ruled_ms"]["p50"] == 500.0  # interruptions' only
    assert summary["held_ms"]["p50"] == 900.0  # only what it played on after

