"""Typed events: every stage of a turn reports what happened and when, on one clock.

The replay log, the benchmarks and the TUI all read these, so each timing is measured once.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Callable


@functools.cache
def _snake_case(name: str) -> str:  # (once per event class, not once per event)
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True)
class Event:
    turn_id: int
    t: float  # seconds on the session's clock

    @property
    def kind(self) -> str:
        """The event's name in logs and JSON: its class's, in snake case (SpeechStart: "speech_start")."""
        return _snake_case(type(self).__name__)

    def to_json(self) -> str:
        body = {"event": self.kind, **dataclasses.asdict(self)}
        return json.dumps(body, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class SpeechStart(Event):
    """Voice detected: the first frame of the utterance (pre-roll excluded) on the clock."""


@dataclass(frozen=True)
class Words(Event):
    """An event that carries words: heard from the person, or to be said to them."""
    text: str = ""


@dataclass(frozen=True)
class PartialTranscript(Words):
    """What the person has said so far, transcribed while they speak."""


@dataclass(frozen=True)
class SpeechEnd(Event):
    """The last voiced frame of the utterance ended at t."""


@dataclass(frozen=True)
class SpeechResumed(Event):
    """Voice came back before the endpoint: work started in the silence is dropped."""


@dataclass(frozen=True)
class Endpoint(Event):
    audio_seconds: float = 0.0
    cut: bool = False  # the utterance hit the maximum length
    # what ended the turn: the silence waited for, and why that long (assistant/pipeline/end_silence.py's
    # EndSilence.why, "fixed" with the adaptive endpoint off, "too long" when cut), with the end-of-turn
    # model's probability that the turn was finished (None where it did not hear this pause)
    silence_ms: int = 0
    why: str = ""
    finished: float | None = None


@dataclass(frozen=True)
class AsrDone(Words):
    """The utterance's final transcript."""
    started: float = 0.0  # when this transcription began (it may begin before the endpoint)


@dataclass(frozen=True)
class SpeakerIdentified(Event):
    person: str | None = None
    score: float = 0.0
    runner_up: str | None = None
    runner_up_score: float = 0.0


@dataclass(frozen=True)
class RecallDone(Event):
    memories: tuple[dict[str, Any], ...] = ()
    started: float = 0.0


@dataclass(frozen=True)
class LlmFirstToken(Event):
    cached_tokens: int = 0  # prompt tokens llama.cpp found in its cache (0: unknown or none)
    evaluated_tokens: int = 0  # tokens it evaluated before the first word (a cache miss shows here)


@dataclass(frozen=True)
class SentenceReady(Words):
    """A sentence of the reply, checked and about to be voiced."""


@dataclass(frozen=True)
class FirstAudio(Event):
    """The first sample of the reply reached the sink."""


@dataclass(frozen=True)
class ReplyDone(Words):
    """The reply has been heard (all of it, or up to a barge-in: `interrupted`)."""
    interrupted: bool = False
    underruns: int = 0  # times the speaker ran dry while it played (a gap in the voice)


@dataclass(frozen=True)
class PlaybackStopped(Event):
    """Barge-in: the person spoke over the reply and playback stopped."""

    heard_seconds: float = 0.0  # how much of the reply was played before it stopped


@dataclass(frozen=True)
class ReplyPaused(Event):
    """Speech over the reply looked like a person: it is held, silent, while that is judged
    (`paused`), or plays on (not a person after all, or the barge-in was confirmed and it stopped)."""

    paused: bool = True


@dataclass(frozen=True)
class SpeculationDropped(Event):
    """Work started in the silence window was thrown away because the person went on."""

    cpu_seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class TurnSkipped(Event):
    """An utterance produced no words worth answering (for example a cough)."""

    reason: str = ""


# The moments every answered turn passes through, each exactly once. Two chains are ordered:
# what the listener sees, and what the responder does; work may begin before the endpoint.
TURN_MOMENTS: tuple[type[Event], ...] = (
    SpeechStart, SpeechEnd, Endpoint, AsrDone, RecallDone, LlmFirstToken, FirstAudio, ReplyDone,
)
ORDERED_CHAINS: tuple[tuple[type[Event], ...], ...] = (
    (SpeechStart, SpeechEnd, Endpoint, FirstAudio, ReplyDone),
    (SpeechEnd, AsrDone, RecallDone, LlmFirstToken, FirstAudio),
)


@dataclass
class EventBus:
    """Delivers each event to every subscriber, in the order they subscribed. Thread-safe."""

    _subscribers: list[Callable[[Event], None]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def subscribe(self, callback: Callable[[Event], None]) -> None:
        with self._lock:
            self._subscribers.append(callback)

    def emit(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(event)
