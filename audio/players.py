"""Players: they hand a reply's audio on to be heard, and know how much of it was (for barge-in).

PacedPlayer writes short slices at real speed from its own thread (a wav file, a room simulation);
DevicePlayer fills a sound device's buffers from its callback, silence between replies.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from typing import Callable

import numpy as np


# While the echo guard finds out whether speech over a reply is a person or Hearth's own echo, the
# reply plays this much quieter (-15 dB): the person hears Hearth give way at once, and the echo
# the canceller lost falls with it.
DUCKED_GAIN = 10 ** (-15 / 20)


class ReplyProgress:
    """How much of the reply in progress was queued and handed on to be heard; idle once all of it
    was. What both players share; each hands audio on its own way (put, stop)."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.gain = 1.0  # applied to what is handed on from now (DUCKED_GAIN while ducked)
        self._lock = threading.Lock()
        self._queued = 0  # samples queued in this reply
        self._played = 0  # samples handed on in this reply
        self._idle = threading.Event()
        self._idle.set()

    def new_reply(self) -> None:
        with self._lock:
            self._queued = self._played = 0
            self.gain = 1.0

    def duck(self, on: bool) -> None:
        """Play what follows quieter (on) or as it was made."""
        self.gain = DUCKED_GAIN if on else 1.0

    def wait(self, timeout: float | None = None) -> None:
        self._idle.wait(timeout)

    def _drop_rest(self) -> float:
        """(Under the lock.) The reply ends here; returns the seconds of it that were handed on."""
        self._queued = self._played
        self.gain = 1.0
        self._idle.set()
        return self._played / self.rate

    @property
    def played_seconds(self) -> float:
        return self._played / self.rate

    @property
    def playing(self) -> bool:
        return not self._idle.is_set()


class PacedPlayer(ReplyProgress):
    """A thread that writes queued audio in slices of `slice_seconds` to `write`, at real speed.

    `write` blocks for as long as the slice lasts (a sound device does this by itself; the
    wav sink sleeps). stop() takes effect at the next slice boundary.
    """

    def __init__(self, rate: int, write: Callable[[np.ndarray], None], slice_seconds: float = 0.02) -> None:
        super().__init__(rate)
        self._write = write
        self._slice = max(1, int(rate * slice_seconds))
        self._queue: queue.Queue[np.ndarray | None] = queue.Queue()
        self._generation = 0
        self._thread = threading.Thread(target=self._run, name="playback", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            generation, block = item
            for start in range(0, len(block), self._slice):
                with self._lock:
                    if generation != self._generation:
                        break
                self._write(block[start : start + self._slice] * self.gain)
                with self._lock:
                    if generation == self._generation:
                        self._played += len(block[start : start + self._slice])
            with self._lock:
                if self._played >= self._queued:
                    self._idle.set()

    def put(self, block: np.ndarray) -> None:
        with self._lock:
            self._queued += len(block)
            self._idle.clear()
            self._queue.put((self._generation, block))

    def stop(self) -> float:
        with self._lock:
            self._generation += 1
            return self._drop_rest()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)


class DevicePlayer(ReplyProgress):
    """Hands queued audio to a sound device's callback, and silence when nothing is queued.

    Every buffer the device takes, silence included, goes to `heard(block, dac_delay)` with the
    seconds until the device plays it, so the echo reference follows the device's own clock
    without a break. The same progress as PacedPlayer; stop() takes effect at the next buffer
    (what the device already holds, OUTPUT_LATENCY at most, still plays).
    """

    def __init__(self, rate: int, heard: Callable[[np.ndarray, float], None]) -> None:
        super().__init__(rate)
        self._heard = heard
        self._blocks: deque[np.ndarray] = deque()

    def fill(self, out: np.ndarray, dac_delay: float) -> None:
        """The device's callback: fill `out` (float32 frames) with what is queued, then silence."""
        n = 0
        with self._lock:
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
            if self._played >= self._queued:
                self._idle.set()
        out[:n] *= self.gain
        out[n:] = 0.0
        self._heard(out.copy(), dac_delay)

    def put(self, block: np.ndarray) -> None:
        with self._lock:
            self._queued += len(block)
            self._blocks.append(np.asarray(block, dtype=np.float32))
            self._idle.clear()

    def stop(self) -> float:
        with self._lock:
            self._blocks.clear()
            return self._drop_rest()
