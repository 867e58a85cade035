"""Speech over a reply that is playing: a backchannel lets it play on, an interruption stops it.

A person listening says "mm-hmm", "yeah", "right", coughs or laughs; they have not asked Hearth to
stop. "Wait", "no" or a real sentence is an interruption. Speech that would have stopped a reply
(a barge-in) is first held: the reply pauses, and the utterance reaches no planner while it
is judged. It is an interruption once it has been voiced longer than a backchannel lasts, or once
its words are not a backchannel's: its first words, transcribed halfway to that length (a
listener's first words decide nothing), or all of them, transcribed as the voice stops. Then the
barge-in goes ahead and the utterance is a turn like any other. It lets the reply play on (from a
little before where it paused) when it ends with only a backchannel's words, with no words, with
Hearth's own words heard back, or too short to be a turn; that utterance is skipped.
"""

from __future__ import annotations

import logging
import re
from concurrent.futures import Future, TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Callable

import numpy as np

from audio.endpointer import Signal, Step

from assistant.pipeline.hearing import worth_answering
from assistant.pipeline.worker import Worker
from memory.lexicon import ASSISTANT_NAMES

log = logging.getLogger(__name__)

# What a listener says to show they are following. Whisper spells the hummed ones many ways.
_BACKCHANNEL_PHRASES = re.compile(r"\b(?:uh[- ]?huh|mm+[- ]?hm+|m-hm+|i see|got it|of course|all right|"
                                  r"that's right|makes sense|fair enough|go on|i know)\b")
_BACKCHANNEL_WORDS = frozenset(
    "mm mmm hm hmm mhm uh um ah oh aha ooh wow yeah yep yes yup ya okay ok right sure alright true "
    "exactly indeed cool nice great good ha haha hehe totally definitely absolutely".split())
# Words that ask Hearth to stop or to listen, never a listener's; and its name, said to get its attention
_STOP_WORDS = frozenset("no nope not stop wait hold hang pause sorry what hey excuse but actually shh quiet enough "
                        "pardon".split()) | ASSISTANT_NAMES
MAX_BACKCHANNEL_WORDS = 4  # "yeah, yeah, right" is still listening; a longer run is saying something
TRANSCRIPT_WAIT_S = 3.0  # at the utterance's end, how long its transcript may still be waited for


def is_backchannel(text: str) -> bool:
    """Pure. Words that only show the person is listening: hums, "yeah", "right", a laugh, any one
    word that asks nothing of Hearth; or no words at all (Whisper's tags for a cough or a laugh). A
    short one may end in a word Whisper made of the breath after it ("Yeah, go."), unless that word
    asks Hearth to stop."""
    if not worth_answering(text):
        return True
    # a phrase ("of course") counts as one listener's word; numbers are words ("10 of course")
    words = re.findall(r"[a-z0-9']+", _BACKCHANNEL_PHRASES.sub(" mhm ", text.lower()))
    if len(words) > MAX_BACKCHANNEL_WORDS or any(w in _STOP_WORDS for w in words):
        return False
    if len(words) == 1:  # one word alone, not asking to stop, is a listener's: "nice", "indeed" (heard as "did")
        return True
    others = [n for n, w in enumerate(words) if w not in _BACKCHANNEL_WORDS]
    return not others or (len(words) == 2 and others == [1])


@dataclass(frozen=True)
class Ruling:
    """What held speech over the reply turned out to be."""

    stops: bool  # True: an interruption, the reply stops; False: it plays on
    why: str  # stops: "long", "words"; plays on: "backchannel", "echo", "too short"


def asks_to_stop(text: str) -> bool:
    """Pure. Words that ask Hearth to stop or to listen ("wait", "no", "hang on", its name)."""
    return any(w in _STOP_WORDS for w in re.findall(r"[a-z']+", text.lower()))


def ruling_on_words(text: str | None, own_words: bool, brief: bool = False) -> Ruling:
    """Pure. The ruling on an utterance's transcript (None: it could not be made). brief: a voice
    too brief to tell from Hearth's echo by its levels: only words that ask Hearth to stop stop
    it (an echo's few words came back as anything)."""
    if text is None:  # a person is answered rather than ignored; a voice not known to be one is not
        return Ruling(False, "echo") if brief else Ruling(True, "words")
    if own_words:
        return Ruling(False, "echo")
    if brief:
        return Ruling(True, "words") if asks_to_stop(text) else Ruling(False, "echo")
    return Ruling(False, "backchannel") if is_backchannel(text) else Ruling(True, "words")


@dataclass
class _Held:
    turn_id: int
    voiced_frames: int
    brief: bool  # too brief to tell from Hearth's echo by its levels (ruling_on_words)
    transcript: Future | None = None  # of the utterance up to the voice's last stop
    ruling: Ruling | None = None  # on that transcript, once it is back
    look: Future | None = None  # of its first words, transcribed halfway to max_frames
    looked: bool = False  # (once only)


class OverlapJudge:
    """On the listening thread: holds and judges speech over a playing reply. max_frames of voice
    make it an interruption whatever it says (0: nothing is held, every barge-in stops at once).
    transcribe runs on a worker of its own; is_echo(turn_id, text) says whether words are Hearth's own."""

    def __init__(self, max_frames: int, transcribe: Callable[[np.ndarray], str],
                 is_echo: Callable[[int, str], bool],
                 transcribe_start: Callable[[np.ndarray], str | None] | None = None) -> None:
        """transcribe_start: the first words, quick or not at all (None where the decode is unsure:
        a word cut off mid-way was decoded again in Whisper's full window, 0.5 s beside a playing
        reply, and then "Wait a minute." for "wait" stopped it no sooner than all its words would);
        `transcribe` when not given."""
        self.max_frames = max_frames
        self._transcribe, self._is_echo = transcribe, is_echo
        self._transcribe_start = transcribe_start or transcribe
        self._worker = Worker("judging speech over the reply")
        self._held: _Held | None = None

    @property
    def holding(self) -> bool:
        return self._held is not None

    def hold(self, turn_id: int, voiced_frames: int, brief: bool = False) -> bool:
        """Speech that would stop the reply began (voiced_frames of it so far; brief: it has ended,
        too brief to tell from Hearth's echo by its levels): hold it rather than stop, if holding
        is on. True: it is held."""
        if self.max_frames <= 0:
            return False
        self._held = _Held(turn_id, voiced_frames, brief)
        return True

    def judge(self, step: Step, voiced: bool, audio: Callable[[], np.ndarray]) -> tuple[Step, Ruling | None]:
        """While speech is held: the step the loop should take (NONE while judging) and the ruling,
        once there is one. A ruling that stops the reply gives the step back as it came, so that
        the utterance goes on as a turn; one that lets the reply play on swallows it."""
        held = self._held
        if held is None:
            return step, None
        signal = step.signal
        if signal is Signal.DISCARD:
            return self._rule(Step(Signal.NONE), Ruling(False, "too short"))
        held.voiced_frames += voiced
        if held.voiced_frames >= self.max_frames:
            return self._rule(step, Ruling(True, "long"))
        if signal is Signal.SILENCE_START or (signal is Signal.ENDPOINT and held.transcript is None):
            held.transcript, held.ruling = self._worker.submit(self._transcribe, audio()), None
        elif signal is Signal.SPEECH_RESUMED:
            held.transcript, held.ruling = None, None  # it no longer holds all that was said
        elif not held.looked and held.transcript is None and held.voiced_frames >= self.max_frames // 2:
            # still talking halfway to max_frames: a sentence's first words say so sooner than its length
            held.look, held.looked = self._worker.submit(self._transcribe_start, audio()), True
        if held.look is not None and held.look.done() and signal is not Signal.ENDPOINT:
            look, held.look = self._first_words(held), None
            if look is not None and look.stops:  # a listener's first words decide nothing yet
                return self._rule(Step(Signal.NONE), look)
        if held.transcript is not None and held.ruling is None and (signal is Signal.ENDPOINT
                                                                     or held.transcript.done()):
            held.ruling = self._ruling(held)
        if signal is Signal.ENDPOINT:
            return self._rule(step if held.ruling.stops else Step(Signal.NONE), held.ruling)
        if held.ruling is not None and held.ruling.stops:  # "wait": no need to hear the silence out
            return self._rule(Step(Signal.NONE), held.ruling)
        return Step(Signal.NONE), None

    def _ruling(self, held: _Held) -> Ruling:
        text = None
        try:
            text = held.transcript.result(timeout=TRANSCRIPT_WAIT_S)
        except FutureTimeout:
            log.warning("speech over the reply was not transcribed in time")
        except Exception as exc:
            log.error("transcribing speech over the reply failed (%s)", type(exc).__name__)
        return ruling_on_words(text, text is not None and self._is_echo(held.turn_id, text), held.brief)

    def _first_words(self, held: _Held) -> Ruling | None:
        """The ruling on the first words, now that they are back; None if they could not be made."""
        try:
            text = held.look.result(timeout=0)
        except Exception as exc:  # the transcript of all of it will decide
            log.error("transcribing the first words over the reply failed (%s)", type(exc).__name__)
            return None
        if text is None:  # unsure of them: all of it will decide
            return None
        return ruling_on_words(text, self._is_echo(held.turn_id, text))

    def _rule(self, step: Step, ruling: Ruling) -> tuple[Step, Ruling]:
        self._held = None
        return step, ruling

    def close(self) -> None:
        self._worker.close()
