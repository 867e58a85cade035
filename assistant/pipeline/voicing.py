"""Voicing a reply: the language model's tokens into sentences, each checked and said to the
person, synthesized and played as it completes (or all of it first, without streaming audio).

The reply worker owns the job and its lifecycle; it hands this its three ways of touching a job:
emit (an event, held while the job is speculative), play (audio chunks, the same) and check
(JobCancelled once the job has stopped).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from assistant import events as ev
from assistant.clock import Clock
from assistant.config import Config
from assistant.engines import Engines
from assistant.pipeline.jobs import Job
from assistant.reply.checks import FALLBACK_REPLY
from assistant.reply.guard import begun_well, continued, own_words
from assistant.reply.prompt import EXAMPLE_WORDS, History
from assistant.reply.sentences import sentences_from_tokens, spoken_form


class Voicer:
    def __init__(self, engines: Engines, config: Config, clock: Clock, history: History, stream_audio: bool,
                 emit: Callable[[Job, ev.Event], None], play: Callable[[Job, list[np.ndarray]], None],
                 check: Callable[[Job], None]) -> None:
        self.engines, self.config, self.clock, self.history = engines, config, clock, history
        self.stream_audio = stream_audio  # False: the whole reply is synthesized before any of it plays
        self._emit, self._play, self._check = emit, play, check

    def _tokens(self, job: Job, messages: list[dict], avoid: str = ""):
        first = not job.first_token_reported
        with self.engines.llm_gate.foreground():
            stream = self.engines.llm.stream(messages, self.config.max_reply_tokens, self.config.temperature,
                                             avoid=avoid)
            try:
                for piece in stream:
                    self._check(job)
                    if first:
                        first = False
                        job.first_token_reported = True
                        cached, evaluated = self.engines.llm.last_prompt_tokens
                        self._emit(job, ev.LlmFirstToken(job.turn_id, self.clock.now(), cached_tokens=cached,
                                                         evaluated_tokens=evaluated))
                    yield piece
            finally:
                stream.close()

    def speak(self, job: Job, messages: list[dict], repair: Callable[[str], str] = lambda s: s) -> str:
        """Sentences are voiced as they complete; the first is cut at a clause so sound starts sooner.
        Each is said to the person as "you" (`repair`): a small model slips into "Dana's dog"."""
        spoken: list[str] = []
        pending: list[np.ndarray] = []
        clause_words = 2 if self.stream_audio else 0
        def reply(avoid: str):
            return sentences_from_tokens(self._tokens(job, messages, avoid), first_clause_words=clause_words)

        # not to be copied: the earlier replies, and what the worked examples' person said
        earlier = [said for _, said in self.history.turns] + list(EXAMPLE_WORDS)
        for piece in own_words(begun_well(reply, job.heard, earlier), job.heard, earlier):
            sentence = continued(spoken[-1] if spoken else "", repair(spoken_form(piece)))
            if not sentence:
                continue
            self._emit(job, ev.SentenceReady(job.turn_id, self.clock.now(), text=sentence))
            job.sentences.append((sentence, job.reply_seconds))
            for chunk in self.engines.tts.stream(sentence):
                self._check(job)
                job.reply_seconds += len(chunk) / self.engines.tts.sample_rate
                if self.stream_audio:
                    self._play(job, [chunk])
                else:
                    pending.append(chunk)
            spoken.append(sentence)
        if not spoken:  # the model said nothing: say so rather than leave the person waiting
            return self.say(job, FALLBACK_REPLY, pending)
        self._play(job, pending)
        return " ".join(spoken)

    def say(self, job: Job, text: str, pending: list[np.ndarray] | None = None) -> str:
        """Speak a fixed reply (no language model), after anything already voiced but not played."""
        if not job.first_token_reported:
            job.first_token_reported = True
            self._emit(job, ev.LlmFirstToken(job.turn_id, self.clock.now()))
        self._emit(job, ev.SentenceReady(job.turn_id, self.clock.now(), text=text))
        job.sentences.append((text, job.reply_seconds))
        self._play(job, list(pending or []) + list(self.engines.tts.stream(text)))
        return text
