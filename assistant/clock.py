"""Clocks injected into the loop: every event timestamp comes from one of these.

A live session uses the monotonic clock. A fast replay uses ReplayClock: time follows the
position in the recording while frames are being read, and real elapsed time while the
loop is working on a turn, so stage durations stay honest even when replay outruns real time.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...


class MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


class ReplayClock:
    """Follows the recording while the loop keeps up with it, and real time while the loop is busy.

    Reading a frame moves the clock forward to that frame's end in the recording, never back:
    if the loop fell behind (it was answering), the frame is treated as read from a queue, now.
    Between frames, the clock runs at real speed, so every stage's duration is its real duration.
    """

    def __init__(self) -> None:
        self._base = 0.0
        self._base_real = time.monotonic()

    def frame_read(self, media_end_time: float) -> None:
        self._base = max(self.now(), media_end_time)
        self._base_real = time.monotonic()

    def now(self) -> float:
        return self._base + (time.monotonic() - self._base_real)

def follow(clock: Clock, frames):
    """Pass frames through, telling a ReplayClock where the recording is."""
    for frame in frames:
        if isinstance(clock, ReplayClock):
            clock.frame_read(frame.media_end)
        yield frame
