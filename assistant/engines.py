"""Loading every engine the loop needs from the configuration, reporting progress as each loads.

Live mode listens as soon as voice activity can be judged: `load_engines(background=True)` loads
the VAD, then hands back engines of which the rest are still `Loading` on one background thread,
in the order a first utterance needs them. Using one waits until it is ready, so the first
utterance waits only for what it needs, and only as long as it must.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Generic, TypeVar

from audio.vad import SileroVad
from models import ModelError, bundled
from models.asr import WhisperTranscriber
from models.gate import LlmGate
from models.llm import ChatModel
from models.llm_local import LlamaCppChat
from models.llm_server import OpenAICompatChat
from models.tts import PiperSynthesizer

from assistant.config import Config

Progress = Callable[[str, str, float], None]  # (engine, "loading" | "ready", seconds)
T = TypeVar("T")


class Loading(Generic[T]):
    """An engine the background loader has not finished: it stands in for the engine, and any use
    of it (`loading.transcribe(...)`) waits until the engine is ready. A load that failed raises
    its error wherever the engine is used."""

    def __init__(self, label: str) -> None:
        self._label = label  # (not `name`: that is the engine's own, read through to it)
        self._ready = threading.Event()
        self._engine: T | None = None
        self._error: BaseException | None = None

    def _done(self, engine: T | None = None, error: BaseException | None = None) -> None:
        self._engine, self._error = engine, error
        self._ready.set()

    def engine(self) -> T:
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self._engine

    def __getattr__(self, attr: str):
        if attr.startswith("__") or attr in ("_label", "_ready", "_engine", "_error"):
            raise AttributeError(attr)  # (probes such as copy's, and a half-built object, never wait)
        return getattr(self.engine(), attr)

    def __repr__(self) -> str:
        return f"<{self._label}: {'ready' if self._ready.is_set() else 'loading'}>"


@dataclass
class Engines:
    """What the loop runs on. All but the VAD may be `Loading` stand-ins for a while (live mode)."""

    vad: SileroVad
    asr: WhisperTranscriber
    llm: ChatModel
    tts: PiperSynthesizer
    embedder: object | None = None  # models.embedder.TextEmbedder, for memory
    voice: object | None = None  # audio.voiceprint.VoiceEncoder, to tell speakers apart
    llm_gate: LlmGate = field(default_factory=LlmGate)  # replies first, memory rewrites in between
    turn_end: object | None = None  # models.turn_end.TurnEndModel: whether a turn sounds finished

    def describe(self) -> dict[str, str]:
        """Each engine's name; while some are still `Loading`, this waits until all are ready."""
        names = {"asr": self.asr.name, "llm": self.llm.name, "tts": self.tts.name, "vad": "silero-vad"}
        if self.embedder is not None:
            names["embedder"] = self.embedder.name
        if self.voice is not None:
            names["voice"] = self.voice.name
        if self.turn_end is not None:
            names["turn_end"] = self.turn_end.name
        return names


def load_llm(config: Config) -> ChatModel:
    if config.llm_endpoint:
        return OpenAICompatChat(config.llm_endpoint, config.llm_endpoint_model, config.llm_api_key,
                                timeout=config.llm_endpoint_timeout_s)
    path = Path(config.llm_model).expanduser() if config.llm_model else bundled.bundled_llm(config.cache_path)
    return LlamaCppChat(path, context=config.llm_context, threads=config.threads,
                        repeatable=config.repeatable_replies)


def load_vad(config: Config) -> SileroVad:
    return SileroVad(config.vad_threshold)


def load_asr(config: Config) -> WhisperTranscriber:
    if config.asr_model:
        return WhisperTranscriber(Path(config.asr_model).expanduser(), threads=config.threads)
    return WhisperTranscriber(bundled.whisper_dir(), threads=config.threads, name="whisper-tiny.en")


def load_turn_end(config: Config):
    from models.turn_end import TurnEndModel

    return TurnEndModel(bundled.turn_end_model())


def load_engines(config: Config, progress: Progress | None = None, background: bool = False,
                 on_failure: Callable[[BaseException], None] | None = None) -> Engines:
    """Every engine, loaded now; or, with `background`, the VAD now and the rest `Loading` on a
    background thread, which calls `on_failure(error)` if one cannot be loaded (the ones after it
    are not loaded then: each raises that error where it is used)."""
    report = progress or (lambda *_: None)

    def timed(name: str, make):
        report(name, "loading", 0.0)
        start = time.monotonic()
        engine = make()
        report(name, "ready", time.monotonic() - start)
        return engine

    vad = timed("vad", lambda: load_vad(config))
    # in the order a first utterance needs them: its endpoint, its words (partials while it is
    # said), the reply, its voice; then what is known of people, and who is speaking
    makers: list[tuple[str, Callable[[], object]]] = []
    if config.turn_end_model:
        makers.append(("turn_end", lambda: load_turn_end(config)))
    makers += [("asr", lambda: load_asr(config)), ("llm", lambda: load_llm(config)),
               ("tts", lambda: load_tts(config))]
    if config.memory:
        makers += [("embedder", lambda: load_embedder(config)), ("voice", load_voice)]
    if not background:
        return Engines(vad=vad, **{name: timed(name, make) for name, make in makers})

    loading = {name: Loading(name) for name, _ in makers}

    def load_the_rest() -> None:
        for n, (name, make) in enumerate(makers):
            try:
                loading[name]._done(timed(name, make))
            except BaseException as exc:
                for later, _ in makers[n:]:
                    loading[later]._done(error=exc)
                if on_failure is not None:
                    on_failure(exc)
                return

    threading.Thread(target=load_the_rest, name="engine-loader", daemon=True).start()
    return Engines(vad=vad, **loading)


def load_tts(config: Config) -> PiperSynthesizer:
    if config.tts_voice:
        return PiperSynthesizer(Path(config.tts_voice).expanduser(), threads=config.threads)
    return PiperSynthesizer(*bundled.piper_voice(), threads=config.threads)


def load_embedder(config: Config):
    from models.embedder import TextEmbedder

    return TextEmbedder(threads=config.threads, cache_dir=config.cache_path)


def load_voice():
    from audio.voiceprint import VoiceEncoder

    encoder = VoiceEncoder()
    encoder.warm_up()  # the first embedding costs seconds: pay it now, not on the first turn
    return encoder


__all__ = ["Engines", "Loading", "load_asr", "load_engines", "load_llm", "load_turn_end", "load_vad", "ModelError"]
