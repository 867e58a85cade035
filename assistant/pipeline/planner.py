"""Which reply work should run, decided from the listener's signals alone: pure, no threads, no I/O.

A reply is a job with an id. Work may start speculatively when the voice stops (before the
endpoint is confirmed); it is released to the speakers only at the endpoint and dropped if the
person resumes. Speaking over a reply that is playing stops it (barge-in). Stale work is told
apart by job id, never by shared flags.
"""

from __future__ import annotations

from dataclasses import dataclass

from audio.endpointer import Signal


@dataclass(frozen=True)
class StartJob:
    job_id: int
    turn_id: int
    audio_end_frame: int  # the job answers the utterance's audio up to this frame (exclusive)
    speculative: bool  # held back until ReleaseJob


@dataclass(frozen=True)
class ReleaseJob:
    job_id: int


@dataclass(frozen=True)
class CancelJob:
    job_id: int
    reason: str  # "speech resumed" | "barge-in" | "discarded"


Action = StartJob | ReleaseJob | CancelJob


@dataclass
class TurnPlanner:
    speculate: bool = True
    turn_id: int = 0
    _next_job: int = 0
    _pending: int | None = None  # a speculative job not yet released
    _active: int | None = None  # a released job that may still be generating or playing

    def _new_job(self) -> int:
        self._next_job += 1
        return self._next_job

    def on_signal(self, signal: Signal, frame_index: int, end_frame: int = -1,
                  barge_in: bool = True) -> list[Action]:
        """frame_index: the frame that produced the signal; end_frame: the utterance end for ENDPOINT.
        barge_in=False: speech that may be Hearth's own echo starts a turn but stops nothing yet."""
        actions: list[Action] = []
        if signal is Signal.SPEECH_START:
            self.turn_id += 1
            if barge_in:
                actions.extend(self.confirm_barge_in())
        elif signal is Signal.SILENCE_START and self.speculate:
            if self._pending is not None:
                actions.append(CancelJob(self._pending, "speech resumed"))
            self._pending = self._new_job()
            actions.append(StartJob(self._pending, self.turn_id, frame_index, speculative=True))
        elif signal is Signal.SPEECH_RESUMED and self._pending is not None:
            actions.append(CancelJob(self._pending, "speech resumed"))
            self._pending = None
        elif signal is Signal.DISCARD and self._pending is not None:
            actions.append(CancelJob(self._pending, "discarded"))
            self._pending = None
        elif signal is Signal.ENDPOINT:
            if self._pending is not None:
                actions.append(ReleaseJob(self._pending))
                self._active, self._pending = self._pending, None
            else:  # no speculation, or the utterance was cut at its maximum length
                self._active = self._new_job()
                actions.append(StartJob(self._active, self.turn_id, end_frame, speculative=False))
        return actions

    def confirm_barge_in(self) -> list[Action]:
        """A person is speaking over the reply: it stops."""
        if self._active is None:
            return []
        active, self._active = self._active, None
        return [CancelJob(active, "barge-in")]

    def answer_carried(self) -> list[Action]:
        """What followed an utterance carried over was too short to be a turn (a cough, a click): the
        carried utterance is answered now, on its own, rather than kept for whatever is said next."""
        if self._active is not None:
            return []
        self._active = self._new_job()
        return [StartJob(self._active, self.turn_id, -1, speculative=False)]

    def job_finished(self, job_id: int) -> None:
        """The reply has been fully played (or dropped): speaking now is a new turn, not a barge-in."""
        if self._active == job_id:
            self._active = None

    @property
    def replying(self) -> int | None:
        return self._active
