"""The microphone as an audio source: sounddevice at the device's own rate, resampled to 16 kHz
mono and cut into the same 32 ms frames a recording gives (audio/sources.py), with a device that
stalls or vanishes reported and reopened."""

from __future__ import annotations

import logging
import queue
import time
from typing import Callable, Iterator

import numpy as np

from . import FRAME_SAMPLES, SAMPLE_RATE
from .convert import StreamResampler, to_mono
from .errors import AudioInputError
from .sources import Frame, first_line, framer

log = logging.getLogger(__name__)

# Silence given for the time a device was away errs long by this much: an input ahead of the clock
# is followed by the echo reference at once, one behind it only after seconds (audio/echo.py).
AWAY_MARGIN = FRAME_SAMPLES


class MicSource:
    """The microphone through sounddevice, at the device's own rate, resampled to 16 kHz mono.

    A device that stops delivering audio for `stall_seconds` (unplugged, suspended, a driver
    that hangs) or whose stream ends with an error is reported as lost: a warning is logged
    ("input device ... lost"), `on_status("lost", message)` is called, and `padding_seconds` of
    silence is yielded so that an utterance in progress reaches its endpoint and is answered.
    The stream is then reopened every `retry_seconds` (the device is looked up again by name, as
    a replugged device may come back under another index) until it delivers audio again:
    "input device ... back" and `on_status("back", message)`. With recover=False, or once
    `give_up_seconds` have passed without the device, AudioInputError is raised instead.

    The time the device was away is silence on the input timeline, as if it had been there and
    quiet: Hearth's echo reference maps the clock onto input positions (audio/echo.py), and an input
    that fell behind the clock by those seconds placed what was played after its own echo.
    """

    def __init__(self, device: int | str | None = None, stall_seconds: float = 2.0, retry_seconds: float = 1.0,
                 recover: bool = True, give_up_seconds: float | None = None, padding_seconds: float = 1.0,
                 on_status: Callable[[str, str], None] | None = None) -> None:
        from .devices import input_device, load_sounddevice

        self._sd = load_sounddevice()
        self._wanted = device
        self.device_index, info = input_device(self._sd, device)
        self.name = str(info["name"])
        self.rate = int(info["default_samplerate"])
        self.stall_seconds = stall_seconds
        self.retry_seconds = retry_seconds
        self.recover = recover
        self.give_up_seconds = give_up_seconds
        self.padding_seconds = padding_seconds
        self.on_status = on_status
        self.state = "closed"  # "open" | "lost" | "closed"
        self.losses = 0  # how many times the device was lost in this session
        self._queue: queue.Queue[tuple[int, np.ndarray | None]] = queue.Queue()
        self._generation = 0  # blocks from a stream that was given up on are ignored
        self._stream = None
        self._closed = False
        self._last_audio = time.monotonic()

    # -- PortAudio's thread --------------------------------------------------------------------
    def _callback_for(self, generation: int):
        def callback(indata, frames, time_info, status) -> None:
            self._queue.put((generation, indata.copy()))

        return callback

    def _finished_for(self, generation: int):
        def finished() -> None:  # the stream ended: stopped by us, or by an error
            self._queue.put((generation, None))

        return finished

    # -- opening and reopening -----------------------------------------------------------------
    def _open(self) -> None:
        """Open and start a stream on the device; raises AudioInputError with one line."""
        self._generation += 1
        stream = None
        try:
            stream = self._sd.InputStream(
                device=self.device_index, channels=1, samplerate=self.rate, dtype="float32",
                blocksize=int(self.rate * 0.032), callback=self._callback_for(self._generation),
                finished_callback=self._finished_for(self._generation),
            )
            stream.start()
        except Exception as exc:
            if stream is not None:
                self._discard(stream)
            raise AudioInputError(f"cannot open input device {self.name!r}: {first_line(exc)}") from None
        self._stream = stream
        self.state = "open"

    @staticmethod
    def _discard(stream) -> None:
        """Close a stream that may already be dead; a dead device must not stop the recovery."""
        for step in ("abort", "close"):
            try:
                getattr(stream, step)()
            except Exception:
                pass

    def _drop_stream(self) -> None:
        self._generation += 1  # anything the old stream still delivers is stale
        stream, self._stream = self._stream, None
        if stream is not None:
            self._discard(stream)

    def _rescan(self) -> None:
        """Find our device again, by name first: a replugged device may come back under another index.

        PortAudio itself is not re-initialised (that would also stop the speaker's stream), so a
        device that vanished from PortAudio's list is found again only if PortAudio lists it."""
        from .devices import input_device

        for wanted in (self.name, self._wanted):
            try:
                self.device_index, info = input_device(self._sd, wanted)
            except AudioInputError:
                continue
            except Exception as exc:  # the host API itself failing while the device is away
                raise AudioInputError(f"cannot list input devices: {first_line(exc)}") from None
            self.rate = int(info["default_samplerate"])
            return
        raise AudioInputError(f"input device {self.name!r} is not connected")

    def _report(self, state: str, message: str) -> None:
        # with a status handler, that is where the person reads it: said once, not twice
        log.log(logging.INFO if self.on_status is not None else logging.WARNING, "%s", message)
        if self.on_status is not None:
            try:
                self.on_status(state, message)
            except Exception:
                log.exception("the input device status handler failed")

    def _lost(self, why: str) -> None:
        self._drop_stream()
        self.state = "lost"
        self.losses += 1
        message = f"input device {self.name!r} lost ({why})"
        if not self.recover:
            raise AudioInputError(f"input device {self.name!r} stopped delivering audio (unplugged or stalled)")
        self._report("lost", f"{message}; retrying every {self.retry_seconds:g} s")

    def _reopen(self) -> bool:
        """Retry until the device is back (True) or the source is closed (False)."""
        since = time.monotonic()
        while not self._closed:
            try:
                self._rescan()
                self._open()
                return True
            except AudioInputError as exc:
                last = str(exc)
            if self.give_up_seconds is not None and time.monotonic() - since >= self.give_up_seconds:
                raise AudioInputError(f"input device {self.name!r} did not come back within "
                                      f"{self.give_up_seconds:g} s ({last})")
            deadline = time.monotonic() + self.retry_seconds
            while not self._closed and time.monotonic() < deadline:
                time.sleep(min(0.05, self.retry_seconds))
        return False

    # -- the stream of audio ---------------------------------------------------------------------
    def _chunks(self) -> Iterator[np.ndarray]:
        if self._closed:  # stopped before it began
            return
        self._open()  # a device that cannot be opened at start is an error, not a wait
        resampler = StreamResampler(self.rate, SAMPLE_RATE)
        recovering = False  # reopened after a loss, and no audio yet
        last_block_at = time.monotonic()  # when the last block came: the audio before a loss ended then
        padded = 0  # samples of silence given for a loss so far (the padding)
        while not self._closed:
            try:
                generation, block = self._queue.get(timeout=min(self.stall_seconds, 0.25))
            except queue.Empty:
                if self._closed or time.monotonic() - self._last_audio < self.stall_seconds:
                    continue
                why = f"no audio for {self.stall_seconds:g} s"
            else:
                if generation != self._generation:
                    continue  # from a stream we already gave up on
                if block is not None:
                    self._last_audio = now = time.monotonic()
                    if recovering:
                        recovering = False
                        self._report("back", f"input device {self.name!r} back")
                        away = now - len(block) / self.rate - last_block_at
                        missing = int(away * SAMPLE_RATE) + AWAY_MARGIN - padded
                        if missing > 0:
                            yield np.zeros(missing, dtype=np.float32)
                    last_block_at = now
                    yield resampler.process(to_mono(block))
                    continue
                if self._closed:
                    break
                why = "the stream stopped"  # ended by itself: an error or an unplugged device
            if recovering:  # reopened, but still nothing: keep trying, without reporting it again
                self._drop_stream()
            else:
                tail = resampler.process(np.zeros(0, dtype=np.float32), last=True)
                self._lost(why)  # raises when not recovering
                if len(tail):
                    yield tail
                padded = int(self.padding_seconds * SAMPLE_RATE)
                if padded > 0:  # an utterance cut off by the loss still reaches its endpoint
                    yield np.zeros(padded, dtype=np.float32)
            if not self._reopen():
                break
            recovering = True
            resampler = StreamResampler(self.rate, SAMPLE_RATE)
            self._last_audio = time.monotonic()

    def frames(self) -> Iterator[Frame]:
        self._last_audio = time.monotonic()
        try:
            yield from framer(self._chunks())
        finally:  # ended, stopped or given up: the device is released by the thread that read it
            self._drop_stream()

    def stop(self) -> None:
        """From any thread: `frames()` ends within a quarter of a second and releases the device
        on the thread that reads it. (`close()` from another thread while a stream ran raced
        PortAudio's own shutdown: a failed model load then hung Hearth's exit, 3 runs in 20.)"""
        self._closed = True

    def close(self) -> None:
        self._closed = True
        self.state = "closed"
        self._drop_stream()
