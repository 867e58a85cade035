"""Sample-format conversions: any channel count and rate to 16 kHz mono float32, and back out."""

from __future__ import annotations

import numpy as np
import soxr


def to_mono(samples: np.ndarray) -> np.ndarray:
    """(frames,) or (frames, channels) -> (frames,) float32, channels averaged."""
    x = np.asarray(samples, dtype=np.float32)
    if x.ndim == 2:
        x = x.mean(axis=1)
    return np.ascontiguousarray(x, dtype=np.float32)


def resample(samples: np.ndarray, from_rate: int, to_rate: int) -> np.ndarray:
    if from_rate == to_rate or len(samples) == 0:
        return np.asarray(samples, dtype=np.float32)
    return soxr.resample(np.asarray(samples, dtype=np.float32), from_rate, to_rate).astype(np.float32)


class StreamResampler:
    """Resamples a stream chunk by chunk without clicks at chunk borders."""

    def __init__(self, from_rate: int, to_rate: int) -> None:
        self._same = from_rate == to_rate
        self._stream = None if self._same else soxr.ResampleStream(from_rate, to_rate, 1, dtype="float32")

    def process(self, chunk: np.ndarray, last: bool = False) -> np.ndarray:
        chunk = np.asarray(chunk, dtype=np.float32)
        if self._same:
            return chunk
        return self._stream.resample_chunk(chunk, last=last)
