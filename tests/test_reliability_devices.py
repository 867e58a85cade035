"""Sound devices that stall, vanish, come back, refuse a rate, or are not there at all.

PortAudio and real hardware are what CI lacks, so a fake `sounddevice` module stands in for them:
its InputStream runs a thread that calls the callback with blocks, the way PortAudio does, and a
FakeHardware object decides when the device stalls, errors, disappears and comes back.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import types

import numpy as np
import pytest

from assistant.modes.cli import main
from audio.microphone import MicSource
from audio.sources import AudioInputError

BLOCK_PAUSE = 0.004  # the fake delivers 32 ms blocks every 4 ms: eight times real time


class FakeHardware:
    """The devices on the fake machine and what they are doing right now."""

    def __init__(self, inputs=(("Built-in Mic", 48_000),), outputs=(("Speakers", 48_000),),
                 refused_output_rates=()) -> None:
        self.inputs = [{"name": n, "max_input_channels": 1, "max_output_channels": 0, "default_samplerate": r}
                       for n, r in inputs]
        self.outputs = [{"name": n, "max_input_channels": 0, "max_output_channels": 2, "default_samplerate": r}
                        for n, r in outputs]
        self.refused_output_rates = set(refused_output_rates)
        self.unplugged: set[str] = set()  # names that are not listed and cannot be opened
        self.stalled = False  # streams open but stop delivering audio
        self.fail_streams = False  # open streams end with an error (finished_callback), as on unplug
        self.signal = lambda n: np.full(n, 0.1, dtype=np.float32)
        self.opened: list[FakeInputStream] = []
        self.open_attempts: list[float] = []
        self.queries: list[float] = []  # when the device list was read (each reopen attempt reads it)
        self.written: list[np.ndarray] = []
        self.late_callbacks = 0  # the next output callbacks that come too late (PortAudio flags an underflow)
        self.delivered: list[float] = []  # when each input block was handed to a callback
        self.stopped_on: list[str] = []  # the threads input streams were stopped on
        self.lock = threading.Lock()

    def devices(self) -> list[dict]:
        return [d for d in self.inputs + self.outputs if d["name"] not in self.unplugged]

    def module(self) -> types.ModuleType:
        hw = self
        sd = types.ModuleType("sounddevice")

        class PortAudioError(Exception):
            pass

        sd.PortAudioError = PortAudioError
        sd.default = types.SimpleNamespace(device=[0, len(hw.inputs)])
        def query_devices():
            hw.queries.append(time.monotonic())
            return [dict(d) for d in hw.devices()]

        sd.query_devices = query_devices

        def check_output_settings(device=None, samplerate=None, channels=None, dtype=None):
            if samplerate in hw.refused_output_rates:
                raise PortAudioError(f"Invalid sample rate [PaErrorCode -9997]: {samplerate}")

        sd.check_output_settings = check_output_settings
        sd.InputStream = lambda **kw: FakeInputStream(hw, PortAudioError, **kw)
        sd.OutputStream = lambda **kw: FakeOutputStream(hw, **kw)
        return sd


class FakeInputStream:
    def __init__(self, hw: FakeHardware, error, device, channels, samplerate, dtype, blocksize, callback,
                 finished_callback=None) -> None:
        hw.open_attempts.append(time.monotonic())
        listed = hw.devices()
        if device >= len(listed) or listed[device]["max_input_channels"] == 0:
            raise error("Error opening InputStream: Device unavailable [PaErrorCode -9985]")
        self.hw, self.name, self.rate, self.blocksize = hw, listed[device]["name"], samplerate, blocksize
        self.callback, self.finished_callback = callback, finished_callback
        self.running = False
        self.closed = False
        self.blocks = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.running = True
        with self.hw.lock:
            self.hw.opened.append(self)
        self._thread.start()

    def _run(self) -> None:
        while self.running:
            time.sleep(BLOCK_PAUSE)
            if self.name in self.hw.unplugged or self.hw.fail_streams:
                if self.hw.fail_streams:  # PortAudio ends the stream with an error
                    self.running = False
                    if self.finished_callback:
                        self.finished_callback()
                    return
                continue  # unplugged without a word: the callbacks just stop
            if self.hw.stalled:
                continue
            block = self.hw.signal(self.blocksize).reshape(-1, 1)
            self.hw.delivered.append(time.monotonic())
            self.callback(block, self.blocksize, None, None)
            self.blocks += 1

    def stop(self) -> None:
        self.hw.stopped_on.append(threading.current_thread().name)
        was = self.running
        self.running = False
        if was and self.finished_callback:
            self.finished_callback()

    abort = stop

    def close(self) -> None:
        self.running = False
        self.closed = True


class FakeOutputStream:
    """A device that asks its callback for 10 ms at a time, at real speed, as PortAudio does."""

    def __init__(self, hw: FakeHardware, device, channels, samplerate, dtype, callback, latency=None) -> None:
        if samplerate in hw.refused_output_rates:
            raise RuntimeError(f"Error opening OutputStream: Invalid sample rate {samplerate}")
        self.hw, self.rate, self.callback = hw, samplerate, callback
        self._running = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        frames = self.rate // 100
        while self._running.is_set():
            out = np.zeros((frames, 1), dtype=np.float32)
            now = time.monotonic()
            with self.hw.lock:
                late, self.hw.late_callbacks = self.hw.late_callbacks > 0, max(0, self.hw.late_callbacks - 1)
            status = types.SimpleNamespace(output_underflow=True) if late else None  # CallbackFlags: false if none
            self.callback(out, frames, types.SimpleNamespace(currentTime=now, outputBufferDacTime=now + 0.02), status)
            self.hw.written.append(out.reshape(-1).copy())
            time.sleep(0.01)

    def start(self) -> None:
        self._running.set()
        self._thread.start()

    def stop(self) -> None:
        self._running.clear()
        self._thread.join(1)

    def close(self) -> None:
        pass


@pytest.fixture
def hardware(monkeypatch):
    def install(**kw) -> FakeHardware:
        hw = FakeHardware(**kw)
        monkeypatch.setitem(sys.modules, "sounddevice", hw.module())
        return hw

    return install


class Consumer:
    """Reads a MicSource's frames on a thread, as the turn loop would."""

    def __init__(self, mic: MicSource) -> None:
        self.mic, self.frames, self.error = mic, [], None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for frame in self.mic.frames():
                self.frames.append((time.monotonic(), frame))
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            self.error = exc

    def wait_for(self, condition, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            if self.error is not None:
                raise self.error
            time.sleep(0.01)
        raise AssertionError(f"timed out; frames={len(self.frames)} state={self.mic.state}")

    def ended(self, timeout: float) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def stop(self) -> None:
        self.mic.close()
        ended = self.ended(timeout=5)
        assert ended, "frames() did not end after close()"


def _statuses():
    seen: list[tuple[str, str]] = []
    return seen, lambda state, message: seen.append((state, message))


# -- the microphone ----------------------------------------------------------------------------

def test_a_stalled_microphone_is_reported_and_reopened_when_it_is_back(hardware, caplog):
    hw = hardware(inputs=(("USB Mic", 48_000),))
    seen, on_status = _statuses()
    mic = MicSource("USB", stall_seconds=0.3, retry_seconds=0.1, padding_seconds=0.5, on_status=on_status)
    caplog.set_level(logging.INFO, logger="audio.microphone")  # (the status handler is where it is said)
    reader = Consumer(mic)
    try:
        reader.wait_for(lambda: len(reader.frames) >= 20)
        hw.unplugged.add("USB Mic")  # the callbacks stop and the device leaves the list
        reader.wait_for(lambda: mic.state == "lost")
        lost_at = time.monotonic()
        before = len(reader.frames)
        time.sleep(0.45)  # about four reopen attempts while it is away
        assert mic.state == "lost" and len(hw.opened) == 1
        hw.unplugged.discard("USB Mic")
        reader.wait_for(lambda: ("back", "input device 'USB Mic' back") in seen)
        reader.wait_for(lambda: len(reader.frames) >= before + 20)
    finally:
        reader.stop()
    assert [s for s, _ in seen] == ["lost", "back"] and mic.losses == 1
    assert "lost" in seen[0][1] and "no audio for 0.3 s" in seen[0][1]
    messages = [r.getMessage() for r in caplog.records]
    assert any("input device 'USB Mic' lost" in m for m in messages)
    assert any("input device 'USB Mic' back" in m for m in messages)
    assert len(hw.opened) == 2 and hw.opened[0].closed, "the dead stream is closed and a new one opened"
    queries = [t for t in hw.queries if lost_at <= t <= lost_at + 0.45]
    retries = [t for i, t in enumerate(queries) if i == 0 or t - queries[i - 1] > 0.02]  # one attempt may list twice
    assert len(retries) >= 3, retries  # it kept trying while the device was away...
    gaps = np.diff(retries)
    assert gaps.min() >= 0.08, gaps  # ...about every retry_seconds, not in a busy loop
    # The padding: silence after the last audio, so an utterance cut off by the loss is endpointed.
    quiet = [f for _, f in reader.frames[before - 20:before + 20] if not f.samples.any()]
    assert len(quiet) >= int(0.5 * 16_000 / 512) - 1
    assert all(f.index == i for i, (_, f) in enumerate(reader.frames)), "frame numbers stay continuous"


def test_the_time_the_microphone_was_away_is_silence_on_the_input_timeline(hardware):
    """Hearth's echo reference maps the clock onto input positions. Before, an input that came back
    from a loss had fallen behind the clock by the time the device was away, and the reference put
    Hearth's voice that far from its echo: through speakers, it talked to itself after a replug."""
    hw = hardware(inputs=(("USB Mic", 48_000),))
    mic = MicSource("USB", stall_seconds=0.3, retry_seconds=0.1, padding_seconds=0.2)
    reader = Consumer(mic)
    try:
        reader.wait_for(lambda: len(reader.frames) >= 20)
        hw.unplugged.add("USB Mic")
        reader.wait_for(lambda: mic.state == "lost")
        time.sleep(0.6)
        before = len(hw.delivered)
        hw.unplugged.discard("USB Mic")
        reader.wait_for(lambda: len(hw.delivered) > before and len(reader.frames) >= 100)
    finally:
        reader.stop()
    block_seconds = 0.032
    away = hw.delivered[before] - block_seconds - hw.delivered[before - 1]  # no audio was captured then
    samples = np.concatenate([f.samples for _, f in reader.frames])
    loud = np.flatnonzero(np.abs(samples) > 0.05)
    gap = np.diff(loud).max() / 16_000  # the silence between the audio before the loss and after it
    assert away > 0.8
    assert away - 0.01 <= gap <= away + 0.1, (gap, away)


def test_a_stream_that_errors_mid_session_is_reopened(hardware):
    hw = hardware()
    seen, on_status = _statuses()
    mic = MicSource(None, stall_seconds=5.0, retry_seconds=0.05, on_status=on_status)
    reader = Consumer(mic)
    try:
        reader.wait_for(lambda: len(reader.frames) >= 10)
        hw.fail_streams = True
        reader.wait_for(lambda: mic.losses == 1, timeout=2.0)  # well before stall_seconds: the stream said so
        time.sleep(0.2)  # reopened streams fail too, for a while
        assert [s for s, _ in seen] == ["lost"] and len(hw.opened) >= 2
        hw.fail_streams = False
        reader.wait_for(lambda: [s for s, _ in seen] == ["lost", "back"])
        n = len(reader.frames)
        reader.wait_for(lambda: len(reader.frames) >= n + 10)
    finally:
        reader.stop()
    assert "the stream stopped" in seen[0][1]


def test_a_device_that_is_reopened_but_still_silent_is_reported_once(hardware):
    hw = hardware()
    seen, on_status = _statuses()
    mic = MicSource(None, stall_seconds=0.2, retry_seconds=0.05, on_status=on_status)
    reader = Consumer(mic)
    try:
        reader.wait_for(lambda: len(reader.frames) >= 10)
        hw.stalled = True  # opens fine, delivers nothing
        reader.wait_for(lambda: len(hw.opened) >= 3, timeout=5.0)
        assert [s for s, _ in seen] == ["lost"]
        hw.stalled = False
        reader.wait_for(lambda: [s for s, _ in seen] == ["lost", "back"])
    finally:
        reader.stop()
    assert all(s.closed for s in hw.opened[:-1])


def test_a_device_back_under_another_index_is_found_by_name(hardware):
    hw = hardware(inputs=(("Headset", 16_000), ("USB Mic", 44_100)))
    seen, on_status = _statuses()
    mic = MicSource("usb mic", stall_seconds=0.2, retry_seconds=0.05, on_status=on_status)
    assert mic.device_index == 1 and mic.rate == 44_100
    reader = Consumer(mic)
    try:
        reader.wait_for(lambda: len(reader.frames) >= 10)
        hw.unplugged.add("USB Mic")
        reader.wait_for(lambda: mic.state == "lost")
        hw.inputs.reverse()  # replugged: now the first input
        hw.unplugged.discard("USB Mic")
        reader.wait_for(lambda: [s for s, _ in seen] == ["lost", "back"])
    finally:
        reader.stop()
    assert mic.device_index == 0 and hw.opened[-1].name == "USB Mic"


def test_without_recovery_a_stall_is_the_one_line_error(hardware):
    hw = hardware()
    mic = MicSource(None, stall_seconds=0.2, recover=False)
    reader = Consumer(mic)
    reader.wait_for(lambda: len(reader.frames) >= 5)
    hw.stalled = True
    reader._thread.join(timeout=3)
    assert isinstance(reader.error, AudioInputError)
    assert "stopped delivering audio" in str(reader.error) and "\n" not in str(reader.error)
    mic.close()


def test_giving_up_after_a_while_is_the_one_line_error(hardware):
    hw = hardware()
    mic = MicSource(None, stall_seconds=0.2, retry_seconds=0.05, give_up_seconds=0.3)
    reader = Consumer(mic)
    reader.wait_for(lambda: len(reader.frames) >= 5)
    hw.unplugged.add("Built-in Mic")
    reader._thread.join(timeout=3)
    assert isinstance(reader.error, AudioInputError) and "did not come back within 0.3 s" in str(reader.error)
    mic.close()


def test_close_during_recovery_ends_the_frames(hardware):
    hw = hardware()
    mic = MicSource(None, stall_seconds=0.2, retry_seconds=0.5)
    reader = Consumer(mic)
    reader.wait_for(lambda: len(reader.frames) >= 5)
    hw.unplugged.add("Built-in Mic")
    reader.wait_for(lambda: mic.state == "lost")
    started = time.monotonic()
    reader.stop()
    assert time.monotonic() - started < 1.0 and reader.error is None


def test_stop_from_another_thread_ends_the_frames_and_the_reader_releases_the_device(hardware):
    """A model that fails to load stops the microphone from the loading thread; the stream is
    stopped by the thread that reads it, not by that one."""
    hw = hardware()
    mic = MicSource(None)
    reader = Consumer(mic)
    reader.wait_for(lambda: len(reader.frames) >= 5)
    stopper = threading.Thread(target=mic.stop, name="engine-loader")
    stopper.start()
    stopper.join()
    ended = reader.ended(timeout=2)
    assert ended and reader.error is None, "frames() did not end after stop()"
    assert hw.opened[0].closed and "engine-loader" not in hw.stopped_on, hw.stopped_on
    mic.close()


def test_an_utterance_cut_off_by_the_loss_still_reaches_its_endpoint(hardware, speech_dir):
    """Speech, then the device vanishes mid-sentence: the padding lets the listener close the turn."""
    from audio.endpointer import EndpointSettings, Signal
    from audio.listener import Listener
    from audio.sources import read_audio_file
    from audio.vad import SileroVad

    speech = read_audio_file(speech_dir / "asr/librivox-ss01-0930.wav")
    hw = hardware(inputs=(("Mic", 16_000),))
    position = {"at": 0}

    def signal(n: int) -> np.ndarray:  # one second of silence, then the clip, then the cable is pulled
        at = position["at"]
        position["at"] += n
        audio = np.concatenate([np.zeros(16_000, dtype=np.float32), speech[: int(len(speech) * 0.6)]])
        if at + n > len(audio):
            hw.unplugged.add("Mic")
            return np.zeros(n, dtype=np.float32)
        return audio[at:at + n]

    hw.signal = signal
    mic = MicSource(None, stall_seconds=0.3, retry_seconds=0.1, padding_seconds=1.0)
    vad = SileroVad()
    listener = Listener(vad.probability, EndpointSettings())
    signals = []
    result = {}

    def run():
        for heard in listener.hear(mic.frames()):
            signals.append(heard.step.signal)
            if heard.step.signal is Signal.ENDPOINT:
                result["utterance"] = heard.utterance
                return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=20)
    mic.close()
    assert mic.losses == 1
    assert "utterance" in result, signals[-5:]
    assert result["utterance"].seconds > 1.5 and not result["utterance"].cut


# -- the speakers ------------------------------------------------------------------------------

def test_an_output_device_that_refuses_the_voices_rate_gets_resampled_audio(hardware):
    from audio.sinks import SpeakerSink

    hw = hardware(outputs=(("HDMI", 22_050),), refused_output_rates=(22_050,))
    sink = SpeakerSink(None)
    assert sink.rate == 48_000  # the device's own 22050 refused; the next usual rate taken
    rate = 22_050  # the bundled Piper voice's rate
    t = np.arange(rate // 2) / rate
    tone = (0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    sink.start_reply(1)
    sink.play(tone, rate)
    sink.finish_reply()
    sink.close()
    out = np.trim_zeros(np.concatenate(hw.written))  # the device is fed silence around the reply
    assert abs(len(out) - len(tone) * 48_000 / rate) < 48_000 * 0.01  # half a second at 48 kHz
    spectrum = np.abs(np.fft.rfft(out))
    peak = np.argmax(spectrum) * 48_000 / len(out)
    assert abs(peak - 440) < 5, peak  # same pitch: resampled, not just relabelled


def test_the_speaker_running_dry_is_counted(hardware):
    from audio.sinks import SpeakerSink

    hw = hardware()
    sink = SpeakerSink(None)
    with hw.lock:
        hw.late_callbacks = 3
    deadline = time.monotonic() + 5
    while hw.late_callbacks and time.monotonic() < deadline:
        time.sleep(0.01)
    sink.close()
    assert sink.underruns == 3


def test_an_output_device_that_accepts_no_usual_rate_is_a_clear_error(hardware):
    from audio.sinks import SpeakerSink

    hardware(outputs=(("Odd DAC", 96_000),), refused_output_rates=(96_000, 48_000, 44_100, 22_050, 16_000))
    with pytest.raises(AudioInputError, match="accepts none of the usual sample rates"):
        SpeakerSink(None)


# -- no devices at all -------------------------------------------------------------------------

def test_no_devices_at_all_is_a_clear_error(hardware, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTH_CONFIG", str(tmp_path / "absent.toml"))
    hardware(inputs=(), outputs=())
    with pytest.raises(AudioInputError, match="no audio input device found"):
        MicSource(None)
    code = main(["live", "--no-tui", "--data-dir", str(tmp_path / "data")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.startswith("hearth: error: no audio input device found") and "\n" not in err


def test_an_unknown_input_device_name_is_one_line(hardware, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTH_CONFIG", str(tmp_path / "absent.toml"))
    hardware()
    code = main(["live", "--no-tui", "--input-device", "nonexistent", "--data-dir", str(tmp_path / "data")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert err == "hearth: error: unknown input device 'nonexistent'; 'hearth devices' lists them"
    assert not (tmp_path / "data").exists(), "nothing is created before the devices are checked"
