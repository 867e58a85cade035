"""Turns a stream of frames into utterances: VAD on every frame, the endpointer, and the audio kept.

Knows nothing of clocks or events: it reports, per frame, what the endpointer said, and on an
endpoint hands over the utterance's audio with its frame indices.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from .endpointer import Endpointer, EndpointSettings, Signal, Step
from .sources import FRAME_SAMPLES, SAMPLE_RATE, Frame

HEARD_SECONDS = 8  # as much as the end-of-turn model hears (models/turn_end.py)
HEARD_FRAMES = HEARD_SECONDS * SAMPLE_RATE // FRAME_SAMPLES


@dataclass(frozen=True)
class Utterance:
    audio: np.ndarray  # 16 kHz mono float32, pre-roll included
    first_frame: int
    last_voiced_frame: int
    end_frame: int
    cut: bool

    @property
    def seconds(self) -> float:
        return len(self.audio) / 16_000


@dataclass(frozen=True)
class Heard:
    frame: Frame
    step: Step
    speech_probability: float
    utterance: Utterance | None = None  # set when step is ENDPOINT


class Listener:
    def __init__(self, is_speech: Callable[[np.ndarray], float], settings: EndpointSettings, threshold: float = 0.5):
        """is_speech: frame -> speech probability (silero-vad in the product)."""
        self._probability = is_speech
        self.threshold = threshold
        self.endpointer = Endpointer(settings)
        pre = self.endpointer.pre_roll_frames + self.endpointer.start_frames + 1
        self._current: list[Frame] = []
        # the frames last heard: the pre-roll before speech, and what the end-of-turn model hears
        self._heard: deque[Frame] = deque(maxlen=max(pre, HEARD_FRAMES))

    def hear(self, frames: Iterator[Frame]) -> Iterator[Heard]:
        for frame in frames:
            p = self._probability(frame.samples)
            step = self.endpointer.feed(p >= self.threshold)
            utterance = None
            if step.signal is Signal.SPEECH_START:
                self._current = [f for f in self._heard if f.index >= step.first_frame]
                self._current.append(frame)
            elif self.endpointer.in_speech or step.signal in (Signal.ENDPOINT, Signal.DISCARD):
                self._current.append(frame)
            self._heard.append(frame)
            if step.signal is Signal.ENDPOINT:
                audio = np.concatenate([f.samples for f in self._current])
                utterance = Utterance(audio, step.first_frame, step.last_voiced_frame, step.end_frame, step.cut)
            if step.signal in (Signal.ENDPOINT, Signal.DISCARD):
                self._current = []
            yield Heard(frame, step, p, utterance)

    def recent_audio(self) -> np.ndarray:
        """The last HEARD_SECONDS of input, utterances and the gaps between them: how the person's
        turn has gone lately (what the end-of-turn model hears)."""
        return np.concatenate([f.samples for f in self._heard]) if self._heard else np.zeros(0, dtype=np.float32)

    def current_audio(self) -> np.ndarray:
        """The utterance heard so far (for partial transcripts)."""
        if not self._current:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([f.samples for f in self._current])
