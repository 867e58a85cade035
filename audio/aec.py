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
