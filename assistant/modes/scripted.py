"""A scripted person for replays: says each line, then waits for Hearth as a person would.

Recordings played back blindly talk over slow replies; a scripted person instead waits until
Hearth has finished answering (or, to test barge-in, until the reply has started and then a
little longer) before saying the next line.
"""

from __future__ import annotations

import time
from typing import Callable, Iterator, Sequence

import numpy as np

from audio import FRAME_SAMPLES, FRAME_SECONDS
from audio.sources import Frame


def scripted_person(lines: Sequence[np.ndarray], hearth_busy: Callable[[], bool], hearth_talking: Callable[[], bool],
                    realtime: bool = True, pause: float = 0.8, talk_over_after: float | None = None,
                    lead_in: float = 0.5, timeout: float = 60.0) -> Iterator[Frame]:
    """Frames of 16 kHz audio: lead-in silence, then each line followed by a wait.

    After a line the person waits until Hearth is no longer busy, then `pause` more seconds.
    With talk_over_after, after every line but the last the person instead waits for Hearth to
    start talking and speaks again that many seconds later (a barge-in).
    """
    silence = np.zeros(FRAME_SAMPLES, dtype=np.float32)
    index = 0
    started = time.monotonic()

    def frame(samples: np.ndarray) -> Frame:
        nonlocal index
        index += 1
        if realtime:
            delay = started + index * FRAME_SECONDS - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        return Frame(samples, index - 1, index * FRAME_SECONDS)

    def frames_of(audio: np.ndarray) -> Iterator[Frame]:
        padded = np.concatenate([audio, np.zeros(-len(audio) % FRAME_SAMPLES, dtype=np.float32)])
        for start in range(0, len(padded), FRAME_SAMPLES):
            yield frame(padded[start : start + FRAME_SAMPLES])

    def wait_until(done: Callable[[], bool]) -> Iterator[Frame]:
        deadline = time.monotonic() + timeout
        # give the listener time to hear the silence and end the turn before judging "busy"
        for _ in range(int(1.2 / FRAME_SECONDS)):
            yield frame(silence)
        while not done() and time.monotonic() < deadline:
            yield frame(silence)
            if not realtime:
                time.sleep(0.01)

    for _ in range(int(lead_in / FRAME_SECONDS)):
        yield frame(silence)
    for n, line in enumerate(lines):
        yield from frames_of(line)
        last = n == len(lines) - 1
        if talk_over_after is not None and not last:
            yield from wait_until(hearth_talking)
            for _ in range(int(talk_over_after / FRAME_SECONDS)):
                yield frame(silence)
        else:
            yield from wait_until(lambda: not hearth_busy())
            for _ in range(int(pause / FRAME_SECONDS)):
                yield frame(silence)
