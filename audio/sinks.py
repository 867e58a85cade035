"""Audio sinks: the speakers, or a wav file per reply. The loop sees only the AudioSink interface."""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Protocol

import numpy as np

from .convert import StreamResampler, resample
from .sources import AudioInputError


class AudioSink(Protocol):
    def start_reply(self, turn_id: int) -> None: ...

    def play(self, samples: np.ndarray, rate: int) -> None:
        """Queue float32 mono samples; returns without waiting for them to be heard."""

    def finish_reply(self) -> None: ...

    def close(self) -> None: ...


class WavSink:
    """Writes each reply to DIR/<prefix>reply-<turn>.wav at the voice's own rate."""

    def __init__(self, folder: Path | str, prefix: str = "") -> None:
        self.folder = Path(folder)
        self.prefix = prefix
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

    def start_reply(self, turn_id: int) -> None:
        self._parts, self._rate, self._turn = [], 0, turn_id

    def play(self, samples: np.ndarray, rate: int) -> None:
        if self._rate and rate != self._rate:
            samples = resample(samples, rate, self._rate)
        self._rate = self._rate or rate
        self._parts.append(np.asarray(samples, dtype=np.float32))

    def finish_reply(self) -> None:
        import soundfile as sf

        if not self._parts:
            return
        path = self.folder / f"{self.prefix}reply-{self._turn:03d}.wav"
        sf.write(str(path), np.concatenate(self._parts), self._rate, subtype="PCM_16")
        self.written.append(path)
        self._parts = []

    def close(self) -> None:
        self.finish_reply()


class SpeakerSink:
    """Plays replies on an output device, resampled to a rate the device accepts."""

    def __init__(self, device: int | str | None = None) -> None:
        from .devices import load_sounddevice, output_device

        self._sd = load_sounddevice()
        self.device_index, info = output_device(self._sd, device)
        self.name = str(info["name"])
        self.rate = self._accepted_rate(int(info["default_samplerate"]))
        self._queue: queue.Queue[np.ndarray | None] = queue.Queue()
        self._resampler: StreamResampler | None = None
        self._voice_rate = 0
        self._thread = threading.Thread(target=self._writer, name="speaker", daemon=True)
        self._stream = self._sd.OutputStream(device=self.device_index, channels=1, samplerate=self.rate, dtype="float32")
        self._stream.start()
        self._thread.start()

    def _accepted_rate(self, default: int) -> int:
        for rate in (default, 48_000, 44_100, 22_050, 16_000):
            try:
                self._sd.check_output_settings(device=self.device_index, samplerate=rate, channels=1, dtype="float32")
                return rate
            except Exception:
                continue
        raise AudioInputError(f"output device {self.name!r} accepts none of the usual sample rates")

    def _writer(self) -> None:
        while (block := self._queue.get()) is not None:
            self._stream.write(block.reshape(-1, 1))

    def start_reply(self, turn_id: int) -> None:
        self._resampler = None

    def play(self, samples: np.ndarray, rate: int) -> None:
        if self._resampler is None or rate != self._voice_rate:
            self._resampler, self._voice_rate = StreamResampler(rate, self.rate), rate
        self._queue.put(self._resampler.process(samples))

    def finish_reply(self) -> None:
        if self._resampler is not None:
            self._queue.put(self._resampler.process(np.zeros(0, dtype=np.float32), last=True))

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)
        self._stream.stop()
        self._stream.close()
