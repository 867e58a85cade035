"""The assistant behind the TUI: loads the engines and runs the turn loop on its own thread.

Everything it has to say (engine progress, the loop's events, the end) goes to one `post` callable
that must not block; the app passes a thread-safe queue's append. The frames pass through the
gate (mute, push-to-talk, stop) and the level meter before the loop sees them.
"""

from __future__ import annotations

import functools
import itertools
import tempfile
import threading
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from assistant import events as ev
from assistant.clock import MonotonicClock
from assistant.config import Config
from audio import FRAME_SECONDS
from audio.sources import FileSource, Frame, on_first_frame

from .gate import FrameGate, LevelMeter
from .state import EngineProgress, InputStatus, SessionEnded, SessionStarted

MODES = ("live", "replay", "demo")

Post = Callable[[object], None]


def renumber(frames: Iterable[Frame]) -> Iterator[Frame]:
    """Frames of several inputs as one stream: indexes and media times continue across files."""
    for n, frame in enumerate(frames):
        yield Frame(frame.samples, n, (n + 1) * FRAME_SECONDS)


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _paced_wav_sink(folder: Path):
    """A wav sink that plays replies out at real speed where the sink can (so "talking" lasts as long
    as the reply would be heard, and barge-in works as with speakers)."""
    from audio.sinks import WavSink

    try:
        return WavSink(folder, realtime=True)
    except TypeError:  # a WavSink without pacing
        return WavSink(folder)


class Session:
    """One run of the assistant in a mode: "live" (microphone and speakers), "replay" (files paced in
    real time, replies written as wavs) or "demo" (the demo script synthesized, then replayed).

    `check()` opens what can fail fast (devices, files, output folder) before any model loads, so a
    wrong path is one clear error before the window opens. `start(post)` runs the rest on a thread.
    """

    def __init__(self, config: Config, mode: str, files: Sequence[Path] = (), out: Path | None = None,
                 make_memory: Callable[[object], object] | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if mode == "replay" and not files:
            raise ValueError("replay needs at least one file")
        self.config, self.mode, self.files = config, mode, [Path(f) for f in files]
        self.out = Path(out) if out else None
        self.make_memory = make_memory  # engines -> (SpeakerRouting, MemoryStore | None)
        self.routing = None  # whose memory each turn uses, once the engines are loaded
        self.store = None  # the memory store, then (the memory browser reads it)
        self.gate = FrameGate()
        self.meter = LevelMeter()
        self.error: BaseException | None = None
        self.engines = None
        self._mic = self._speaker = None
        self._thread: threading.Thread | None = None
        self._post: Post | None = None  # the window's, once start() is called

    # -- before the window opens ------------------------------------------------------------------

    def check(self) -> None:
        if self.mode == "live":
            from audio.sinks import SpeakerSink
            from audio.microphone import MicSource

            # lost/back reach the window through the same queue as everything else (see start())
            self._mic = MicSource(self.config.input_device or None,
                                  on_status=lambda state, message: self._post_status(state, message))
            self._speaker = SpeakerSink(self.config.output_device or None)
        elif self.mode == "replay":
            for path in self.files:
                FileSource(path)  # raises AudioInputError with a one-line message
        if self.mode != "live":
            if self.out is None:
                self.out = (self.config.cache_path / "demo" if self.mode == "demo"
                            else Path(tempfile.mkdtemp(prefix="hearth-replay-")))
            from audio.sinks import WavSink

            WavSink(self.out)  # checks the folder is writable

    @property
    def input_name(self) -> str:
        if self.mode == "live":
            return self._mic.name if self._mic else "microphone"
        if self.mode == "demo":
            return "demo script"
        return ", ".join(p.name for p in self.files)

    # -- on the session thread --------------------------------------------------------------------

    def _post_status(self, state: str, message: str) -> None:
        if self._post is not None:
            self._post(InputStatus(state, message))

    def start(self, post: Post) -> None:
        self._post = post
        self._thread = threading.Thread(target=self._run, args=(post,), name="hearth-session", daemon=True)
        self._thread.start()

    def _run(self, post: Post) -> None:
        try:
            from assistant.engines import load_engines

            # Live, the window listens once the VAD is loaded and the rest load meanwhile (as plain
            # mode does; assistant/engines.py); its model names follow once all are ready.
            live = self.mode == "live"
            self.engines = load_engines(self.config, lambda name, state, s: post(EngineProgress(name, state, s)),
                                        background=live, on_failure=self._load_failed)
            if self.gate.stopped:
                return
            frames, sink, note = self._open(post)
            log = None
            try:  # whatever fails from here (a model that failed to load, say), the devices are released
                bus = ev.EventBus()
                if self.out is not None:
                    from assistant.modes.replay import EventLog

                    log = EventLog(self.out / "events.jsonl")
                    bus.subscribe(log)
                bus.subscribe(post)
                if self.make_memory is not None:
                    self.routing, self.store = self.make_memory(self.engines)
                if live:  # listening once the microphone gives its first frame, not before
                    frames = on_first_frame(frames, functools.partial(self._listening, post, note))
                else:
                    post(SessionStarted(self.input_name, tuple(self.engines.describe().items()), note))
                from assistant.pipeline.loop import TurnLoop
                from assistant.pipeline.loop_types import LIVE_RECORDS

                loop = TurnLoop(self.engines, sink, bus, MonotonicClock(), self.config, routing=self.routing,
                                keep_records=LIVE_RECORDS)
                if callable(frames):  # a scripted person, who waits for each reply
                    frames = frames(loop)
                loop.run(self.meter.frames(self.gate.frames(frames)))
            finally:
                if log is not None:
                    log.close()
                sink.close()
                if self._mic is not None:
                    self._mic.close()
            if self.error is not None:  # a model failed to load while it listened
                raise self.error
            post(SessionEnded())
        except Exception as exc:  # shown on screen; run_tui raises it again once the window closes
            self.error = exc
            post(SessionEnded(error=one_line(exc)))

    def _load_failed(self, error: BaseException) -> None:
        """On the loader thread: the session ends, with the error shown and raised again after."""
        self.error = error
        if self._mic is not None:
            self._mic.stop()  # (the session thread, which reads it, releases it)

    def _listening(self, post: Post, note: str) -> None:
        post(SessionStarted(self.input_name, (), note))
        threading.Thread(target=self._started_with_models, args=(post, note), name="models-named",
                         daemon=True).start()

    def _started_with_models(self, post: Post, note: str) -> None:
        try:
            models = tuple(self.engines.describe().items())  # waits until every model is loaded
        except Exception:
            return  # a model failed: _load_failed ends the session
        post(SessionStarted(self.input_name, models, note))

    def _open(self, post: Post):
        if self.mode == "live":
            return self._mic.frames(), self._speaker, ""
        if self.mode == "demo":
            from assistant.modes.demo import SCRIPT, user_lines
            from assistant.modes.scripted import scripted_person

            post(EngineProgress("script", "loading"))
            lines = user_lines(self.engines.tts, SCRIPT)
            post(EngineProgress("script", "ready"))
            frames = lambda loop: scripted_person(lines, lambda: loop.busy, lambda: loop.talking)  # noqa: E731
            return frames, _paced_wav_sink(self.out), f"replies → {self.out}"
        frames = renumber(itertools.chain.from_iterable(FileSource(p, realtime=True).frames() for p in self.files))
        return frames, _paced_wav_sink(self.out), f"replies → {self.out}"

    # -- from the UI thread -----------------------------------------------------------------------

    def stop(self) -> None:
        self.gate.stop()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread to finish (the turn in progress completes); True when it has."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def close_devices(self) -> None:
        """Release devices opened by check() when the thread never ran."""
        if self._thread is None:
            for device in (self._mic, self._speaker):
                if device is not None:
                    device.close()
