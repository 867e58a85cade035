"""A stage of the reply pipeline, and what passes between stages.

Each stage is one long-lived thread that takes messages from its own queue in order. The stages
are wired in one place (assistant/pipeline/responder.py):

    stage       takes            does                                               owner
    hearing     a Job            transcribe, identify the speaker; skip a turn      hearing.py
                                 with no words or only Hearth's own echo
    recalling   a Job            the notes for what was heard, or the enrolment     recalling.py
                                 dialog's own reply
    generating  Recalled         the language model's tokens into checked           generating.py
                                 sentences
                BetweenTurns     the next prompt's start evaluated while nobody     prompt_cache.py
                                 needs the model
    speaking    Sentence         synthesized and played as it arrives               speaking.py
                ReplyEnd         the job finishes once all of it is heard           responder.py

A message carries its job; every stage reads the job's state (assistant/pipeline/lifecycle.py)
before it works on it and abandons one that has ended (run_step, below).
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from assistant.pipeline.jobs import Job, JobCancelled

M = TypeVar("M")


@dataclass(frozen=True)
class Recalled:
    job: Job
    block: str  # the memory block for the prompt
    fixed_reply: str | None = None  # the enrolment dialog's reply: said as it is, no model


@dataclass(frozen=True)
class Sentence:
    job: Job
    text: str  # checked, in its spoken form


@dataclass(frozen=True)
class ReplyEnd:
    job: Job


@dataclass(frozen=True)
class BetweenTurns:
    """No job is open: evaluate the start of the next prompt and give memory back."""
    person_name: str | None  # whose prompt comes next, most likely
    prefill: bool  # the last job was answered, so the history the next prompt starts with changed


class Stage(Generic[M]):
    def __init__(self, name: str, handle: Callable[[M], None]) -> None:
        self._queue: queue.Queue[M | None] = queue.Queue()
        self._handle = handle  # catches what it raises: a stage never dies
        self._unhandled = 0  # messages put and not yet handled
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, message: M) -> None:
        with self._idle:
            self._unhandled += 1
        self._queue.put(message)

    def wait_idle(self) -> None:
        """Until every message put so far has been handled."""
        with self._idle:
            self._idle.wait_for(lambda: self._unhandled == 0)

    def close(self, timeout: float = 120) -> None:
        """Handle what was put before this, then stop."""
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while (message := self._queue.get()) is not None:
            self._handle(message)
            with self._idle:
                self._unhandled -= 1
                self._idle.notify_all()


def run_step(job: Job, step: Callable, args: tuple, end: Callable[[Job], None],
             fail: Callable[[Job, Exception], None]) -> None:
    """Run one stage's step for a job, unless it has ended. A job found stopped ends here; an
    engine that raises fails the turn (one bad turn must not silence Hearth for the session)."""
    if job.done.is_set():
        return  # another stage ended it
    if job.stopped:  # before any work was done on it: nothing thrown away to report
        end(job)
        return
    cpu = time.thread_time()
    failure: Exception | None = None
    try:
        step(*args)
    except JobCancelled:
        pass
    except Exception as exc:
        failure = exc
    job.cpu_seconds += time.thread_time() - cpu
    if failure is not None:
        fail(job, failure)
    elif job.stopped:
        end(job)
