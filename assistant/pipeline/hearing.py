"""The hearing stage: a job's audio transcribed, and its speaker identified beside that on a
worker of its own; a turn with no words, or with only Hearth's own voice heard back, is skipped.

The responder owns the job and its lifecycle; it hands this emit (an event, held while the job is
speculative), answer (the job on to recall) and skip (nothing to say).
"""

from __future__ import annotations

import re
from typing import Callable

from assistant import events as ev
from assistant.clock import Clock
from assistant.engines import Engines
from assistant.memory_access.routing import SpeakerRouting
from assistant.pipeline.jobs import Job
from assistant.pipeline.lifecycle import JobState
from assistant.pipeline.worker import Worker


class Hearer:
    def __init__(self, engines: Engines, routing: SpeakerRouting, clock: Clock,
                 emit: Callable[[Job, ev.Event], None], answer: Callable[[Job], None], skip: Callable[[Job], None],
                 on_transcript: Callable[[int, str], None], is_echo: Callable[[int, str], bool]) -> None:
        self.asr, self.routing, self.clock = engines.asr, routing, clock
        self._emit, self._answer, self._skip = emit, answer, skip
        self._on_transcript = on_transcript  # a speculative job's transcript, while the endpoint is pending
        self._is_echo = is_echo
        self._identifier = Worker("identifying the speaker")

    def hear(self, job: Job) -> None:
        started = self.clock.now()
        identified = self._identifier.submit(self.routing.identify, job.audio)
        text = job.transcript = self.asr.transcribe(job.audio)
        self._emit(job, ev.AsrDone(job.turn_id, self.clock.now(), text=text, started=started))
        if job.state is JobState.HELD:
            self._on_transcript(job.turn_id, text)
        job.speaker = self._identifier.result(identified)
        if job.speaker is not None:
            self._emit(job, ev.SpeakerIdentified(job.turn_id, self.clock.now(), **job.speaker.fields))
        job.memory = self.routing.memory_for(job.speaker)
        if not worth_answering(text):
            reason = "no words"
        elif self._is_echo(job.turn_id, text):
            reason = "echo"
        else:
            job.heard = text
            self._answer(job)
            return
        self._emit(job, ev.TurnSkipped(job.turn_id, self.clock.now(), reason=reason))
        self._skip(job)

    def close(self) -> None:
        self._identifier.close()


_NO_WORDS = re.compile(r"^[\W_]*$")
_NON_SPEECH_TAG = re.compile(r"^\s*[\[(].*[\])]\s*$")  # "[BLANK_AUDIO]", "(music)"


def worth_answering(text: str) -> bool:
    """Whisper returns tags or punctuation for noise; those are not turns."""
    return not (_NO_WORDS.match(text) or _NON_SPEECH_TAG.match(text))
