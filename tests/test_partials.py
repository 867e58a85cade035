"""When partial transcripts start: half an interval into speech, then every interval, one at a time."""

from __future__ import annotations

import threading

import numpy as np

from assistant import events as ev
from assistant.pipeline.partials import PartialTranscriber


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


def schedule(frames_at: list[float], interval: float = 0.6, resume_at: float | None = None) -> list[float]:
    """The clock times at which a transcription started, for speech offered at `frames_at`."""
    clock, started, emitted = Clock(), [], []
    done = threading.Event()

    def transcribe(samples: np.ndarray, wanted) -> str:
        started.append(clock.t)
        done.set()
        return "hello"

    partials = PartialTranscriber(transcribe, emitted.append, clock, interval=interval)
    partials.reset(1)
    for t in frames_at:
        clock.t = t
        if resume_at is not None and t == resume_at:
            partials.reset(1)
        done.clear()
        partials.offer(1, lambda: np.zeros(16000, dtype=np.float32))
        while partials._busy.is_set():  # let each transcription finish before the next frame
            done.wait(0.001)
    assert all(isinstance(e, ev.PartialTranscript) and e.text == "hello" for e in emitted)
    return started


def frames(until: float, step: float = 0.032) -> list[float]:
    return [round(i * step, 3) for i in range(1, int(until / step) + 1)]


def test_the_first_partial_comes_half_an_interval_into_speech():
    # a one-second utterance ("ten of clubs") gets one well before it ends
    assert schedule(frames(1.0))[0] == 0.32


def test_later_partials_come_an_interval_apart():
    started = schedule(frames(2.0))
    assert len(started) == 3
    assert all(0.6 <= b - a < 0.64 for a, b in zip(started, started[1:]))


def test_speech_resumed_after_a_pause_starts_half_an_interval_later():
    started = schedule(frames(2.0), resume_at=0.992)
    after = [t for t in started if t > 0.992]
    assert 0.992 + 0.3 <= after[0] < 0.992 + 0.34
