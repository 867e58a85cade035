"""Voice activity: silero-vad's speech probability for each 32 ms frame."""

from __future__ import annotations

import numpy as np

from . import FRAME_SAMPLES, SAMPLE_RATE


class SileroVad:
    """Wraps silero-vad's ONNX model; keeps its recurrent state between frames of one stream."""

    def __init__(self, threshold: float = 0.5) -> None:
        import torch
        from silero_vad import load_silero_vad

        torch.set_num_threads(1)  # one frame is tiny; threads only add overhead here
        self._torch = torch
        self._model = load_silero_vad(onnx=True)
        self.threshold = threshold

    def reset(self) -> None:
        self._model.reset_states()

    def probability(self, frame: np.ndarray) -> float:
        assert len(frame) == FRAME_SAMPLES
        return float(self._model(self._torch.from_numpy(frame), SAMPLE_RATE).item())

    def is_speech(self, frame: np.ndarray) -> bool:
        return self.probability(frame) >= self.threshold
