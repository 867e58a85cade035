"""A room for echo benchmarks and tests: a person's recordings and Hearth's own voice, heard
together by a microphone, as frames paced in real time.

Hearth's output reaches the microphone as a room would carry it: delayed, convolved with a real
room's impulse response (../shared/data/speech/rooms/), at a level relative to the person. The
RoomSink is the loop's real WavSink (playing in real time) that also tells the room each slice
as it starts to play, on the room's own clock; the room never reads the loop's state.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence

import numpy as np

import sys

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio import FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE  # noqa: E402
from audio.convert import StreamResampler, resample, to_mono  # noqa: E402
from audio.sinks import WavSink  # noqa: E402
from audio.sources import Frame  # noqa: E402

IMPULSE_SECONDS = 0.5  # the response is kept to where it has decayed by 40 dB
CONTIGUOUS_SAMPLES = 16  # a slice starting within 1 ms of the last one's end follows it


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0


def active_rms(x: np.ndarray) -> float:
    """RMS over the 32 ms frames that carry speech (within 30 dB of the loudest)."""
    frames = x[: len(x) // FRAME_SAMPLES * FRAME_SAMPLES].reshape(-1, FRAME_SAMPLES)
    levels = np.sqrt(np.mean(frames.astype(np.float64) ** 2, axis=1))
    loud = levels[levels > levels.max() * 10 ** (-30 / 20)]
    return float(np.sqrt(np.mean(loud ** 2)))


def speech_onset(x: np.ndarray) -> float:
    """Seconds into a recording at which speech starts (the first frame within 20 dB of its loud frames)."""
    frames = x[: len(x) // FRAME_SAMPLES * FRAME_SAMPLES].reshape(-1, FRAME_SAMPLES)
    levels = np.sqrt(np.mean(frames.astype(np.float64) ** 2, axis=1))
    first = int(np.argmax(levels > np.percentile(levels, 95) * 0.1))
    return first * FRAME_SECONDS


def load_impulse(path: Path) -> np.ndarray:
    import soundfile as sf

    data, rate = sf.read(str(path), dtype="float32")
    ir = resample(to_mono(data), rate, SAMPLE_RATE)[: int(IMPULSE_SECONDS * SAMPLE_RATE)]
    return (ir / np.sqrt(np.sum(ir.astype(np.float64) ** 2))).astype(np.float32)  # unit energy


@dataclass
class Room:
    impulse: np.ndarray  # 16 kHz, unit energy
    delay_ms: float
    gain: float  # applied to the played samples (after the unit-energy response)
    seconds: float = 600.0
    _echo: np.ndarray = field(init=False)
    _started: float | None = field(init=False, default=None)
    _next: int = field(init=False, default=0)
    _cursor: int | None = field(init=False, default=None)
    _resampler: StreamResampler | None = field(init=False, default=None)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._echo = np.zeros(int(self.seconds * SAMPLE_RATE) + len(self.impulse), dtype=np.float32)

    @staticmethod
    def level_gain(level_db: float, person_rms: float, voice_rms: float) -> float:
        """The gain that puts Hearth's voice (active RMS voice_rms) level_db relative to the person."""
        return person_rms * 10 ** (level_db / 20) / voice_rms

    def played(self, samples: np.ndarray, rate: int, start: float | None = None) -> None:
        """A slice of Hearth's voice starts to play at `start` (time.monotonic(); now if None),
        called on the playback thread. It is heard from then, right after the last slice where it
        starts within a few samples of its end (the resampler's rounding)."""
        if self._started is None:
            return
        if self._resampler is None:
            self._resampler = StreamResampler(rate, SAMPLE_RATE)
        block = self._resampler.process(samples)
        if not len(block):  # the resampler holds the first few samples back
            return
        position = int(((time.monotonic() if start is None else start) - self._started) * SAMPLE_RATE)
        if self._cursor is not None and abs(position - self._cursor) <= CONTIGUOUS_SAMPLES:
            position = self._cursor
        self._cursor = position + len(block)
        heard_at = position + int(self.delay_ms * SAMPLE_RATE / 1000)  # the sample the echo reaches the microphone
        echo = np.convolve(block, self.impulse)[: len(self._echo) - heard_at] * self.gain
        with self._lock:
            if heard_at >= 0 and len(echo):
                self._echo[heard_at:heard_at + len(echo)] += echo

    def frames(self, script: Callable[["Room"], Iterator[np.ndarray]]) -> Iterator[Frame]:
        """The microphone, paced in real time: what `script` says (32 ms blocks of the person, or
        silence) plus the echo of what was played meanwhile."""
        self._started = time.monotonic()
        blocks_said = script(self)
        index = 0
        while True:
            self._next = index
            try:
                person = next(blocks_said)
            except StopIteration:
                return
            delay = self._started + (index + 1) * FRAME_SECONDS - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            start = index * FRAME_SAMPLES
            with self._lock:
                echo = self._echo[start:start + FRAME_SAMPLES].copy()
            yield Frame((person + echo).astype(np.float32), index, (index + 1) * FRAME_SECONDS)
            index += 1

    @property
    def started(self) -> float:
        """time.monotonic() when the microphone started: the loop's MonotonicClock at input time 0."""
        return self._started or 0.0

    def now(self) -> float:
        """Input time (seconds) of the next frame the script gives."""
        return self._next * FRAME_SECONDS


class RoomSink(WavSink):
    """The real wav sink, playing in real time, whose output the room also hears."""

    def __init__(self, folder: Path, room: Room) -> None:
        super().__init__(folder, realtime=True)
        self.room = room

    def _playing(self, block: np.ndarray, start: float) -> None:
        self.room.played(block, self._rate, start)
        super()._playing(block, start)


def blocks(audio: np.ndarray) -> Iterator[np.ndarray]:
    padded = np.concatenate([audio, np.zeros(-len(audio) % FRAME_SAMPLES, dtype=np.float32)])
    for start in range(0, len(padded), FRAME_SAMPLES):
        yield padded[start:start + FRAME_SAMPLES]


SILENCE = np.zeros(FRAME_SAMPLES, dtype=np.float32)


def silence(seconds: float) -> Iterator[np.ndarray]:
    for _ in range(int(seconds / FRAME_SECONDS)):
        yield SILENCE


def wait_for(done: Callable[[], bool], timeout: float = 60.0, settle: float = 1.2) -> Iterator[np.ndarray]:
    """Silence until done() (judged only after `settle` seconds, for the endpoint to be heard)."""
    yield from silence(settle)
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        yield SILENCE


@dataclass
class Said:
    """When the person's speech was in the microphone, on the room's clock (seconds)."""

    clip: str
    start: float  # speech onset
    end: float


def say(room: Room, clip: str, audio: np.ndarray, said: list[Said]) -> Iterator[np.ndarray]:
    start = room.now() + speech_onset(audio)
    said.append(Said(clip, start, room.now() + len(audio) / SAMPLE_RATE))
    yield from blocks(audio)


def during(t: float, said: Sequence[Said], before: float = 0.3, after: float = 0.6) -> Said | None:
    """The person's utterance t falls in (with a margin), if any."""
    return next((s for s in said if s.start - before <= t <= s.end + after), None)
