"""Speech recognition: faster-whisper on a model folder (the bundled tiny.en by default)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import ModelError


class WhisperTranscriber:
    def __init__(self, model_dir: Path, threads: int = 2, compute_type: str = "int8", beam_size: int = 1,
                 name: str | None = None) -> None:
        from faster_whisper import WhisperModel

        model_dir = Path(model_dir)
        if not (model_dir / "model.bin").is_file():
            raise ModelError(f"no faster-whisper model in {model_dir} (expected model.bin there)")
        try:
            self._model = WhisperModel(str(model_dir), device="cpu", compute_type=compute_type,
                                       cpu_threads=threads, local_files_only=True)
        except Exception as exc:
            raise ModelError(f"cannot load the speech model in {model_dir}: {str(exc).splitlines()[0]}") from None
        self.name = name or model_dir.name
        self.beam_size = beam_size
        # An English-only model (".en") must not be asked to detect the language.
        self.language = "en" if not self._model.model.is_multilingual else None

    def transcribe(self, audio: np.ndarray, prompt: str | None = None) -> str:
        """16 kHz mono float32 -> text."""
        if len(audio) < 1600:  # under 0.1 s there is nothing to recognise
            return ""
        segments, _ = self._model.transcribe(
            np.asarray(audio, dtype=np.float32), language=self.language, beam_size=self.beam_size,
            vad_filter=False, condition_on_previous_text=False, without_timestamps=True,
            initial_prompt=prompt,
        )
        return " ".join(s.text.strip() for s in segments).strip()
