"""Text embeddings: all-MiniLM-L6-v2 (384-d) through sentence-transformers, on the CPU, offline."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import ModelError

DIM = 384


class TextEmbedder:
    """`embed(texts)` gives an (n, 384) float32 array of L2-normalised rows; `embed_one(text)` one row."""

    dim = DIM

    def __init__(self, path: Path | None = None, threads: int | None = None) -> None:
        try:
            if path is None:
                from . import bundled

                path = bundled.text_embedder_dir()
            path = Path(path)
            if not path.is_dir():
                raise ModelError(f"text embedder folder not found: {path}")
            import torch
            from sentence_transformers import SentenceTransformer

            if threads:
                torch.set_num_threads(threads)
            self._model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        except ModelError:
            raise
        except Exception as exc:  # anything from torch/transformers: one line for the user
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ModelError(f"cannot load the text embedder {path}: {first}") from None
        self.name = "all-MiniLM-L6-v2" if path.name == "model" else path.name

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        vectors = self._model.encode(list(texts), batch_size=64, convert_to_numpy=True,
                                     normalize_embeddings=True, show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def embed_one(self, text: str) -> np.ndarray:
        """One query, straight through the model's own modules (tokenizer, transformer, pooling):
        `encode` sorts, batches and converts for many texts, which for the one query on recall's
        critical path only adds time."""
        import torch

        # `tokenize` was renamed `preprocess` in sentence-transformers 6
        preprocess = getattr(self._model, "preprocess", None) or self._model.tokenize
        with torch.inference_mode():
            features = preprocess([text])
            vector = self._model(features)["sentence_embedding"][0].numpy().astype(np.float32)
        return vector / max(float(np.linalg.norm(vector)), 1e-12)
