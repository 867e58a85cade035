"""A reply job (one utterance on its way to a spoken answer) and what it holds, and the utterance
carried into the next job."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from assistant import events as ev
from assistant.pipeline.lifecycle import ENDED, HELD, RELEASED, STOPPED, JobEvent, JobState, next_state


class JobCancelled(Exception):
    pass


@dataclass
class Job:
    """One utterance on its way to a spoken answer, handed from stage to stage (see responder.py).
    Its state changes only through advance(), with the responder's lock held, along the table in
    assistant/pipeline/lifecycle.py; every stage reads it to know whether to go on."""
    job_id: int
    turn_id: int
    audio: np.ndarray
    state: JobState
    stop_reason: str = ""  # why it was dropped ("speech resumed", "discarded", "closed")
    after: threading.Event | None = None  # set once the job before it has ended
    done: threading.Event = field(default_factory=threading.Event)  # ended, and every stage is through with it
    settled: threading.Event = field(default_factory=threading.Event)  # no longer held: released or ended
    held_events: list[ev.Event] = field(default_factory=list)
    held_audio: list[np.ndarray] = field(default_factory=list)
    sentences: list[tuple[str, float]] = field(default_factory=list)  # (sentence, reply seconds at its start)
    reply_seconds: float = 0.0
    synthesized: list[np.ndarray] = field(default_factory=list)  # not streaming: played once all is made
    cpu_seconds: float = 0.0  # spent on it by the stages (reported when a speculation is thrown away)
    transcript: str = ""  # the final transcript, once made (even if not worth answering)
    heard: str = ""  # what the person said (the final transcript, when it is answered)
    heard_seconds: float = 0.0  # how much of the reply the person heard before a barge-in
    underruns_before: int = 0  # the sink's underrun count when the reply began to play
    underruns: int = 0  # the times the speaker ran dry while it played (set when a barge-in stops it)
    first_token_reported: bool = False  # a second try (reply/guard.py) reports no second first token
    memory_turn: object = None  # the stored user turn, once the reply began to play
    memory: object = None  # the speaker's memory for this turn (None: no personal memory)
    recalled: tuple[dict, ...] = ()  # the memories its recall put in the prompt (memory.recall's list)
    speaker: object = None  # assistant.memory_access.routing.Speaker, when voices are told apart

    def __post_init__(self) -> None:
        if self.state not in HELD:  # not speculative: nothing to wait for
            self.settled.set()

    def advance(self, event: JobEvent) -> None:
        self.state = next_state(self.state, event)
        if self.state not in HELD:
            self.settled.set()

    @property
    def released(self) -> bool:
        """The endpoint confirmed it: its events go out as they happen."""
        return self.state in RELEASED

    @property
    def stopped(self) -> bool:
        """Ended before finishing: every stage abandons it."""
        return self.state in STOPPED

    @property
    def ended(self) -> bool:
        return self.state in ENDED


@dataclass(frozen=True)
class Remains:
    """What a job that ended leaves behind: events to send, and the reply as far as it was heard."""
    events: tuple[ev.Event, ...] = ()
    spoken: str | None = None  # for the history and the memory turn (interrupted: what was heard)


def remains_of(job: Job, now: float) -> Remains:
    """Pure. An interrupted reply is kept as far as the person heard it; thrown-away work is
    counted (a job dropped before any work began cost nothing, and says nothing); a finished or
    failed job has already said what it had to."""
    if job.state is JobState.INTERRUPTED and job.heard:
        spoken = " ".join(s for s, start in job.sentences if start < job.heard_seconds)
        return Remains((ev.ReplyDone(job.turn_id, now, text=spoken, interrupted=True,
                                   underruns=job.underruns),), spoken)
    if job.state in (JobState.DROPPED, JobState.CONTINUED) and job.cpu_seconds > 0:
        return Remains((ev.SpeculationDropped(job.turn_id, now, cpu_seconds=job.cpu_seconds,
                                              reason=job.stop_reason or job.state.value),))
    return Remains()


class CarriedUtterance:
    """An utterance whose reply had not begun to play when the person went on: it is answered
    together with what they say next, rather than dropped. Used with the responder's lock held."""

    GAP = np.zeros(3200, dtype=np.float32)  # 0.2 s at 16 kHz between the two parts

    def __init__(self) -> None:
        self.audio: np.ndarray | None = None
        self.text = ""  # its transcript, once known: partials of what follows are joined to it

    def before(self, audio: np.ndarray) -> np.ndarray:
        """The next utterance's audio, with the carried one in front of it."""
        return audio if self.audio is None else np.concatenate([self.audio, self.GAP, audio])

    def keep(self, job: Job) -> None:
        self.audio, self.text = job.audio, job.transcript

    def transcribed(self, job: Job) -> None:
        """The job carried over was transcribed only after the person went on."""
        if self.audio is job.audio and not self.text:
            self.text = job.transcript

    def clear(self) -> None:
        self.audio, self.text = None, ""

    def joined(self, partial: str) -> str:
        return joined(self.text, partial)


def joined(carried: str, partial: str) -> str:
    """A partial transcript after an utterance carried over: both, as the final one will say them."""
    return f"{carried.strip()} {partial.strip()}".strip() if carried.strip() else partial
