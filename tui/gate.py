"""Frames wrappers on the audio path: a gate (mute, push-to-talk, stop) and a level meter.

Both are plain iterators over `audio.sources.Frame`; neither waits for anything. The UI thread
flips the gate's flags and reads the meter's level; the audio thread only reads and writes single
attributes, so no lock is needed. (Meant to move to `audio/gate.py`; it knows nothing of the UI.)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterable, Iterator

import numpy as np

from audio.sources import Frame


class FrameGate:
    """Passes frames through, replacing their samples with zeros while the input is closed.

    Closed means muted, or push-to-talk is on and the talk key is not held (toggled). Frames keep
    flowing while closed, so the loop's clock, VAD and endpointer see silence rather than a stall.
    `stop()` ends the iteration, which lets a blocking `TurnLoop.run` return.
    """

    def __init__(self) -> None:
        self.muted = False
        self.push_to_talk = False
        self.talk_open = False
        self.stopped = False

    @property
    def open(self) -> bool:
        return not self.muted and (not self.push_to_talk or self.talk_open)

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted

    def toggle_push_to_talk(self) -> bool:
        self.push_to_talk = not self.push_to_talk
        self.talk_open = False
        return self.push_to_talk

    def toggle_talk(self) -> bool:
        self.talk_open = not self.talk_open
        return self.talk_open

    def stop(self) -> None:
        self.stopped = True

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        for frame in frames:
            if self.stopped:
                return
            if self.open:
                yield frame
            else:
                yield dataclasses.replace(frame, samples=np.zeros_like(frame.samples))


class LevelMeter:
    """Passes frames through, keeping the RMS of the latest frame (and its peak since last read)."""

    def __init__(self) -> None:
        self.rms = 0.0
        self._peak = 0.0

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        for frame in frames:
            x = frame.samples
            rms = float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0
            self.rms = rms
            if rms > self._peak:
                self._peak = rms
            yield frame

    def read_peak(self) -> float:
        """The loudest frame since the previous call (so a 10 Hz display misses no burst)."""
        peak, self._peak = self._peak, 0.0
        return peak


def level_dbfs(rms: float) -> float:
    """RMS as dB full scale, floored at -60."""
    return max(-60.0, 20 * math.log10(rms)) if rms > 0 else -60.0
