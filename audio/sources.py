"""Audio sources: a recording file, or a microphone (audio/microphone.py), both yielding 32 ms frames
at 16 kHz mono.

The loop sees only the AudioSource interface, so a wav file stands in for the microphone in
tests and replays with nothing else changed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Protocol

import numpy as np

from . import FRAME_SAMPLES, SAMPLE_RATE
from .convert import StreamResampler, to_mono
from .errors import AudioInputError


@dataclass(frozen=True)
class Frame:
    samples: np.ndarray  # float32, FRAME_SAMPLES long, 16 kHz mono
    index: int  # frame number since the source started
    media_end: float  # seconds of audio up to the end of this frame

    @property
    def media_start(self) -> float:
        return self.media_end - FRAME_SAMPLES / SAMPLE_RATE


class AudioSource(Protocol):
    name: str

    def frames(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


def framer(chunks: Iterator[np.ndarray]) -> Iterator[Frame]:
    """Cut a stream of 16 kHz mono chunks into fixed frames; the last one is zero-padded."""
    pending = np.zeros(0, dtype=np.float32)
    index = 0
    for chunk in chunks:
        pending = np.concatenate([pending, chunk]) if len(pending) else chunk
        while len(pending) >= FRAME_SAMPLES:
            frame, pending = pending[:FRAME_SAMPLES], pending[FRAME_SAMPLES:]
            index += 1
            yield Frame(np.ascontiguousarray(frame), index - 1, index * FRAME_SAMPLES / SAMPLE_RATE)
    if len(pending):
        frame = np.zeros(FRAME_SAMPLES, dtype=np.float32)
        frame[: len(pending)] = pending
        index += 1
        yield Frame(frame, index - 1, index * FRAME_SAMPLES / SAMPLE_RATE)


def on_first_frame(frames: Iterator[Frame], act: Callable[[], None]) -> Iterator[Frame]:
    """The frames, with `act()` done as the first one comes. A microphone's stream opens when it is
    first read, so "listening" is only true then: said before, the models the loop waits for
    loading, a person who began at once lost their first second."""
    for n, frame in enumerate(frames):
        if n == 0:
            act()
        yield frame


def open_audio_file(path: Path):
    """Open a recording with soundfile, turning every failure into one clear line."""
    import soundfile as sf

    path = Path(path)
    if not path.exists():
        raise AudioInputError(f"audio file not found: {path}")
    if path.is_dir():
        raise AudioInputError(f"expected an audio file but got a folder: {path}")
    if path.stat().st_size == 0:
        raise AudioInputError(f"audio file is empty: {path}")
    try:
        handle = sf.SoundFile(str(path))
    except Exception as exc:  # soundfile raises several types for unreadable input
        raise AudioInputError(f"not a readable audio file: {path} ({first_line(exc)})") from None
    if handle.frames == 0:
        handle.close()
        raise AudioInputError(f"audio file has no samples: {path}")
    return handle


def first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def read_audio_file(path: Path) -> np.ndarray:
    """The whole file as 16 kHz mono float32."""
    return np.concatenate([f.samples for f in FileSource(path).frames()])


class FileSource:
    """Replays a recording (wav, flac, mp3, ogg; any rate, channels and sample width).

    realtime=True paces frames at the speed they were recorded, as a microphone would;
    otherwise frames come as fast as the loop takes them.
    """

    BLOCK = 16_384  # samples read from disk at a time

    def __init__(self, path: Path | str, realtime: bool = False, tail_silence: float = 1.0) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self.realtime = realtime
        self.tail_silence = tail_silence  # silence appended so speech at the very end gets its endpoint
        handle = open_audio_file(self.path)  # fail early, with the clear message
        self.source_rate = handle.samplerate
        self.seconds = handle.frames / handle.samplerate
        handle.close()
        self._closed = False

    def _chunks(self) -> Iterator[np.ndarray]:
        handle = open_audio_file(self.path)
        resampler = StreamResampler(handle.samplerate, SAMPLE_RATE)
        try:
            while not self._closed:
                try:
                    block = handle.read(self.BLOCK, dtype="float32", always_2d=True)
                except Exception as exc:
                    raise AudioInputError(f"audio file is damaged: {self.path} ({first_line(exc)})") from None
                if len(block) == 0:
                    break
                yield resampler.process(to_mono(block))
            yield resampler.process(np.zeros(0, dtype=np.float32), last=True)
        finally:
            handle.close()
        if self.tail_silence > 0:
            yield np.zeros(int(self.tail_silence * SAMPLE_RATE), dtype=np.float32)

    def frames(self) -> Iterator[Frame]:
        started = time.monotonic()
        for frame in framer(self._chunks()):
            if self.realtime:
                delay = started + frame.media_end - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            yield frame

    def close(self) -> None:
        self._closed = True
