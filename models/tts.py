"""Speech synthesis: a Piper voice (the bundled en_US-joe-medium by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np

from . import ModelError


class PiperSynthesizer:
    def __init__(self, model_path: Path, config_path: Path | None = None) -> None:
        from piper import PiperVoice

        model_path = Path(model_path)
        config_path = Path(config_path) if config_path else Path(str(model_path) + ".json")
        for p in (model_path, config_path):
            if not p.is_file():
                raise ModelError(f"Piper voice file missing: {p}")
        try:
            self._voice = PiperVoice.load(str(model_path), config_path=str(config_path))
        except Exception as exc:
            raise ModelError(f"cannot load the Piper voice {model_path}: {str(exc).splitlines()[0]}") from None
        self.sample_rate = int(self._voice.config.sample_rate)
        self.name = model_path.stem

    def stream(self, text: str, speed: float = 1.0) -> Iterator[np.ndarray]:
        """float32 mono chunks at self.sample_rate, as Piper produces them (one per sentence)."""
        from piper import SynthesisConfig

        config = SynthesisConfig(length_scale=1.0 / speed)
        for chunk in self._voice.synthesize(text, syn_config=config):
            yield np.asarray(chunk.audio_float_array, dtype=np.float32)

    def synthesize(self, text: str, speed: float = 1.0) -> np.ndarray:
        parts = list(self.stream(text, speed))
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
