"""A reply job (one utterance on its way to a spoken answer) and what it holds, and a call run
beside it on its own thread."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

import numpy as np

from . import events as ev

log = logging.getLogger(__name__)


class JobCancelled(Exception):
    pass


class Background:
    """Run one call on its own thread; result() waits for it (None if it failed, which is logged as
    `what` failing)."""

    def __init__(self, what: str, fn, *args) -> None:
        self._value, self._what = None, what
        self._thread = threading.Thread(target=self._run, args=(fn, args), name=what, daemon=True)
        self._thread.start()

    def _run(self, fn, args) -> None:
        try:
            self._value = fn(*args)
        except Exception as exc:
            log.error("%s failed (%s)", self._what, type(exc).__name__)
            log.debug("%s failed", self._what, exc_info=True)

    def result(self):
        self._thread.join()
        return self._value


@dataclass
class Job:
    job_id: int
    turn_id: int
    audio: np.ndarray
    released: bool
    cancelled: str = ""  # the reason, once cancelled
    done: threading.Event = field(default_factory=threading.Event)
    settled: threading.Event = field(default_factory=threading.Event)  # released or cancelled
    held_events: list[ev.Event] = field(default_factory=list)
    held_audio: list[np.ndarray] = field(default_factory=list)
    audio_started: bool = False
    sentences: list[tuple[str, float]] = field(default_factory=list)  # (sentence, reply seconds at its start)
    reply_seconds: float = 0.0
    transcript: str = ""  # the final transcript, once made (even if not worth answering)
    heard: str = ""  # what the person said (the final transcript, when it is answered)
    heard_seconds: float = 0.0  # how much of the reply the person heard before a barge-in
    got_token: bool = False
    memory_turn: object = None  # the stored user turn, once the reply began to play
    memory: object = None  # the speaker's memory for this turn (None: no personal memory)
    speaker: object = None  # assistant.household.Speaker, when voices are told apart

    def __post_init__(self) -> None:
        if self.released:  # not speculative: nothing to wait for
            self.settled.set()
