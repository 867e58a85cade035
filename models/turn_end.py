"""Whether a turn sounds finished: Smart Turn v3.2, pipecat's open end-of-turn model (BSD-2-Clause),
on onnxruntime. It hears the last 8 s of input as Whisper's log-mel features (made by
transformers' WhisperFeatureExtractor, as the model was trained) and gives the probability that
the person has finished: intonation and rhythm, which the words alone do not carry."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import ModelError

SAMPLE_RATE = 16_000
WINDOW_SECONDS = 8  # the model hears this much of the utterance's end, zero-padded in front


class TurnEndModel:
    def __init__(self, path: Path, threads: int = 1) -> None:
        import onnxruntime as ort
        from transformers import WhisperFeatureExtractor

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(str(path), sess_options=options,
                                                 providers=["CPUExecutionProvider"])
        except Exception as exc:
            raise ModelError(f"cannot load the end-of-turn model {path}: {str(exc).splitlines()[0]}") from None
        self._features = WhisperFeatureExtractor(chunk_length=WINDOW_SECONDS)
        self.name = Path(path).stem

    def finished(self, audio: np.ndarray) -> float:
        """16 kHz mono float32, what was heard up to now (its last 8 s are heard) -> P(finished)."""
        window = WINDOW_SECONDS * SAMPLE_RATE
        audio = np.asarray(audio, dtype=np.float32)[-window:]
        audio = np.pad(audio, (window - len(audio), 0))
        features = self._features(audio, sampling_rate=SAMPLE_RATE, return_tensors="np", padding="max_length",
                                  max_length=window, truncation=True, do_normalize=True).input_features
        return float(self._session.run(None, {"input_features": features.astype(np.float32)})[0].reshape(-1)[0])
