"""The speaking stage: each sentence synthesized as it arrives and played (held while the job is
speculative); without streaming audio, the whole reply is synthesized before any of it plays.
At the reply's end the responder finishes the job once all of it has been heard.

The responder owns the job and its lifecycle; it hands this play (audio chunks, held while the job
is speculative), check (JobCancelled once the job has stopped) and finish.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from assistant.engines import Engines
from assistant.pipeline.jobs import Job
from assistant.pipeline.stages import ReplyEnd, Sentence


class Speaker:
    def __init__(self, engines: Engines, stream_audio: bool, play: Callable[[Job, list[np.ndarray]], None],
                 check: Callable[[Job], None], finish: Callable[[Job], None]) -> None:
        self.tts = engines.tts
        self.stream_audio = stream_audio
        self._play, self._check, self._finish = play, check, finish

    def handle(self, message: Sentence | ReplyEnd) -> None:
        job = message.job
        if isinstance(message, Sentence):
            self._voice(job, message.text)
        else:
            self._play(job, job.synthesized)
            job.synthesized = []
            self._finish(job)

    def _voice(self, job: Job, sentence: str) -> None:
        job.sentences.append((sentence, job.reply_seconds))
        for chunk in self.tts.stream(sentence):
            self._check(job)
            job.reply_seconds += len(chunk) / self.tts.sample_rate
            if self.stream_audio:
                self._play(job, [chunk])
            else:
                job.synthesized.append(chunk)
