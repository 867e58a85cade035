"""Partial transcripts while the person is still speaking, on a worker so the VAD never waits.

Every `interval` seconds of speech the growing utterance is transcribed again; each result is
emitted as a PartialTranscript and handed to `on_text` (memory anticipation, endpoint tuning).
When the voice stops, a transcription still running has heard nearly all of the utterance: its
result goes to `on_late_text` (anticipation only), not out as an event, because the final
transcript, started at the same moment, may come first.
"""

from __future__ import annotations

import threading
from typing import Callable

import numpy as np

from . import events as ev
from .clock import Clock


class PartialTranscriber:
    def __init__(self, transcribe: Callable[[np.ndarray], str], emit: Callable[[ev.Event], None], clock: Clock,
                 interval: float = 0.4, on_text: Callable[[int, str], None] | None = None,
                 on_late_text: Callable[[int, str], None] | None = None) -> None:
        self._transcribe = transcribe
        self._emit = emit
        self._clock = clock
        self.interval = interval
        self._on_text = on_text or (lambda turn, text: None)
        self._on_late_text = on_late_text or (lambda turn, text: None)
        self._busy = threading.Event()
        self._last_start = -1e9
        self._turn = 0  # the turn whose partials are emitted
        self._late_turn = 0  # the turn whose voice has stopped: a partial still running is late

    def reset(self, turn_id: int) -> None:
        self._turn, self._late_turn = turn_id, 0
        self._last_start = self._clock.now()  # the first partial comes one interval into speech

    def voice_stopped(self) -> None:
        """Silence began: a partial still running is only handed to on_late_text."""
        self._turn, self._late_turn = 0, self._turn

    def offer(self, turn_id: int, audio: Callable[[], np.ndarray]) -> bool:
        """Called for every frame in speech; starts a transcription when one is due and none is
        running (and says whether it did)."""
        now = self._clock.now()
        if self._busy.is_set() or now - self._last_start < self.interval:
            return False
        self._last_start = now
        self._busy.set()
        threading.Thread(target=self._work, args=(turn_id, audio()), name="partial", daemon=True).start()
        return True

    def _work(self, turn_id: int, samples: np.ndarray) -> None:
        try:
            text = self._transcribe(samples)
            if text and turn_id == self._turn:
                self._emit(ev.PartialTranscript(turn_id, self._clock.now(), text=text))
                self._on_text(turn_id, text)
            elif text and turn_id == self._late_turn:
                self._on_late_text(turn_id, text)
        finally:
            self._busy.clear()
