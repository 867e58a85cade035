"""The reply job's lifecycle through the Responder, with every engine a stand-in (tests/fakes.py):
held, released, dropped, interrupted and carried over, each race set up by the order of the
test's steps. The real engines run these paths in the replay tests; here they are exact and fast."""

from __future__ import annotations

import time

import numpy as np
import pytest

from assistant import events as ev
from assistant.clock import MonotonicClock
from assistant.engines import Engines
from assistant.pipeline.jobs import CarriedUtterance
from assistant.pipeline.lifecycle import JobState
from assistant.reply.general_checks import (ACKNOWLEDGED_REPLY, FRUSTRATING_REPLY, GLAD_REPLY, NOT_TOLD_REPLY,
                                            SORRY_REPLY)
from assistant.reply.prompt import History
from assistant.pipeline.responder import Responder
from assistant.memory_access.routing import OneMemory
from fakes import GatedChat, HeldSink, LoudnessVad, ScriptedAsr, SlowStartSink, ToneTts

REPLY = "Your dog is called Biscuit. He is a good dog."
UTTERANCE = np.full(16_000, 0.01, dtype=np.float32)


class Run:
    def __init__(self, test_config, *transcripts: str, chat: GatedChat | None = None, tts=None, sink=None) -> None:
        self.asr, self.chat, self.sink = ScriptedAsr(*transcripts), chat or GatedChat(REPLY), sink or HeldSink()
        self.events: list[ev.Event] = []
        self.history = History()
        engines = Engines(vad=None, asr=self.asr, llm=self.chat, tts=tts or ToneTts())
        self.responder = Responder(engines, self.sink, self.events.append, MonotonicClock(), test_config,
                                   self.history, OneMemory(), prefill=False)

    def seen(self, kind) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    def until(self, condition, timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < end, "timed out"
            time.sleep(0.002)


@pytest.fixture
def run(test_config):
    made: list[Run] = []

    def make(*transcripts: str, **engines) -> Run:
        made.append(Run(test_config, *transcripts, **engines))
        return made[-1]
    yield make
    for r in made:
        r.chat.open()
        r.sink.close()
        r.responder.close()


def test_a_speculative_reply_is_held_until_the_endpoint_releases_it(run):
    r = run("What do you know about my dog Biscuit?")
    r.chat.open()
    r.responder.start(1, 1, UTTERANCE, speculative=True)
    assert r.chat.finished.wait(5)  # the reply was made in the silence, and waits there
    assert r.events == [] and r.sink.played == {}
    r.responder.release(1)
    r.until(lambda: r.sink.finishing.is_set())
    r.sink.heard_all()
    r.responder.wait(1, timeout=5)
    kinds = [type(e) for e in r.events]
    assert kinds[0] is ev.AsrDone and ev.FirstAudio in kinds and kinds[-1] is ev.ReplyDone
    assert r.seen(ev.ReplyDone)[0].text == REPLY and not r.seen(ev.ReplyDone)[0].interrupted
    assert r.history.turns == [("What do you know about my dog Biscuit?", REPLY)]


def playing_after_five_underruns(run) -> Run:
    """A reply playing, its sink having run dry 5 times before it began (not the reply's own)."""
    r = run("What do you know about my dog Biscuit?")
    r.sink.underruns = 5
    r.chat.open()
    r.responder.start(1, 1, UTTERANCE, speculative=False)
    r.until(lambda: r.sink.finishing.is_set())
    return r


def test_a_reply_counts_the_times_the_speaker_ran_dry_while_it_played(run):
    r = playing_after_five_underruns(run)
    r.sink.underruns += 2  # the device's callback came late twice while the reply played
    r.sink.heard_all()
    r.responder.wait(1, timeout=5)
    assert r.seen(ev.ReplyDone)[0].underruns == 2


def test_an_interrupted_reply_counts_the_times_the_speaker_ran_dry_before_the_barge_in(run):
    r = playing_after_five_underruns(run)
    r.sink.underruns += 3  # ran dry three times while it played
    r.responder.cancel(1, "barge-in")
    r.sink.underruns += 1  # after the barge-in stopped it: another turn's
    r.responder.wait(1, timeout=5)
    done = r.seen(ev.ReplyDone)
    assert len(done) == 1 and done[0].interrupted and done[0].underruns == 3


def test_a_released_reply_is_heard_whole_before_it_is_done_however_slow_the_sink_is_to_take_it(run):
    # A reply made whole in the silence is released at the endpoint, its held audio handed to the
    # sink then. The speaking stage, which had only waited for the release, asked the sink to finish
    # before that audio was there: the reply was done at once, with 8 s of it still to play and no
    # barge-in able to stop it (a full-suite run of test_streaming's talk-over).
    import threading

    r = run("What do you know about my dog Biscuit?", sink=SlowStartSink())
    r.chat.open()
    job = r.responder.start(1, 1, UTTERANCE, speculative=True)
    assert r.chat.finished.wait(5)
    r.until(lambda: len(job.held_audio) == 2)  # both sentences voiced, held
    releasing = threading.Thread(target=r.responder.release, args=(1,))
    releasing.start()
    assert r.sink.starting.wait(5)
    time.sleep(0.2)  # time enough for the speaking stage to reach the sink, were it let through
    assert not r.sink.finishing.is_set() and r.seen(ev.ReplyDone) == []
    r.sink.go_on.set()
    releasing.join(5)
    r.until(lambda: r.sink.finishing.is_set())
    assert len(r.sink.played[1]) == 2  # all of it handed on before the reply waits to be heard
    r.sink.heard_all()
    r.responder.wait(1, timeout=5)
    assert r.seen(ev.ReplyDone)[0].text == REPLY


def test_a_speculative_reply_is_dropped_without_a_trace_when_the_person_resumes(run):
    r = run("What is my")
    r.responder.start(1, 1, UTTERANCE, speculative=True)
    r.until(lambda: r.chat.waiting.is_set())  # generating, in the silence
    assert r.responder.cancel(1, "speech resumed") is None
    r.chat.open()
    r.responder.wait(1, timeout=5)
    assert [type(e) for e in r.events] == [ev.SpeculationDropped]
    assert r.events[0].reason == "speech resumed"
    assert r.sink.played == {} and r.history.turns == []


def test_speaking_over_a_playing_reply_stops_it_and_keeps_what_was_heard(run):
    r = run("What do you know about my dog Biscuit?")
    r.chat.open()
    r.responder.start(1, 1, UTTERANCE, speculative=False)
    r.until(lambda: r.sink.finishing.is_set())  # all of it voiced, playing
    heard = r.responder.cancel(1, "barge-in")
    r.responder.wait(1, timeout=5)
    assert heard == pytest.approx(0.1 * len(REPLY.split()))
    done = r.seen(ev.ReplyDone)
    assert len(done) == 1 and done[0].interrupted and done[0].text == REPLY
    assert r.history.turns == [("What do you know about my dog Biscuit?", REPLY)]


def test_the_person_going_on_before_the_reply_played_carries_their_words_into_the_next_turn(run):
    r = run("My dog is called", "What do you know about my dog Biscuit?")
    first = np.full(8_000, 0.02, dtype=np.float32)
    r.responder.start(1, 1, first, speculative=False)
    r.until(lambda: r.chat.waiting.is_set())  # released, generating, nothing played yet
    assert r.responder.cancel(1, "barge-in") is None
    assert [e.reason for e in r.seen(ev.TurnSkipped)] == ["continued in the next turn"]
    r.chat.open()
    r.responder.wait(1, timeout=5)
    r.responder.start(2, 2, UTTERANCE, speculative=False)
    r.until(lambda: r.sink.finishing.is_set())
    r.sink.heard_all()
    r.responder.wait(2, timeout=5)
    answered = r.asr.heard[1]
    assert len(answered) == len(first) + len(CarriedUtterance.GAP) + len(UTTERANCE)
    assert np.array_equal(answered[: len(first)], first)
    assert list(r.sink.played) == [2]  # nothing of the first reply was played
    assert r.history.turns == [("What do you know about my dog Biscuit?", REPLY)]


def test_a_carried_utterance_is_answered_in_the_next_reply_and_only_in_it(run):
    r = run("My dog is called", "What do you know about my dog Biscuit?", "Thank you.")
    first = np.full(8_000, 0.02, dtype=np.float32)
    r.responder.start(1, 1, first, speculative=False)
    r.until(lambda: r.chat.waiting.is_set())
    r.responder.cancel(1, "barge-in")  # carried
    assert r.responder.carrying
    r.chat.open()
    r.responder.wait(1, timeout=5)
    for job in (2, 3):
        r.responder.start(job, job, UTTERANCE, speculative=False)
        assert not r.responder.carrying
        r.until(lambda: r.sink.finishing.is_set())
        r.sink.heard_all()
        r.responder.wait(job, timeout=5)
    assert [len(a) for a in r.asr.heard[1:]] == [len(first) + len(CarriedUtterance.GAP) + len(UTTERANCE),
                                                  len(UTTERANCE)]  # the third utterance alone


def test_a_sound_too_short_to_be_a_turn_after_a_carried_utterance_leaves_it_answered(test_config, tmp_path):
    """A cough just after the endpoint, before the reply could play: the reply gives way to it (the
    utterance is carried over), and when it proves too short to be a turn, the carried utterance is
    answered on its own, not kept until the person next speaks. Through the loop, every engine a
    stand-in (the VAD one that hears loudness), so the cough comes before any audio by construction."""
    from dataclasses import replace

    from assistant.pipeline.loop import TurnLoop
    from assistant.pipeline.loop_types import LoopOptions
    from audio import FRAME_SAMPLES
    from audio.sinks import WavSink
    from audio.sources import Frame

    chat, asr = GatedChat(REPLY), ScriptedAsr("What do you know about my dog Biscuit?")
    engines = Engines(vad=LoudnessVad(), asr=asr, llm=chat, tts=ToneTts())
    config = replace(test_config, echo_guard="headphones")
    options = LoopOptions(partials=False, anticipate=False, prefill=False, adaptive_endpoint=False)
    loop = TurnLoop(engines, WavSink(tmp_path), ev.EventBus(), MonotonicClock(), config, options=options)
    seconds = FRAME_SAMPLES / 16_000

    def frames():
        stretches = [(0.3, 0.0), (1.0, 0.05), (0.7, 0.0),  # a question, and the endpoint after 0.5 s
                     (0.16, 0.05), (0.9, 0.0)]  # a cough, 5 frames: a turn begins, and is too short
        index = 0
        for length, level in stretches:
            for _ in range(round(length / seconds)):
                yield Frame(np.full(FRAME_SAMPLES, level, dtype=np.float32), index, (index + 1) * seconds)
                index += 1
        chat.open()  # the loop has acted on the cough's end: the reply may come now
        for _ in range(10):
            yield Frame(np.zeros(FRAME_SAMPLES, dtype=np.float32), index, (index + 1) * seconds)
            index += 1

    records = loop.run(frames())
    skipped = [(e.turn_id, e.reason) for r in records for e in r.events if isinstance(e, ev.TurnSkipped)]
    assert skipped == [(1, "continued in the next turn"), (2, "too short")], skipped
    answered = [(r.heard, r.reply) for r in records if r.reply]
    assert answered == [("What do you know about my dog Biscuit?", REPLY)], answered
    answered_audio = asr.heard[-1]  # the question, carried, and none of the cough
    assert np.count_nonzero(answered_audio) == round(1.0 / seconds) * FRAME_SAMPLES
    assert not answered_audio[-len(CarriedUtterance.GAP):].any()


def test_a_release_that_loses_the_race_with_a_barge_in_changes_nothing(run):
    r = run("My dog is called")
    r.responder.start(1, 1, UTTERANCE, speculative=True)
    r.until(lambda: r.chat.waiting.is_set())
    r.responder.cancel(1, "barge-in")
    r.responder.release(1)  # the endpoint, a moment too late
    assert r.responder.cancel(1, "barge-in") is None  # and a second barge-in
    r.chat.open()
    r.responder.wait(1, timeout=5)
    assert r.sink.played == {}
    assert [type(e) for e in r.events] == [ev.TurnSkipped, ev.SpeculationDropped]


def test_a_speculative_turn_with_no_words_ends_at_the_endpoint_without_a_reply(run):
    r = run("[BLANK_AUDIO]")
    job = r.responder.start(1, 1, UTTERANCE, speculative=True)
    r.until(lambda: job.state is JobState.HELD_EMPTY)
    assert r.events == [] and r.responder.open_jobs == 1  # held: the endpoint has not come
    r.responder.release(1)
    r.responder.wait(1, timeout=5)
    assert r.responder.finished.get(timeout=5) == 1 and r.responder.open_jobs == 0
    assert [(type(e), getattr(e, "reason", "")) for e in r.events][-1] == (ev.TurnSkipped, "no words")
    assert r.sink.played == {} and r.history.turns == []


def test_a_speculative_turn_with_no_words_ends_when_the_person_resumes(run):
    r = run("...")
    job = r.responder.start(1, 1, UTTERANCE, speculative=True)
    r.until(lambda: job.state is JobState.HELD_EMPTY)
    r.responder.cancel(1, "speech resumed")
    assert r.responder.finished.get(timeout=5) == 1 and r.responder.open_jobs == 0
    assert [type(e) for e in r.events] == [ev.SpeculationDropped]


class FailingOnceTts(ToneTts):
    def __init__(self) -> None:
        self.calls = 0

    def stream(self, text: str, speed: float = 1.0):
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the voice model could not be read")
        yield from super().stream(text, speed)


def test_an_engine_that_fails_skips_that_turn_and_the_next_is_answered(run):
    r = run("What do you know about my dog Biscuit?", tts=FailingOnceTts())
    r.chat.open()
    r.responder.start(1, 1, UTTERANCE, speculative=False)
    assert r.responder.finished.get(timeout=5) == 1
    assert r.seen(ev.TurnSkipped)[0].reason == "failed: RuntimeError" and r.history.turns == []
    r.responder.start(2, 2, UTTERANCE, speculative=False)
    r.until(lambda: r.sink.finishing.is_set())
    r.sink.heard_all()
    assert r.responder.finished.get(timeout=5) == 2
    assert r.history.turns == [("What do you know about my dog Biscuit?", REPLY)]


class PromptedChat(GatedChat):
    """GatedChat that keeps the prompt of each reply: which history it was built from."""

    def __init__(self, *replies: str) -> None:
        super().__init__(*replies)
        self.prompts: list[list[dict]] = []

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid="", never_open_with=()):
        self.prompts.append(messages)
        yield from super().stream(messages, max_tokens, temperature, avoid)


def test_the_next_utterance_is_heard_and_answered_once_the_reply_before_it_has_ended(run):
    r = run("What do you know about my dog Biscuit?", "And my cat Pepper?", chat=PromptedChat(REPLY, "Your cat is called Pepper."))
    r.chat.open()
    r.responder.start(1, 1, UTTERANCE, speculative=False)
    r.until(lambda: r.sink.finishing.is_set())  # the first reply plays
    r.responder.start(2, 2, UTTERANCE, speculative=True)  # speech that did not stop it (a possible echo)
    time.sleep(0.2)
    assert len(r.asr.heard) == 1  # nothing is transcribed while a reply plays
    r.sink.heard_all()
    r.responder.wait(1, timeout=5)
    r.responder.release(2)
    r.until(lambda: r.sink.finishing.is_set())
    r.sink.heard_all()
    r.responder.wait(2, timeout=5)
    assert len(r.chat.prompts) == 2
    assert {"role": "assistant", "content": REPLY} in r.chat.prompts[1]  # the first reply, in the history
    assert r.history.turns == [("What do you know about my dog Biscuit?", REPLY), ("And my cat Pepper?", "Your cat is called Pepper.")]


def _voiced_when_every_try_fails(run, heard: str, *tries: str) -> list[str]:
    """What is voiced to `heard` when the model says `tries` (the last again and again)."""
    r = run(heard, chat=GatedChat(*tries))
    r.chat.open()
    r.responder.start(1, 1, UTTERANCE, speculative=False)
    r.until(lambda: r.sink.finishing.is_set())
    r.sink.heard_all()
    r.responder.wait(1, timeout=5)
    return [e.text for e in r.seen(ev.SentenceReady)]


def test_a_question_about_them_answered_only_with_made_up_numbers_is_told_it_was_not_said(run):
    # every try makes the age up
    assert _voiced_when_every_try_fails(run, "How old is my dog?", "Max is 10 years old.") == [NOT_TOLD_REPLY]


def test_a_question_about_them_answered_only_with_a_made_up_name_is_told_it_was_not_said(run):
    # heard live: no dog ever told of, and every try names one
    assert _voiced_when_every_try_fails(run, "What is my dog called?", "Your dog is called Max.") == [NOT_TOLD_REPLY]


@pytest.mark.parametrize("told, said", [("It's raining again here.", ACKNOWLEDGED_REPLY),
                                        ("I got the flat and I'm so happy about it.", GLAD_REPLY),
                                        ("The flat fell through and I'm gutted.", SORRY_REPLY),
                                        ("My landlord keeps ignoring my emails and I'm fed up.", FRUSTRATING_REPLY)])
def test_news_that_every_try_only_says_back_is_met_as_its_feeling_asks(run, told, said):
    assert _voiced_when_every_try_fails(run, told, *[told] * 3) == [said]


@pytest.mark.parametrize("answer", ["Your daughter is named Sam.",
                                    "My daughter is named Sam."])  # heard live: voiced "Your daughter…"
def test_their_own_name_given_to_one_of_theirs_is_left_unsaid(run, answer):
    # "Hi, I'm Sam." told, unenrolled; asked the daughter's name, the model gives the one name it has
    r = run("Hi, I'm Sam. My daughter started at a new school.", "What is my daughter called?",
            chat=GatedChat("That's lovely news.", *[answer] * 3))  # every try of the second
    r.chat.open()
    for job in (1, 2):
        r.responder.start(job, job, UTTERANCE, speculative=False)
        r.until(lambda: r.sink.finishing.is_set())
        r.sink.heard_all()
        r.responder.wait(job, timeout=5)
    assert [e.text for e in r.seen(ev.SentenceReady)] == ["That's lovely news.", NOT_TOLD_REPLY]


def test_carried_words_are_joined_to_the_partials_of_what_follows():
    carry = CarriedUtterance()
    assert carry.joined("he might") == "he might"
    assert np.array_equal(carry.before(UTTERANCE), UTTERANCE)
