"""Audio sinks: the speakers, or a wav file per reply. The loop sees only the AudioSink interface.

Each slice is told, as it starts to play, to the sink's echo_reference if one is set (the loop
sets it: audio/echo.py), so Hearth's own voice can be taken out of the microphone.

The speakers play from the device's callback (DevicePlayer), silence between replies; a wav file
is written through a PacedPlayer, which hands audio out in short slices at real speed. Either way
a reply can be stopped mid-sentence (barge-in) and the sink knows how much was actually heard.
A wav sink can also take audio as fast as it comes (realtime=False), for fast replays.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from pathlib import Path
from typing import Callable, Protocol

import numpy as np

from .convert import StreamResampler
from .sources import AudioInputError


class AudioSink(Protocol):
    def start_reply(self, turn_id: int) -> None: ...

    def play(self, samples: np.ndarray, rate: int) -> None:
        """Queue float32 mono samples; returns without waiting for them to be heard."""

    def finish_reply(self) -> None:
        """No more audio for this reply; returns once it has all been played."""

    def stop(self) -> float:
        """Stop now and drop what is queued (barge-in); returns the seconds of the reply that were heard."""

    @property
    def playing(self) -> bool: ...

    def close(self) -> None: ...


class PacedPlayer:
    """A thread that writes queued audio in slices of `slice_seconds` to `write`, at real speed.

    `write` blocks for as long as the slice lasts (a sound device does this by itself; the
    wav sink sleeps). stop() takes effect at the next slice boundary.
    """

    def __init__(self, rate: int, write: Callable[[np.ndarray], None], slice_seconds: float = 0.02) -> None:
        self.rate = rate
        self._write = write
        self._slice = max(1, int(rate * slice_seconds))
        self._queue: queue.Queue[np.ndarray | None] = queue.Queue()
        self._lock = threading.Lock()
        self._generation = 0
        self._queued = 0  # samples queued in this reply
        self._played = 0  # samples written in this reply
        self._idle = threading.Event()
        self._idle.set()
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
                self._write(block[start : start + self._slice])
                with self._lock:
                    if generation == self._generation:
                        self._played += len(block[start : start + self._slice])
            with self._lock:
                if self._played >= self._queued:
                    self._idle.set()

    def new_reply(self) -> None:
        with self._lock:
            self._queued = self._played = 0

    def put(self, block: np.ndarray) -> None:
        with self._lock:
            self._queued += len(block)
            self._idle.clear()
            self._queue.put((self._generation, block))

    def wait(self, timeout: float | None = None) -> None:
        self._idle.wait(timeout)

    def stop(self) -> float:
        with self._lock:
            self._generation += 1
            self._queued = self._played
            self._idle.set()
            return self._played / self.rate

    @property
    def played_seconds(self) -> float:
        return self._played / self.rate

    @property
    def playing(self) -> bool:
        return not self._idle.is_set()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)


class WavSink:
    """Writes each reply to DIR/<prefix>reply-<turn>.wav at the voice's own rate.

    realtime=True plays it out at real speed, as a speaker would (for real-time replays with
    barge-in); otherwise each chunk is taken at once.
    """

    def __init__(self, folder: Path | str, prefix: str = "", realtime: bool = False) -> None:
        self.folder = Path(folder)
        self.prefix = prefix
        self.realtime = realtime
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            probe = self.folder / ".hearth-write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise AudioInputError(f"cannot write to output folder {self.folder}: {exc.strerror or exc}") from None
        self.written: list[Path] = []
        self._parts: list[np.ndarray] = []
        self._rate = 0
        self._turn = 0
        self._player: PacedPlayer | None = None
        self._lock = threading.Lock()
        self._stopped = False  # the reply was cut off: a slice still playing is not part of it
        self.echo_reference = None  # audio.echo.EchoReference: told each slice as it starts to play

    def _heard(self, block: np.ndarray) -> None:  # runs on the playback thread
        reference = self.echo_reference
        if reference is not None:
            reference.played(block, self._rate)
        time.sleep(len(block) / self._rate)
        with self._lock:
            if not self._stopped:
                self._parts.append(block)

    def start_reply(self, turn_id: int) -> None:
        with self._lock:
            self._parts, self._turn, self._stopped = [], turn_id, False
        if self._player:
            self._player.new_reply()

    def play(self, samples: np.ndarray, rate: int) -> None:
        samples = np.asarray(samples, dtype=np.float32)
        if self._rate and rate != self._rate:
            raise ValueError(f"reply audio changed rate from {self._rate} to {rate}")
        self._rate = rate
        if not self.realtime:
            self._parts.append(samples)
            return
        if self._player is None:
            self._player = PacedPlayer(rate, self._heard)
        self._player.put(samples)

    def finish_reply(self) -> None:
        if self._player:
            self._player.wait()
        self._write_file()

    def stop(self) -> float:
        # The slice playing at this moment ends after the file is written; were it kept, the reply's
        # own finish_reply (waiting for playback) would write it over the file as the whole reply.
        with self._lock:
            self._stopped = True
        heard = self._player.stop() if self._player else sum(map(len, self._parts)) / max(self._rate, 1)
        self._write_file()
        return heard

    def _write_file(self) -> None:
        import soundfile as sf

        with self._lock:
            parts, self._parts = self._parts, []
        if not parts:
            return
        path = self.folder / f"{self.prefix}reply-{self._turn:03d}.wav"
        sf.write(str(path), np.concatenate(parts), self._rate, subtype="PCM_16")
        if path not in self.written:
            self.written.append(path)

    @property
    def playing(self) -> bool:
        return bool(self._player and self._player.playing)

    def close(self) -> None:
        if self._player:
            self._player.wait(timeout=60)
            self._player.close()
        self._write_file()


# The speakers' buffer. It never runs dry: the device is fed silence between replies, so its clock
# runs on unbroken and the echo of each reply arrives where the reference placed it. (Written to
# only while a reply played, through a 35 ms buffer, the device ran dry between replies and after
# stalls and restarted differently each time: each reply's echo arrived 10-50 ms from where the
# last one's had, and the canceller spent the reply's first second finding it again.)
OUTPUT_LATENCY = 0.05


class DevicePlayer:
    """Hands queued audio to a sound device's callback, and silence when nothing is queued.

    Every buffer the device takes, silence included, goes to `heard(block, dac_delay)` with the
    seconds until the device plays it, so the echo reference follows the device's own clock
    without a break. The same interface as PacedPlayer; stop() takes effect at the next buffer
    (what the device already holds, OUTPUT_LATENCY at most, still plays).
    """

    def __init__(self, rate: int, heard: Callable[[np.ndarray, float], None]) -> None:
        self.rate = rate
        self._heard = heard
        self._lock = threading.Lock()
        self._blocks: deque[np.ndarray] = deque()
        self._queued = 0  # samples queued in this reply
        self._played = 0  # samples handed to the device in this reply
        self._idle = threading.Event()
        self._idle.set()

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
        out[n:] = 0.0
        self._heard(out.copy(), dac_delay)

    def new_reply(self) -> None:
        with self._lock:
            self._queued = self._played = 0

    def put(self, block: np.ndarray) -> None:
        with self._lock:
            self._queued += len(block)
            self._blocks.append(np.asarray(block, dtype=np.float32))
            self._idle.clear()

    def wait(self, timeout: float | None = None) -> None:
        self._idle.wait(timeout)

    def stop(self) -> float:
        with self._lock:
            self._blocks.clear()
            self._queued = self._played
            self._idle.set()
            return self._played / self.rate

    @property
    def played_seconds(self) -> float:
        return self._played / self.rate

    @property
    def playing(self) -> bool:
        return not self._idle.is_set()


class SpeakerSink:
    """Plays replies on an output device, resampled to a rate the device accepts."""

    def __init__(self, device: int | str | None = None) -> None:
        from .devices import load_sounddevice, output_device

        self._sd = load_sounddevice()
        self.device_index, info = output_device(self._sd, device)
        self.name = str(info["name"])
        self.rate = self._accepted_rate(int(info["default_samplerate"]))
        self._resampler: StreamResampler | None = None
        self._voice_rate = 0
        self.echo_reference = None  # audio.echo.EchoReference: told each slice as it starts to play
        self._player = DevicePlayer(self.rate, self._heard)
        try:
            self._stream = self._sd.OutputStream(device=self.device_index, channels=1, samplerate=self.rate,
                                                 dtype="float32", callback=self._callback, latency=OUTPUT_LATENCY)
            self._stream.start()
        except Exception as exc:
            raise AudioInputError(f"cannot open output device {self.name!r}: {str(exc).splitlines()[0]}") from None

    def _callback(self, outdata, frames, time_info, status) -> None:  # on the device's thread
        self._player.fill(outdata[:, 0], max(0.0, time_info.outputBufferDacTime - time_info.currentTime))

    def _heard(self, block: np.ndarray, dac_delay: float) -> None:
        reference = self.echo_reference
        if reference is not None:
            reference.played(block, self.rate, latency=dac_delay, continuous=True)

    def _accepted_rate(self, default: int) -> int:
        for rate in (default, 48_000, 44_100, 22_050, 16_000):
            try:
                self._sd.check_output_settings(device=self.device_index, samplerate=rate, channels=1, dtype="float32")
                return rate
            except Exception:
                continue
        raise AudioInputError(f"output device {self.name!r} accepts none of the usual sample rates")

    def start_reply(self, turn_id: int) -> None:
        self._resampler = None
        self._player.new_reply()

    def play(self, samples: np.ndarray, rate: int) -> None:
        if self._resampler is None or rate != self._voice_rate:
            self._resampler, self._voice_rate = StreamResampler(rate, self.rate), rate
        self._player.put(self._resampler.process(samples))

    def finish_reply(self) -> None:
        if self._resampler is not None:
            self._player.put(self._resampler.process(np.zeros(0, dtype=np.float32), last=True))
        self._player.wait()

    def stop(self) -> float:
        return self._player.stop()

    @property
    def playing(self) -> bool:
        return self._player.playing

    def close(self) -> None:
        self._player.stop()
        self._stream.stop()
        self._stream.close()
