"""Hearth's own voice in the microphone: what the sink played, placed on the input timeline, and
the microphone cleaned of its echo frame by frame.

EchoReference is fed by the sinks as each slice of a reply starts to play (audio/sinks.py) and by
the loop as each input frame is read; it places the played samples at the input sample positions
they were played at, so a frame of the microphone can be matched with what was playing meanwhile.
It also keeps the words Hearth said, for the echo decision (audio/echo_decision.py).

EchoMonitor runs the echo canceller (audio/aec.py) on each frame, with the played samples as its
reverse stream, and reports the frame's levels: raw, cleaned, and what was playing. Where no echo
reaches the microphone at all (audio/echo_path.py), the frame is passed on as it came.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import FRAME_SAMPLES, SAMPLE_RATE
from .convert import StreamResampler
from .echo_path import EchoPathMeter
from .sources import Frame

ECHO_TAIL_SECONDS = 0.6  # after the last sample played, its echo may still arrive (delay + reverberation)
LEARNED_FRAMES = 10  # frames of echo the canceller must have taken before its residue is trusted
# Frames after playing begins (after a tail of silence) before the echo is surely in the microphone:
# the reference may sit up to _SNAP from where the sound really played, and the room adds its delay.
ECHO_ARRIVAL_FRAMES = 10
# ...and the echo may arrive before the reference says it played: what is about to play, this many
# frames ahead, counts as playing. Live at 60%, the first frame of a reply held -42 dBFS of echo while
# the reference placed -63 there and the loud part a frame later: the microphone stood 11 dB over the
# echo it expected, and the reply was paused for its own voice at its start (four times in one desk).
ECHO_LEAD_FRAMES = 3
_SILENT = 1e-7  # mean square below which a reference block is silence (-70 dBFS)
_SNAP = SAMPLE_RATE // 10  # a slice placed within 100 ms of where the last one ended follows it
DRIFT_SLICES = 32  # a continuous stream moves when the clock has disagreed for this many slices
RESIDUAL_FRAMES = 300  # the played frames (about 10 s) the canceller's residue is learned from
RESIDUAL_PERCENTILE = 95
ECHO_DOMINATED = 0.25  # a frame whose cleaned energy is below this share of the microphone's (-6 dB)
ANCHOR_FRAMES = 300  # the input frames (about 10 s) whose read times map the clock onto the input


class EchoReference:
    """The played samples at 16 kHz, at the input sample positions they were played at."""

    def __init__(self, now: Callable[[], float] = time.monotonic, seconds: float = 30.0) -> None:
        self.now = now
        self._size = int(seconds * SAMPLE_RATE)
        self._ring = np.zeros(self._size, dtype=np.float32)
        self._end = 0  # one past the last position written
        self._cursor: int | None = None  # where the next contiguous slice goes
        # clock time minus input time of the frames read lately: the least is the frame read as soon
        # as it was there (later ones waited for a busy loop), and maps the clock onto input positions
        self._offsets: deque[float] = deque(maxlen=ANCHOR_FRAMES)
        self._offset: float | None = None
        self._resampler: tuple[int, StreamResampler] | None = None
        self._disagreement: deque[int] = deque(maxlen=DRIFT_SLICES)  # clock's position - cursor, lately
        self._lock = threading.Lock()
        self._said: deque[tuple[float, str]] = deque(maxlen=32)
        self.last_played = float("-inf")  # clock time the last played sample ends

    # -- from the loop ----------------------------------------------------------------------
    def anchor(self, position: int) -> None:
        """Input sample `position` (the end of the frame just read) was read now."""
        offset = self.now() - position / SAMPLE_RATE
        with self._lock:
            self._offsets.append(offset)
            self._offset = offset if self._offset is None or offset <= self._offset else min(self._offsets)

    def position_at(self, t: float) -> int:
        """The input sample position being captured at clock time t."""
        with self._lock:
            if self._offset is None:
                return 0
            return int(round((t - self._offset) * SAMPLE_RATE))

    def said(self, text: str) -> None:
        """A sentence Hearth is about to say."""
        with self._lock:
            self._said.append((self.now(), text))

    def recent_words(self, seconds: float = 30.0) -> list[str]:
        """The sentences said in the last `seconds` before the last sample played."""
        with self._lock:
            since = max(self.last_played, self.now()) - seconds
            return [text for t, text in self._said if t >= since]

    # -- from the sinks ---------------------------------------------------------------------
    def played(self, samples: np.ndarray, rate: int, latency: float = 0.0) -> None:
        """A slice starts to play now (or `latency` seconds from now), from a sink that plays each
        reply as a burst: it follows the last slice when the clock puts it within _SNAP of it."""
        self._place(samples, rate, latency, self._burst_position)

    def played_continuously(self, samples: np.ndarray, rate: int, latency: float) -> None:
        """A device buffer starts to play `latency` seconds from now, on a device that never stops
        (the speakers, fed silence between replies): it is placed right after the last whatever the
        clock says; the clock only moves the stream when it has disagreed by more than _SNAP for
        most of the last DRIFT_SLICES slices (the device restarted, or its clock drifted from the
        microphone's). A single slice's time is not trusted: a device's callback and its reported
        latency jitter by tens of milliseconds, and a slice placed by them left holes in the reference."""
        self._place(samples, rate, latency, self._stream_position)

    def _burst_position(self, position: int) -> int:
        return self._cursor if abs(position - self._cursor) <= _SNAP else position

    def _stream_position(self, position: int) -> int:
        self._disagreement.append(position - self._cursor)
        moved = float(np.median(self._disagreement))
        if len(self._disagreement) < DRIFT_SLICES or abs(moved) <= _SNAP:
            return self._cursor
        self._disagreement.clear()
        return self._cursor + int(moved)

    def _place(self, samples: np.ndarray, rate: int, latency: float, rule) -> None:
        if self._resampler is None or self._resampler[0] != rate:
            self._resampler = (rate, StreamResampler(rate, SAMPLE_RATE))
        block = self._resampler[1].process(np.asarray(samples, dtype=np.float32))
        start_time = self.now() + latency
        position = self.position_at(start_time)
        with self._lock:
            if self._cursor is not None:
                position = rule(position)
            self._write(position, block)
            self._cursor = position + len(block)
            self.last_played = max(self.last_played, start_time + len(block) / SAMPLE_RATE)

    def _write(self, position: int, block: np.ndarray) -> None:
        if position > self._end:  # what lies between the last slice and this one was silence
            gap = min(position - self._end, self._size)
            self._put(position - gap, np.zeros(gap, dtype=np.float32))
        block = block[-self._size:]
        self._put(position, block)
        self._end = max(self._end, position + len(block))

    def _put(self, position: int, block: np.ndarray) -> None:
        start = position % self._size
        first = min(len(block), self._size - start)
        self._ring[start:start + first] = block[:first]
        self._ring[: len(block) - first] = block[first:]

    def span(self, start: int, n: int) -> np.ndarray:
        """The played samples at input positions [start, start + n); zeros where nothing played."""
        out = np.zeros(n, dtype=np.float32)
        with self._lock:
            lo, hi = max(start, self._end - self._size, 0), min(start + n, self._end)
            for p in range(lo, hi, self._size):  # (one pass unless n exceeds the ring)
                q = min(hi, p + self._size)
                idx = np.arange(p, q) % self._size
                out[p - start:q - start] = self._ring[idx]
        return out


@dataclass(frozen=True)
class FrameLevels:
    """Mean squares of one input frame (32 ms) and of what was playing meanwhile."""

    mic: float  # the microphone as it came
    cleaned: float  # after the echo canceller
    playing: float  # the loudest played 32 ms within the echo tail before this frame or just after it
    converged: bool  # the canceller has taken enough echo for its residue to be known
    residual: float = 0.0  # the echo the canceller leaves, as it has lately left for what was playing
    echo_ceiling: float = 0.0  # the loudest echo the room has lately carried of that much playing (0: unknown)
    ceiling_frames: int = 0  # the frames of echo that ceiling was learned from
    cancelled: bool = True  # the canceller's output was passed on (else the microphone as it came)


def mean_square(x: np.ndarray) -> float:
    return float(np.mean(np.square(x, dtype=np.float64))) if len(x) else 0.0


class EchoMonitor:
    """Cleans each input frame of the echo of what was played, and reports its levels."""

    def __init__(self, reference: EchoReference, canceller) -> None:
        self.reference = reference
        self._canceller = canceller  # an audio.aec canceller, or None (levels only)
        self._tail = int(ECHO_TAIL_SECONDS * SAMPLE_RATE / FRAME_SAMPLES)
        self._played: deque[float] = deque(maxlen=self._tail)
        # what the canceller leaves of the echo, against what was playing, over the last frames
        self._left: deque[float] = deque(maxlen=RESIDUAL_FRAMES)
        self._residual_gain = 1.0
        # and what reaches the microphone of it: the room's gain, which a canceller that lost the
        # echo does not change
        self._carried: deque[float] = deque(maxlen=RESIDUAL_FRAMES)
        self._echo_gain = 0.0
        self._playing_for = 0  # frames since playing began after a tail of silence
        self._played_before = 0.0  # the loudest played 32 ms within the echo tail, up to the last frame
        self.path = EchoPathMeter()  # whether what plays reaches the microphone at all
        self.levels = FrameLevels(0.0, 0.0, 0.0, False)

    def clean(self, frame: Frame) -> Frame:
        end = (frame.index + 1) * FRAME_SAMPLES
        self.reference.anchor(end)
        far = self.reference.span(end - FRAME_SAMPLES, FRAME_SAMPLES)
        self._played.append(mean_square(far))
        lead = self.reference.span(end, ECHO_LEAD_FRAMES * FRAME_SAMPLES).reshape(ECHO_LEAD_FRAMES, FRAME_SAMPLES)
        # the room's gains are learned against what played before the frame only: a frame's echo is of
        # that, and against a loud part about to play they would come out lower than the room's
        self._played_before = max(self._played)
        playing = max(self._played_before, max(mean_square(block) for block in lead))
        mic = mean_square(frame.samples)
        self._playing_for = self._playing_for + 1 if playing > _SILENT else 0
        self.path.observe(mic, playing > _SILENT, self._playing_for > ECHO_ARRIVAL_FRAMES)
        cancelled = False
        if self._canceller is None or self.reference.last_played == float("-inf"):
            cleaned = frame.samples  # nothing was ever played (a fast replay): nothing to cancel
        else:
            cleaned = self._canceller.process(frame.samples, far)  # run all along: its timeline stays whole
            cancelled = self.path.cancel
            if not cancelled:
                cleaned = frame.samples  # no echo to remove, and AEC3 would suppress the person
        self.levels = FrameLevels(mic, mean_square(cleaned), playing,
                                  len(self._left) >= LEARNED_FRAMES, self._residual_gain * playing,
                                  self._echo_gain * playing if len(self._carried) >= LEARNED_FRAMES else 0.0,
                                  len(self._carried), cancelled)
        return Frame(np.ascontiguousarray(cleaned, dtype=np.float32), frame.index, frame.media_end)

    def learn(self, voiced: bool) -> None:
        """After the frame's voice was judged: a played frame the canceller took most of is echo (a
        person's voice passes through it), and so is one with no voice in it; the loud end of what
        the canceller leaves of those is the echo's residue. Not in the first frames of playing: the
        echo may not have arrived yet, and a silent microphone there would teach a residue of
        nothing, after which the first echo the canceller has not learned passes for a person (it
        stopped the session's first reply in the live room)."""
        levels = self.levels
        if self._playing_for <= ECHO_ARRIVAL_FRAMES:
            return
        before = self._played_before
        if before > _SILENT and (not voiced or levels.cleaned < ECHO_DOMINATED * levels.mic):
            self._left.append(levels.cleaned / before)
            self._residual_gain = float(np.percentile(self._left, RESIDUAL_PERCENTILE))
            self._carried.append(levels.mic / before)
            self._echo_gain = float(np.percentile(self._carried, RESIDUAL_PERCENTILE))

    def relearn(self) -> None:
        """The canceller has lost the echo: its residue is learned again, from echo it takes, before
        a person is confirmed on it (until then the frames are not `converged`). The room's gain
        stands: the loss is the canceller's, not the room's."""
        self._left.clear()

    @property
    def echo_possible(self) -> bool:
        """Something was played recently enough for its echo to be in this frame."""
        return self.levels.playing > _SILENT
