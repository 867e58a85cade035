"""Players: they hand a reply's audio on to be heard, and know how much of it was (for barge-in).

PacedPlayer writes short slices at real speed from its own thread (a wav file, a room simulation);
DevicePlayer fills a sound device's buffers from its callback, silence between replies. Both take
the reply from the same queue (ReplyQueue), which can pause it while speech over it is judged.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Callable

import numpy as np


# Played on after a pause, the reply starts again this far back, so that the word it was paused in
# is heard whole rather than from its middle.
REWIND_SECONDS = 0.3


class ReplyQueue:
    """The reply in progress: its audio queued, how much of it was handed on to be heard (idle once
    all of it was), and whether it is paused. A paused reply hands on silence and does not move on:
    while the echo guard finds out whether speech over it is a person or Hearth's own echo, the
    person hears Hearth give way at once and loses none of it, and its echo leaves the microphone."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self._lock = threading.Lock()
        self._blocks: deque[np.ndarray] = deque()
        self._queued = 0  # samples queued in this reply
        self._played = 0  # samples handed on in this reply
        self._paused = False
        self._tail = np.zeros(0, dtype=np.float32)  # the last REWIND_SECONDS handed on, to hear again
        self._idle = threading.Event()
        self._idle.set()

    def new_reply(self) -> None:
        with self._lock:
            self._blocks.clear()
            self._queued = self._played = 0
            self._paused = False
            self._tail = np.zeros(0, dtype=np.float32)

    def put(self, block: np.ndarray) -> None:
        with self._lock:
            self._queued += len(block)
            self._blocks.append(np.asarray(block, dtype=np.float32))
            self._idle.clear()
            self._queued_more()

    def pause(self, on: bool) -> None:
        """Hand on silence from now and hold the reply where it is (on), or play on from a little
        before where it paused."""
        with self._lock:
            if on == self._paused:
                return
            self._paused = on
            if not on and not self._idle.is_set() and len(self._tail):
                self._blocks.appendleft(self._tail)
                self._played -= len(self._tail)
                self._tail = np.zeros(0, dtype=np.float32)

    def stop(self) -> float:
        """The reply ends here, the rest of it dropped; returns the seconds of it that were handed on."""
        with self._lock:
            self._blocks.clear()
            self._queued = self._played
            self._paused = False
            self._idle.set()
            return self._played / self.rate

    def wait(self, timeout: float | None = None) -> None:
        self._idle.wait(timeout)

    def _queued_more(self) -> None:
        """(Under the lock.) Audio was queued: a player waiting for it may go on."""

    def _take(self, out: np.ndarray) -> int:
        """(Under the lock.) Fill `out` with what comes next, silence after the reply's end or while
        paused; returns how many of its samples belong to the reply (all of them while paused: its
        silence is part of what is heard of the reply)."""
        out[:] = 0.0
        if self._paused:
            return 0 if self._idle.is_set() else len(out)
        n = 0
        while n < len(out) and self._blocks:
            block = self._blocks[0]
            take = min(len(block), len(out) - n)
            out[n:n + take] = block[:take]
            if take == len(block):
                self._blocks.popleft()
            else:
                self._blocks[0] = block[take:]
            n += take
        self._played += n
        if n:
            keep = int(self.rate * REWIND_SECONDS)
            self._tail = np.concatenate([self._tail, out[:n]])[-keep:]
        return n

    def _settle(self) -> None:
        """(Under the lock.) What was taken has been handed on: idle once the whole reply was."""
        if self._played >= self._queued:
            self._idle.set()

    @property
    def played_seconds(self) -> float:
        return self._played / self.rate

    @property
    def playing(self) -> bool:
        return not self._idle.is_set()


class PacedPlayer(ReplyQueue):
    """A thread that writes the queued reply in slices of `slice_seconds` to `write`, at real speed,
    silence while it is paused, nothing between replies.

    `write` blocks for as long as the slice lasts (a sound device does this by itself; the
    wav sink sleeps). stop() takes effect at the next slice boundary.
    """

    def __init__(self, rate: int, write: Callable[[np.ndarray], None], slice_seconds: float = 0.02) -> None:
        super().__init__(rate)
        self._write = write
        self._slice = max(1, int(rate * slice_seconds))
        self._ready = threading.Condition(self._lock)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="playback", daemon=True)
        self._thread.start()

    def _queued_more(self) -> None:
        self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._closed or not self._idle.is_set())
                if self._closed:
                    return
                out = np.zeros(self._slice, dtype=np.float32)
                n = self._take(out)
            if n:
                self._write(out[:n])
            with self._lock:
                self._settle()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._thread.join(timeout=5)


class DevicePlayer(ReplyQueue):
    """Hands the queued reply to a sound device's callback, and silence when nothing is queued.

    Every buffer the device takes, silence included, goes to `heard(block, dac_delay)` with the
    seconds until the device plays it, so the echo reference follows the device's own clock
    without a break. stop() and pause() take effect at the next buffer (what the device already
    holds, OUTPUT_LATENCY at most, still plays).
    """

    def __init__(self, rate: int, heard: Callable[[np.ndarray, float], None]) -> None:
        super().__init__(rate)
        self._heard = heard

    def fill(self, out: np.ndarray, dac_delay: float) -> None:
        """The device's callback: fill `out` (float32 frames) with what is queued, then silence."""
        with self._lock:
            self._take(out)
            self._settle()
        self._heard(out.copy(), dac_delay)
