"""Partial transcripts while the person is still speaking, on a worker of their own (one
long-lived thread) so the VAD never waits.

Every `interval` seconds of speech the growing utterance is transcribed again, the first time half
an interval in; each result is emitted as a PartialTranscript and handed to `on_text` (memory
anticipation, endpoint tuning).
"""

from __future__ import annotations

import threading
from typing import Callable

import numpy as np

from assistant import events as ev
from assistant.clock import Clock
from assistant.pipeline.worker import Worker


class PartialTranscriber:
    def __init__(self, transcribe: Callable[[np.ndarray, Callable[[], bool]], str | None],
                 emit: Callable[[ev.Event], None], clock: Clock, interval: float = 0.4,
                 on_text: Callable[[int, str], None] | None = None) -> None:
        # transcribe(samples, wanted): None or "" when there is no partial; it may give up once
        # wanted() turns false
        self._transcribe = transcribe
        self._emit = emit
        self._clock = clock
        self.interval = interval
        self._on_text = on_text or (lambda turn, text: None)
        self._busy = threading.Event()
        self._worker = Worker("partial transcription")
        self._last_start = -1e9
        self._turn = 0

    def reset(self, turn_id: int) -> None:
        self._turn = turn_id
        # The first partial comes half an interval into speech, so that an utterance of about a
        # second ("ten of clubs") has one back before it ends, and recall then embeds nothing after it.
        self._last_start = self._clock.now() - self.interval / 2

    def offer(self, turn_id: int, audio: Callable[[], np.ndarray]) -> None:
        """Called for every frame in speech; starts a transcription when one is due and none is running."""
        now = self._clock.now()
        if self._busy.is_set() or now - self._last_start < self.interval:
            return
        self._last_start = now
        self._busy.set()
        self._worker.run(self._work, turn_id, audio())

    def _work(self, turn_id: int, samples: np.ndarray) -> None:
        try:
            # a partial still running when the person stops is of no use: it gives up as soon as it can
            text = self._transcribe(samples, lambda: turn_id == self._turn)
            if text and turn_id == self._turn:
                self._emit(ev.PartialTranscript(turn_id, self._clock.now(), text=text))
                self._on_text(turn_id, text)
        finally:
            self._busy.clear()

    def close(self) -> None:
        """No more partials: one still running gives up (its turn is over) and the worker ends."""
        self._turn = 0
        self._worker.close()
