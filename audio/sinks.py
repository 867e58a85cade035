"""Audio sinks: the speakers, or a wav file per reply. The loop sees only the AudioSink interface.

Each slice is told, as it starts to play, to the sink's echo_reference if one is set (the loop
sets it: audio/echo.py), so Hearth's own voice can be taken out of the microphone.

The speakers play from the device's callback (DevicePlayer), silence between replies; a wav file
is written through a PacedPlayer, which hands audio out in short slices at real speed. Either way
a reply can be stopped mid-sentence (barge-in) and the sink knows how much was actually heard.
A wav sink can also take audio as fast as it comes (realtime=False), for fast replays.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Protocol

import numpy as np

from .convert import StreamResampler
from .players import DevicePlayer, PacedPlayer
from .errors import AudioInputError


class AudioSink(Protocol):
    underruns: int  # times the device ran dry since the sink opened (its callback came late; a file never does)

    def start_reply(self, turn_id: int) -> None: ...

    def play(self, samples: np.ndarray, rate: int) -> None:
        """Queue float32 mono samples; returns without waiting for them to be heard."""

    def finish_reply(self) -> None:
        """No more audio for this reply; returns once it has all been played."""

    def stop(self) -> float:
        """Stop now and drop what is queued (barge-in); returns the seconds of the reply that were heard."""

    def pause(self, on: bool) -> None:
        """Hold the reply where it is, silent (on: speech over it may be a person), or play on."""

    @property
    def playing(self) -> bool: ...

    def close(self) -> None: ...


RESTART_SECONDS = 0.05  # a slice this late after the last one ended follows a pause in playback


class WavSink:
    """Writes each reply to DIR/<prefix>reply-<turn>.wav at the voice's own rate.

    realtime=True plays it out at real speed, as a speaker would (for real-time replays with
    barge-in); otherwise each chunk is taken at once.
    """

    def __init__(self, folder: Path | str, prefix: str = "", realtime: bool = False) -> None:
        self.folder = Path(folder)
        self.prefix = prefix
        self.realtime = realtime
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            probe = self.folder / ".hearth-write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise AudioInputError(f"cannot write to output folder {self.folder}: {exc.strerror or exc}") from None
        self.written: list[Path] = []
        self._parts: list[np.ndarray] = []
        self._rate = 0
        self._turn = 0
        self._player: PacedPlayer | None = None
        self._lock = threading.Lock()
        self._stopped = False  # the reply was cut off: a slice still playing is not part of it
        self.echo_reference = None  # audio.echo.EchoReference: told each slice as it starts to play
        self._due: float | None = None  # when the slice playing now ends
        self.underruns = 0  # a file never runs dry

    def _heard(self, block: np.ndarray) -> None:  # runs on the playback thread
        # Paced against the clock, as a sound device plays at its sample rate: each slice starts
        # where the last one ended unless playback had paused. (Sleeping each slice's length let
        # every wake-up's lateness add up, 100 ms within a second or two under load; the echo
        # reference then re-placed the reply mid-sentence behind its own echo, and the canceller
        # let the echo through as a person.)
        now = time.monotonic()
        if self._due is None or now > self._due + RESTART_SECONDS:
            self._due = now  # nothing was queued: playback starts again now
        start, self._due = self._due, self._due + len(block) / self._rate
        self._playing(block, start)
        time.sleep(max(0.0, self._due - time.monotonic()))
        with self._lock:
            if not self._stopped:
                self._parts.append(block)

    def _playing(self, block: np.ndarray, start: float) -> None:
        """A slice starts to play at `start` (time.monotonic())."""
        reference = self.echo_reference
        if reference is not None:
            reference.played(block, self._rate, latency=start - time.monotonic())

    def start_reply(self, turn_id: int) -> None:
        with self._lock:
            self._parts, self._turn, self._stopped = [], turn_id, False
        if self._player:
            self._player.new_reply()

    def play(self, samples: np.ndarray, rate: int) -> None:
        samples = np.asarray(samples, dtype=np.float32)
        if self._rate and rate != self._rate:
            raise ValueError(f"reply audio changed rate from {self._rate} to {rate}")
        self._rate = rate
        if not self.realtime:
            self._parts.append(samples)
            return
        if self._player is None:
            self._player = PacedPlayer(rate, self._heard)
        self._player.put(samples)

    def finish_reply(self) -> None:
        if self._player:
            self._player.wait()
        self._write_file()

    def stop(self) -> float:
        # The slice playing at this moment ends after the file is written; were it kept, the reply's
        # own finish_reply (waiting for playback) would write it over the file as the whole reply.
        with self._lock:
            self._stopped = True
        heard = self._player.stop() if self._player else sum(map(len, self._parts)) / max(self._rate, 1)
        self._write_file()
        return heard

    def _write_file(self) -> None:
        import soundfile as sf

        with self._lock:
            parts, self._parts = self._parts, []
        if not parts:
            return
        path = self.folder / f"{self.prefix}reply-{self._turn:03d}.wav"
        sf.write(str(path), np.concatenate(parts), self._rate, subtype="PCM_16")
        if path not in self.written:
            self.written.append(path)

    def pause(self, on: bool) -> None:
        if self._player:
            self._player.pause(on)

    @property
    def playing(self) -> bool:
        return bool(self._player and self._player.playing)

    def close(self) -> None:
        if self._player:
            self._player.wait(timeout=60)
            self._player.close()
        self._write_file()


# The speakers' buffer. It never runs dry: the device is fed silence between replies, so its clock
# runs on unbroken and the echo of each reply arrives where the reference placed it. (Written to
# only while a reply played, through a 35 ms buffer, the device ran dry between replies and after
# stalls and restarted differently each time: each reply's echo arrived 10-50 ms from where the
# last one's had, and the canceller spent the reply's first second finding it again.)
OUTPUT_LATENCY = 0.05


class SpeakerSink:
    """Plays replies on an output device, resampled to a rate the device accepts."""

    def __init__(self, device: int | str | None = None) -> None:
        from .devices import load_sounddevice, output_device

        self._sd = load_sounddevice()
        self.device_index, info = output_device(self._sd, device)
        self.name = str(info["name"])
        self.rate = self._accepted_rate(int(info["default_samplerate"]))
        self._resampler: StreamResampler | None = None
        self._voice_rate = 0
        self.echo_reference = None  # audio.echo.EchoReference: told each slice as it starts to play
        self.underruns = 0  # PortAudio's output underflows (ALSA's "underrun occurred"), counted, not printed
        self._player = DevicePlayer(self.rate, self._heard)
        try:
            self._stream = self._sd.OutputStream(device=self.device_index, channels=1, samplerate=self.rate,
                                                 dtype="float32", callback=self._callback, latency=OUTPUT_LATENCY)
            self._stream.start()
        except Exception as exc:
            raise AudioInputError(f"cannot open output device {self.name!r}: {str(exc).splitlines()[0]}") from None

    def _callback(self, outdata, frames, time_info, status) -> None:  # on the device's thread
        if status and status.output_underflow:  # the speaker starved: a gap the person heard
            self.underruns += 1
        self._player.fill(outdata[:, 0], max(0.0, time_info.outputBufferDacTime - time_info.currentTime))

    def _heard(self, block: np.ndarray, dac_delay: float) -> None:
        reference = self.echo_reference
        if reference is not None:
            reference.played_continuously(block, self.rate, latency=dac_delay)

    def _accepted_rate(self, default: int) -> int:
        for rate in (default, 48_000, 44_100, 22_050, 16_000):
            try:
                self._sd.check_output_settings(device=self.device_index, samplerate=rate, channels=1, dtype="float32")
                return rate
            except Exception:
                continue
        raise AudioInputError(f"output device {self.name!r} accepts none of the usual sample rates")

    def start_reply(self, turn_id: int) -> None:
        self._resampler = None
        self._player.new_reply()

    def play(self, samples: np.ndarray, rate: int) -> None:
        if self._resampler is None or rate != self._voice_rate:
            self._resampler, self._voice_rate = StreamResampler(rate, self.rate), rate
        self._player.put(self._resampler.process(samples))

    def finish_reply(self) -> None:
        if self._resampler is not None:
            self._player.put(self._resampler.process(np.zeros(0, dtype=np.float32), last=True))
        self._player.wait()

    def stop(self) -> float:
        return self._player.stop()

    def pause(self, on: bool) -> None:
        self._player.pause(on)

    @property
    def playing(self) -> bool:
        return self._player.playing

    def close(self) -> None:
        self._player.stop()
        self._stream.stop()
        self._stream.close()
        # soxr's resamplers freed now, not at interpreter exit, where nanobind (soxr's binding)
        # printed "leaked 2 instances" under the closed window: this one and the echo reference's
        self._resampler = None
        self.echo_reference = None
