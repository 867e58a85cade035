"""Does what Hearth plays reach the microphone at all? Measured afresh at the start of each reply.

WebRTC's echo canceller (AEC3) cannot learn an echo path that is not there: with headphones, or
speakers too far or too quiet to be heard, its filter never converges, and its suppressor keeps
assuming an echo as loud as what is playing. Measured offline on the shared speech, a person
talking over a reply with nothing of it in the microphone lost 20-60 dB in most quarter-seconds,
4 s into the reply as much as at its start; with the same reply's echo at -20 or -6 dB the person
passed within a few dB. So where no echo arrives, the microphone is taken as it came.

Each playback after a tail of silence is measured: the microphone against its own level between
replies (its floor). Any frame risen above the floor while playing is the echo (or a person talking
at once; either way the canceller stays) and the path is present; MEASURE_FRAMES after the echo
has had time to arrive with none risen, it is absent until the playback ends. Meanwhile, what is
taken depends on the last playback: after one that had no echo (and for a session's first),
the microphone as it came, since the first frame risen switches to the canceller before any of
it is passed on, and the canceller has run all along in its cautious start; after one that had
echo, the canceller's output. Nothing flips mid-reply: a person who starts talking later raises
the microphone too. Speakers switched on mid-reply would be heard as a person once, until the
next reply measures again.
"""

from __future__ import annotations

from collections import deque
from enum import Enum

import numpy as np

MEASURE_FRAMES = 12  # 384 ms of playing, after the echo has had time to arrive
RISE = 4.0  # a frame has risen when its mean square is this far above the floor (6 dB)
FLOOR_FRAMES = 1000  # the unplayed frames (32 s) the floor is taken from
FLOOR_PERCENTILE = 10  # their quiet end: not the person who spoke between replies (a question fills most of them)
MIN_FLOOR = 1e-8  # a digitally silent microphone's floor (-80 dBFS)


class EchoPath(Enum):
    IDLE = "idle"  # nothing played within the echo tail
    MEASURING = "measuring"  # playing, not yet known whether its echo reaches the microphone
    PRESENT = "present"  # it does (or a person talked while it was measured): cancel it
    ABSENT = "absent"  # it does not: the microphone is taken as it came


class EchoPathMeter:
    """One microphone's echo path, frame by frame."""

    def __init__(self) -> None:
        self.state = EchoPath.IDLE
        self.last = EchoPath.ABSENT  # what the last playback measured (a session's first: none yet)
        self._quiet: deque[float] = deque(maxlen=FLOOR_FRAMES)  # mic levels while nothing played
        self._measured = 0

    @property
    def floor(self) -> float:
        if not self._quiet:
            return MIN_FLOOR
        return max(MIN_FLOOR, float(np.percentile(self._quiet, FLOOR_PERCENTILE)))

    @property
    def cancel(self) -> bool:
        """Take the canceller's output for this frame (else the microphone as it came)."""
        if self.state is EchoPath.MEASURING:
            return self.last is EchoPath.PRESENT
        return self.state is EchoPath.PRESENT

    def observe(self, mic: float, playing: bool, arrived: bool) -> EchoPath:
        """mic: this frame's mean square as it came; playing: something played within the echo
        tail; arrived: that playing began long enough ago for its echo to be here."""
        if not playing:
            self._quiet.append(mic)
            if self.state in (EchoPath.PRESENT, EchoPath.ABSENT):
                self.last = self.state
            self.state = EchoPath.IDLE
            return self.state
        if self.state is EchoPath.IDLE:
            self.state, self._measured = EchoPath.MEASURING, 0
        if self.state is EchoPath.MEASURING:
            if mic > RISE * self.floor:
                self.state = EchoPath.PRESENT
            elif arrived:
                self._measured += 1
                if self._measured >= MEASURE_FRAMES:
                    self.state = EchoPath.ABSENT
        return self.state
