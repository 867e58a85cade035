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


def test_a_paused_reply_hands_on_silence_and_plays_on_from_a_little_before_where_it_paused():
    """What the device is given, and so what the echo reference is told was played, is silence while
    the reply is paused; played on, it starts again REWIND_SECONDS back (here, from its start), so the
    word it was paused in is heard whole. A new reply is never paused."""
    from audio.players import REWIND_SECONDS, DevicePlayer

    heard: list[np.ndarray] = []
    player = DevicePlayer(16_000, lambda block, delay: heard.append(block))
    reply = np.linspace(0.1, 0.9, 300, dtype=np.float32)
    player.put(reply)
    out = np.zeros(100, dtype=np.float32)
    player.fill(out, 0.0)
    player.pause(True)
    player.fill(out, 0.0)
    assert np.array_equal(heard[0], reply[:100]) and not out.any() and not heard[1].any()
    assert player.playing and player.played_seconds == 100 / 16_000  # held where it was
    player.pause(False)
    assert 100 < REWIND_SECONDS * 16_000
    player.fill(out, 0.0)
    assert np.array_equal(out, reply[:100])  # from a little before where it paused
    player.fill(out, 0.0)
    assert np.array_equal(out, reply[100:200])
    player.pause(True)
    player.new_reply()
    player.put(reply[:100])
    player.fill(out, 0.0)
    assert np.array_equal(out, reply[:100])


def test_a_stopped_reply_plays_nothing_more_and_is_not_played_again_when_the_pause_ends():
    from audio.players import DevicePlayer

    player = DevicePlayer(16_000, lambda block, delay: None)
    player.put(np.full(300, 0.5, dtype=np.float32))
    out = np.zeros(100, dtype=np.float32)
    player.fill(out, 0.0)
    player.pause(True)
    assert player.stop() == 100 / 16_000 and not player.playing
    player.pause(False)
    player.fill(out, 0.0)
    assert not out.any() and not player.playing


def test_a_paced_reply_writes_silence_while_paused_and_then_the_rest(tmp_path):
    """A wav file (or a room simulation) is written silence at real speed while the reply is
    paused: the time passes for it as for a speaker. Then the reply plays on and ends."""
    from audio.players import PacedPlayer

    written: list[np.ndarray] = []

    def write(block):
        written.append(block.copy())
        time.sleep(len(block) / RATE)

    player = PacedPlayer(RATE, write)
    reply = np.linspace(0.1, 0.9, RATE // 5, dtype=np.float32)  # 200 ms
    player.put(reply)
    time.sleep(0.05)
    player.pause(True)
    time.sleep(0.15)
    paused_for = sum(len(b) for b in written if not b.any())
    player.pause(False)
    player.wait(timeout=5)
    player.close()
    out = np.concatenate(written)
    assert paused_for >= 0.08 * RATE  # silence was written while it was paused
    assert np.array_equal(out[out != 0][-len(reply):], reply)  # then all of it, from its start (rewound)
    assert not player.playing
