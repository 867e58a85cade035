"""Speech synthesis: a Piper voice (the bundled en_US-joe-medium by default)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import numpy as np

from . import ModelError


# onnxruntime's memory arena grows to fit the longest input it has voiced and never shrinks (in
# doubling steps: one was 256 MB); resident memory after one sentence of 20 words was 247 MB, of 40
# 359 MB, of 80 587 MB. A longer run of words is voiced in pieces, cut after a comma if it can be.
MAX_PIECE_WORDS = 20


def voice_pieces(text: str, max_words: int = MAX_PIECE_WORDS) -> list[str]:
    """text cut into pieces of at most max_words words, each after the last word in its second half
    that ends a clause or sentence (, ; : . ! ?), else after max_words words."""
    words, pieces = text.split(), []
    while len(words) > max_words:
        ends = [i for i in range(max_words // 2, max_words) if words[i - 1][-1] in ",;:.!?"]
        cut = ends[-1] if ends else max_words
        pieces.append(" ".join(words[:cut]))
        words = words[cut:]
    if words:
        pieces.append(" ".join(words))
    return pieces


def _session(model_path: Path, threads: int):
    """Piper's ONNX session with threads that sleep when idle, not spin: the reply is voiced between
    the language model's tokens, and a spinning thread left over from a clause slows the next token."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Memory patterns are planned per input shape, and every sentence is a new shape: over 120
    # varied sentences resident memory went 235 -> 354 MB with them and 234 -> 303 MB (level after
    # 40) without, at the same speed.
    options.enable_mem_pattern = False
    return onnxruntime.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])


class PiperSynthesizer:
    def __init__(self, model_path: Path, config_path: Path | None = None, threads: int = 2) -> None:
        from piper import PiperConfig, PiperVoice

        model_path = Path(model_path)
        config_path = Path(config_path) if config_path else Path(str(model_path) + ".json")
        for p in (model_path, config_path):
            if not p.is_file():
                raise ModelError(f"Piper voice file missing: {p}")
        try:
            config = PiperConfig.from_dict(json.loads(config_path.read_text(encoding="utf-8")))
            self._voice = PiperVoice(config=config, session=_session(model_path, threads))
        except Exception as exc:
            raise ModelError(f"cannot load the Piper voice {model_path}: {str(exc).splitlines()[0]}") from None
        self.sample_rate = int(self._voice.config.sample_rate)
        self.name = model_path.stem

    def stream(self, text: str, speed: float = 1.0, steady: bool = False) -> Iterator[np.ndarray]:
        """float32 mono chunks at self.sample_rate, as Piper produces them (one per sentence, and
        one per piece of a sentence longer than MAX_PIECE_WORDS).

        Piper draws random noise for each sentence's prosody, so the same words come out a little
        different every time (the same line 1-2 dB louder or softer, a word heard differently by
        Whisper). `steady` turns the noise off: the same words always give the same samples."""
        from piper import SynthesisConfig

        quiet = {"noise_scale": 0.0, "noise_w_scale": 0.0} if steady else {}
        config = SynthesisConfig(length_scale=1.0 / speed, **quiet)
        for piece in voice_pieces(text):
            for chunk in self._voice.synthesize(piece, syn_config=config):
                yield np.asarray(chunk.audio_float_array, dtype=np.float32)

    def synthesize(self, text: str, speed: float = 1.0, steady: bool = False) -> np.ndarray:
        parts = list(self.stream(text, speed, steady))
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
