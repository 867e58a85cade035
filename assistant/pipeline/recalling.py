"""The recalling stage: the notes for what was heard, looked up ahead from the partial transcripts
while the person spoke, and checked against the final words (assistant/pipeline/anticipation.py);
or, in the enrolment dialog, for a request of memory by voice ("Forget that") or for the day or the
time, the answer itself.

The responder owns the job and its lifecycle; it hands this emit (an event, held while the job is
speculative) and generate (the Recalled message on to the generating stage).
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from assistant import events as ev
from assistant.clock import Clock
from assistant.memory_access.routing import SpeakerRouting
from assistant.pipeline.anticipation import Anticipation, anticipate, recall
from assistant.pipeline.jobs import Job
from assistant.pipeline.stages import Recalled
from assistant.reply.clock_answer import clock_answer
from assistant.reply.prompt import History
from assistant.reply.prompt_cache import PromptCache
from memory import referents
from memory.ranking import content_words


class Recaller:
    def __init__(self, routing: SpeakerRouting, clock: Clock, history: History, prompt_cache: PromptCache,
                 prefill: bool, emit: Callable[[Job, ev.Event], None], generate: Callable[[Recalled], None],
                 now: Callable[[], datetime] = datetime.now) -> None:
        """now: the wall clock, for "What day is it?" (`clock` times the events)."""
        self.routing, self.clock, self.history, self.prompt_cache = routing, clock, history, prompt_cache
        self.now = now
        self.prefill = prefill  # evaluate the prompt from partial transcripts while the person speaks
        self._emit, self._generate = emit, generate
        self._anticipation: Anticipation | None = None

    def anticipate(self, turn_id: int, partial_text: str) -> None:
        """On the partial worker: look up memories for the words so far and, when the model is free,
        evaluate the prompt they make, so the final reply only has to evaluate what changed."""
        memory = self.routing.anticipated()  # the person who spoke last, before the voice is identified
        a = self._anticipation = anticipate(turn_id, partial_text, memory)
        if self.prefill:
            self.prompt_cache.prefill_partial(partial_text, memory, a.block)

    @property
    def anticipated_text(self) -> str:
        """The words the last anticipated lookup was made for ("" before any)."""
        a = self._anticipation
        return a.text if a is not None else ""

    def recall(self, job: Job) -> None:
        started = self.clock.now()
        name = job.memory.person_name if job.memory is not None else None
        query = looked_up(job.heard, self.history, (name,) if name else ())
        if query != job.heard and job.memory is not None:  # its matter is in the turns before
            block, memories = job.memory.recall(query)
        else:
            block, memories = recall(self._anticipation, job.turn_id, job.memory, job.heard)
        job.recalled = tuple(memories)
        self._emit(job, ev.RecallDone(job.turn_id, self.clock.now(), memories=job.recalled, started=started))
        step = self.routing.dialog_step(job.heard, job.speaker)
        fixed = step.say if step is not None and step.handled else None  # the enrolment dialog answers itself
        if fixed is None and job.memory is not None:  # and so does a request of the person's memory
            fixed = job.memory.request_reply(job.heard)
        if fixed is None:  # and the day or the time, from the clock: the model knows no date
            fixed = clock_answer(job.heard, self.now())
        self._generate(Recalled(job, block, fixed))


def looked_up(heard: str, history: History, self_names: tuple[str, ...] = ()) -> str:
    """What the notes are looked up with: what was heard, with a "she" or "he" said as whom the
    turns before last named ("Actually she cancelled" → "Actually my sister cancelled",
    memory/referents.py); or, where it names nothing of its own ("What did I do before that?", "And
    then?"), the turn before with it: its matter is there, and so are the notes that answer it."""
    said = [user for user, _ in history.turns]
    if not said:
        return heard
    meant = referents.meant(heard, said[-referents.SAID_BEFORE:], self_names)
    if meant == heard and len(content_words(heard)) <= 1:
        return f"{said[-1]} {heard}"
    return meant
