"""Where an utterance starts and ends, from a stream of per-frame speech decisions.

A small pure object: feed it one frame's speech flag at a time and it says when speech
started, when it ended, and which frames belong to the utterance. No audio, no model, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class EndpointSettings:
    frame_seconds: float = 0.032
    start_seconds: float = 0.096  # voiced run needed to call it speech (3 frames): blips are ignored
    end_silence_seconds: float = 0.5  # silence that ends the utterance
    pre_roll_seconds: float = 0.3  # audio kept from before the start, so first syllables survive
    max_seconds: float = 30.0  # an utterance longer than this is cut
    min_speech_seconds: float = 0.25  # voiced audio below this in total is a blip, not a turn
    silence_start_seconds: float = 0.096  # silence that counts as "the voice stopped" (word tails fade)

    def frames(self, seconds: float) -> int:
        return max(1, round(seconds / self.frame_seconds))


class Signal(Enum):
    NONE = "none"
    SPEECH_START = "speech_start"
    SILENCE_START = "silence_start"  # voice stopped; the endpoint may follow
    SPEECH_RESUMED = "speech_resumed"  # voice came back inside the silence window
    ENDPOINT = "endpoint"  # silence long enough, or max length reached: the utterance is done
    DISCARD = "discard"  # what looked like speech was too short to be a turn


@dataclass(frozen=True)
class Step:
    signal: Signal
    # For SPEECH_START: index of the first frame of the utterance (pre-roll included).
    # For ENDPOINT: index one past the last frame of the utterance; last_voiced is the last voiced frame.
    first_frame: int = -1
    end_frame: int = -1
    last_voiced_frame: int = -1
    cut: bool = False  # ENDPOINT because of max length rather than silence


class Endpointer:
    """State machine over frame indices. Frames are numbered from 0 in the order fed."""

    def __init__(self, settings: EndpointSettings | None = None) -> None:
        self.settings = s = settings or EndpointSettings()
        self._start_frames = s.frames(s.start_seconds)
        self._end_frames = s.frames(s.end_silence_seconds)
        self._pre_roll = s.frames(s.pre_roll_seconds) if s.pre_roll_seconds > 0 else 0
        self._max_frames = s.frames(s.max_seconds)
        self._min_voiced = s.frames(s.min_speech_seconds)
        self._silence_start = s.frames(s.silence_start_seconds)
        self._index = -1
        self._in_speech = False
        self._voiced_run = 0
        self._first_frame = 0
        self._last_voiced = -1
        self._voiced_total = 0
        self._silent_run = 0

    @property
    def in_speech(self) -> bool:
        return self._in_speech

    @property
    def in_silence_window(self) -> bool:
        """Voice has stopped but the endpoint has not come yet."""
        return self._in_speech and self._silent_run > 0

    @property
    def voiced_frames(self) -> int:
        """Voiced frames in the utterance so far, or in the last one once it has ended."""
        return self._voiced_total

    @property
    def start_frames(self) -> int:
        return self._start_frames

    @property
    def pre_roll_frames(self) -> int:
        return self._pre_roll

    def set_end_silence(self, seconds: float) -> None:
        """Change the silence that ends an utterance (takes effect from the next frame)."""
        self._end_frames = self.settings.frames(seconds)

    def feed(self, is_speech: bool) -> Step:
        self._index += 1
        i = self._index
        if not self._in_speech:
            self._voiced_run = self._voiced_run + 1 if is_speech else 0
            if self._voiced_run >= self._start_frames:
                self._in_speech = True
                run_start = i - self._start_frames + 1
                self._first_frame = max(0, run_start - self._pre_roll)
                self._last_voiced = i
                self._voiced_total = self._voiced_run
                self._silent_run = 0
                return Step(Signal.SPEECH_START, first_frame=self._first_frame)
            return Step(Signal.NONE)

        if is_speech:
            resumed = self._silent_run >= self._silence_start
            self._silent_run = 0
            self._last_voiced = i
            self._voiced_total += 1
        else:
            self._silent_run += 1
            resumed = False

        length = i - self._first_frame + 1
        if self._silent_run >= self._end_frames or length >= self._max_frames:
            return self._finish(i, cut=self._silent_run < self._end_frames)
        if resumed:
            return Step(Signal.SPEECH_RESUMED)
        if self._silent_run == self._silence_start:
            return Step(Signal.SILENCE_START, last_voiced_frame=self._last_voiced)
        return Step(Signal.NONE)

    def _finish(self, i: int, cut: bool) -> Step:
        self._in_speech = False
        self._voiced_run = 0
        self._silent_run = 0
        if self._voiced_total < self._min_voiced:
            return Step(Signal.DISCARD, first_frame=self._first_frame, end_frame=i + 1)
        return Step(
            Signal.ENDPOINT,
            first_frame=self._first_frame,
            end_frame=i + 1,
            last_voiced_frame=self._last_voiced,
            cut=cut,
        )
