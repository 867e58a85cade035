"""Acoustic echo cancellation: WebRTC's audio processing module (AEC3), through LiveKit's binding.

This adapter is the only place that touches the library (`livekit`, pinned in pyproject.toml).
It takes 16 kHz mono float32 in any block size: the played samples as the reverse stream and
the microphone's samples, aligned on the input timeline, and returns the microphone's samples
with the echo of the played ones removed, 10 ms later (the module works in 10 ms frames).
"""

from __future__ import annotations

import numpy as np

from . import SAMPLE_RATE

CHUNK = SAMPLE_RATE // 100  # the module's 10 ms frame


def _int16(samples: np.ndarray) -> np.ndarray:
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype(np.int16)


class EchoCanceller:
    """One echo canceller for one microphone stream; its filter adapts to the room as it runs."""

    def __init__(self, delay_ms: int = 0, noise_suppression: bool = False) -> None:
        from livekit import rtc

        self._rtc = rtc
        self._apm = rtc.AudioProcessingModule(echo_cancellation=True, noise_suppression=noise_suppression,
                                              high_pass_filter=True)
        self._delay_ms = int(delay_ms)
        self._reverse = np.zeros(0, dtype=np.float32)
        self._near = np.zeros(0, dtype=np.float32)
        self._out = [np.zeros(CHUNK, dtype=np.float32)]  # the 10 ms the module holds back
        self._out_len = CHUNK

    def _frame(self, samples: np.ndarray):
        return self._rtc.AudioFrame(_int16(samples).tobytes(), SAMPLE_RATE, 1, CHUNK)

    def process(self, near: np.ndarray, reverse: np.ndarray) -> np.ndarray:
        """near: the microphone's next samples; reverse: what was played over the same stretch of
        the input timeline (as long as near; zeros where nothing played). Returns len(near)
        cleaned samples."""
        near = np.asarray(near, dtype=np.float32)
        self._near = np.concatenate([self._near, near])
        self._reverse = np.concatenate([self._reverse, np.asarray(reverse, dtype=np.float32)])
        while len(self._near) >= CHUNK and len(self._reverse) >= CHUNK:
            far = self._frame(self._reverse[:CHUNK])
            self._apm.process_reverse_stream(far)
            mic = self._frame(self._near[:CHUNK])
            self._apm.set_stream_delay_ms(self._delay_ms)
            self._apm.process_stream(mic)
            cleaned = np.frombuffer(bytes(mic.data), dtype=np.int16).astype(np.float32) / 32767.0
            self._out.append(cleaned)
            self._out_len += CHUNK
            self._near, self._reverse = self._near[CHUNK:], self._reverse[CHUNK:]
        out = np.concatenate(self._out)
        result, rest = out[: len(near)], out[len(near):]
        self._out, self._out_len = [rest], len(rest)
        return result


PAUSE_SECONDS = 0.5  # nothing played for this long: the next sound played starts a fresh canceller
FRESH_MARGIN = 0.1  # the fresh canceller's output is taken when it holds under a tenth of the energy (10 dB)
STEADY_LOST = 0.5  # ...and only where the long-running one left over half the microphone's energy (under 3 dB off)
HANDOVER_SECONDS = 0.5  # ...and only this early in the playing: after it, the fresh one is dropped
_SILENT = 1e-7  # mean square of a played block below which nothing was playing (-70 dBFS)


class PairedCanceller:
    """An echo canceller that has run all along, and a second started afresh whenever playback
    begins after a pause. The long-running one's output is taken until, in some block, it took
    almost nothing off the microphone (STEADY_LOST) while the fresh one's is far quieter
    (FRESH_MARGIN): the long-running one has lost the echo, and the fresh one replaces it.

    Measured through the PulseAudio room: the long-running canceller took 50-60 dB of echo off a
    reply, but at the start of a reply after the person had talked over the last one it now and then
    took almost nothing for 200-300 ms (long enough to pass for a person), while one started in the
    pause before that reply cancelled it from its first syllable. Switching block by block (to
    the fresh one wherever it was 10 dB quieter) made self-interruptions in the echo benchmark's reverberant room (2 in 5
    conversations at -6 dB, none with one canceller); handing over once, only where the old one
    lost the echo, made 1.

    The handover is open only for the first HANDOVER_SECONDS of playing. Later, a long-running
    canceller that takes little off is most often letting a person through (a person talking over
    the reply passes any canceller), while the fresh one, still in its cautious first seconds,
    suppressed that person too: in the echo benchmark at -20 dB, a talk-over 0.8 s into a reply
    was silenced for 450 ms and stopped playback after 870 ms; with one canceller, after 200 ms."""

    def __init__(self, make=EchoCanceller) -> None:
        self._make = make
        self._steady = make()
        self._fresh = None
        self._pause = 0  # samples since something was last played
        self._pause_limit = int(PAUSE_SECONDS * SAMPLE_RATE)
        self._since_fresh = 0  # samples since the fresh one was made
        self._handover_limit = int(HANDOVER_SECONDS * SAMPLE_RATE)

    def process(self, near: np.ndarray, reverse: np.ndarray) -> np.ndarray:
        reverse = np.asarray(reverse, dtype=np.float32)
        if float(np.mean(np.square(reverse))) < _SILENT:
            self._pause += len(reverse)
        else:
            if self._pause >= self._pause_limit:
                self._fresh, self._since_fresh = self._make(), 0
            self._pause = 0
        steady = self._steady.process(near, reverse)
        if self._fresh is not None and self._since_fresh >= self._handover_limit:
            self._fresh = None  # too late to hand over: the long-running one carries on
        if self._fresh is None:
            return steady
        self._since_fresh += len(reverse)
        fresh = self._fresh.process(near, reverse)
        steady_level = float(np.mean(np.square(steady)))
        lost = steady_level > STEADY_LOST * float(np.mean(np.square(np.asarray(near, dtype=np.float32))))
        if lost and float(np.mean(np.square(fresh))) < FRESH_MARGIN * steady_level:
            self._steady, self._fresh = self._fresh, None  # the fresh one carries on alone
            return fresh
        return steady
