"""The wav sink played in real time keeps time as a sound device does: at its sample rate.

Its slices start where the last one ended on the sample clock, however late the playback thread
wakes. (Each slice's own sleep, late by a few milliseconds on a loaded core, added up to 100 ms
within a second or two; the echo reference then placed the reply behind its own echo in the room.)
"""

from __future__ import annotations

import time

import numpy as np

import audio.sinks as sinks
from audio.sinks import WavSink

RATE = 16_000


class LateSleeper:
    """time.sleep that wakes 5 ms late every time, as a busy core's scheduler does."""

    def __init__(self) -> None:
        self.real = time.sleep

    def __call__(self, seconds: float) -> None:
        self.real(seconds + 0.005)


def test_slices_start_on_the_sample_clock_when_every_wake_up_is_late(tmp_path, monkeypatch):
    starts: list[float] = []

    class Recording(WavSink):
        def _playing(self, block, start):
            starts.append(start)

    monkeypatch.setattr(sinks.time, "sleep", LateSleeper())
    sink = Recording(tmp_path, realtime=True)
    sink.start_reply(1)
    began = time.monotonic()
    sink.play(np.zeros(2 * RATE, dtype=np.float32), RATE)  # two seconds: 100 slices of 20 ms
    sink.finish_reply()
    took = time.monotonic() - began
    sink.close()

    assert len(starts) == 100
    steps = np.diff(starts)
    assert np.allclose(steps, 0.02, atol=1e-6), steps  # each slice starts where the last one ended
    # and playing took as long as the audio, not 100 late wake-ups longer (0.5 s)
    assert took < 2.0 + 0.25, took


def test_a_pause_in_what_was_queued_starts_playback_again_when_the_audio_comes(tmp_path):
    starts: list[float] = []

    class Recording(WavSink):
        def _playing(self, block, start):
            starts.append(start)

    sink = Recording(tmp_path, realtime=True)
    sink.start_reply(1)
    sink.play(np.zeros(RATE // 10, dtype=np.float32), RATE)  # 100 ms
    time.sleep(0.4)  # nothing queued: the device would have played silence
    sink.play(np.zeros(RATE // 10, dtype=np.float32), RATE)
    sink.finish_reply()
    sink.close()

    assert len(starts) == 10
    assert starts[5] - starts[4] > 0.3  # the second part is placed when it came, not right after the first


def test_a_ducked_reply_is_handed_on_quieter_and_the_next_reply_as_loud_as_it_was_made():
    """What the device is given, and so what the echo reference is told was played, is the ducked audio."""
    from audio.players import DUCKED_GAIN, DevicePlayer

    heard: list[np.ndarray] = []
    player = DevicePlayer(16_000, lambda block, delay: heard.append(block))
    player.put(np.full(300, 0.5, dtype=np.float32))
    out = np.zeros(100, dtype=np.float32)
    player.fill(out, 0.0)
    player.duck(True)
    player.fill(out, 0.0)
    assert np.allclose(heard[0], 0.5) and np.allclose(out, 0.5 * DUCKED_GAIN) and np.allclose(heard[1], out)
    player.duck(False)
    player.fill(out, 0.0)
    assert np.allclose(out, 0.5)
    player.duck(True)
    player.new_reply()
    player.put(np.full(100, 0.5, dtype=np.float32))
    player.fill(out, 0.0)
    assert np.allclose(out, 0.5)
