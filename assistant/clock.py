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
    """Time for fast replays: the recording's own time, paused whenever the loop is busy.

    While the loop keeps up, reading a frame sets the clock to that frame's end in the recording.
    When the loop falls behind (it was answering), the recording is treated as paused for that
    long, as a person waits for a reply: later frames keep their spacing from then on. Between
    frames the clock runs at real speed, so every stage's duration is its real duration.
    """

    def __init__(self) -> None:
        self._offset = 0.0  # how long the recording has been paused in total
        self._base = 0.0
        self._base_real = time.monotonic()

    def frame_read(self, media_end_time: float) -> None:
        now = self.now()
        if media_end_time + self._offset < now:
            self._offset = now - media_end_time
        self._base = media_end_time + self._offset
        self._base_real = time.monotonic()

    def now(self) -> float:
        return self._base + (time.monotonic() - self._base_real)

def follow(clock: Clock, frames):
    """Pass frames through, telling a ReplayClock where the recording is."""
    for frame in frames:
        if isinstance(clock, ReplayClock):
            clock.frame_read(frame.media_end)
        yield frame


class SpeechPacer:
    """Fast replays that still run the streaming pipeline: while someone is speaking (and in the
    silence before the endpoint), a frame is not read before its time has come, as from a microphone,
    so partial transcripts, anticipation and speculation get the time they would have live. Between
    utterances the recording skips ahead."""

    def __init__(self, sleep=time.sleep, monotonic=time.monotonic) -> None:
        self._sleep, self._monotonic = sleep, monotonic
        self._anchor: tuple[float, float] | None = None  # (recording time, wall time) at this stretch's start

    def frame_read(self, media_end: float, speaking: bool) -> None:
        if not speaking:
            self._anchor = None
            return
        now = self._monotonic()
        if self._anchor is None:
            self._anchor = (media_end, now)
            return
        due = self._anchor[1] + media_end - self._anchor[0]
        if due > now:
            self._sleep(due - now)

