"""Loading every engine the loop needs from the configuration, reporting progress as each loads."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

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


@dataclass
class Engines:
    vad: SileroVad
    asr: WhisperTranscriber
    llm: ChatModel
    tts: PiperSynthesizer
    embedder: object | None = None  # models.embedder.TextEmbedder, for memory
    voice: object | None = None  # audio.voiceprint.VoiceEncoder, to tell speakers apart
    llm_gate: LlmGate = field(default_factory=LlmGate)  # replies first, memory rewrites in between
    turn_end: object | None = None  # models.turn_end.TurnEndModel: whether a turn sounds finished

    def describe(self) -> dict[str, str]:
        names = {"asr": self.asr.name, "llm": self.llm.name, "tts": self.tts.name, "vad": "silero-vad"}
        if self.embedder is not None:
            names["embedder"] = self.embedder.name
        if self.voice is not None:
            names["voice"] = "resemblyzer"
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


def load_engines(config: Config, progress: Progress | None = None) -> Engines:
    report = progress or (lambda *_: None)

    def timed(name: str, make):
        report(name, "loading", 0.0)
        start = time.monotonic()
        engine = make()
        report(name, "ready", time.monotonic() - start)
        return engine

    vad = timed("vad", lambda: load_vad(config))
    turn_end = timed("turn_end", lambda: load_turn_end(config)) if config.turn_end_model else None
    asr = timed("asr", lambda: load_asr(config))
    llm = timed("llm", lambda: load_llm(config))
    if config.tts_voice:
        voice = Path(config.tts_voice).expanduser()
        tts = timed("tts", lambda: PiperSynthesizer(voice, threads=config.threads))
    else:
        tts = timed("tts", lambda: PiperSynthesizer(*bundled.piper_voice(), threads=config.threads))
    embedder = None
    if config.memory:
        from models.embedder import TextEmbedder

        embedder = timed("embedder", lambda: TextEmbedder(threads=config.threads))
    voice = None
    if config.memory:
        from audio.voiceprint import VoiceEncoder

        def warm_voice():
            encoder = VoiceEncoder()
            encoder.warm_up()  # the first embedding costs seconds: pay it now, not on the first turn
            return encoder

        voice = timed("voice", warm_voice)
    return Engines(vad=vad, asr=asr, llm=llm, tts=tts, embedder=embedder, voice=voice, turn_end=turn_end)


__all__ = ["Engines", "load_asr", "load_engines", "load_llm", "load_turn_end", "load_vad", "ModelError"]
