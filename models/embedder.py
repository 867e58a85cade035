"""Text embeddings: all-MiniLM-L6-v2 (384-d) on the CPU, offline, through onnxruntime.

The model is the bundled sentence-transformers one, exported once into the cache as one ONNX graph
(models/embedder_export.py, the reason is there); its own tokenizer file (`tokenizers`) makes the
graph's inputs. Starting needs neither torch nor sentence-transformers.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import ModelError

DIM = 384
BATCH = 64


class TextEmbedder:
    """`embed(texts)` gives an (n, 384) float32 array of L2-normalised rows; `embed_one(text)` one row.
    `cache_dir` holds the exported graph (exported there on first use if missing)."""

    dim = DIM

    def __init__(self, path: Path | None = None, threads: int | None = None, *, cache_dir: Path) -> None:
        if path is None:
            from . import bundled

            path = bundled.text_embedder_dir()
        path = Path(path)
        if not path.is_dir():
            raise ModelError(f"text embedder folder not found: {path}")
        graph = exported_graph(path, Path(cache_dir))
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
            # the length sentence-transformers cuts at, not the one the tokenizer file was saved with
            tokenizer.enable_truncation(_max_tokens(path))
            saved = tokenizer.padding or {}  # (saved padding to a fixed length: batches pad to their longest)
            tokenizer.enable_padding(pad_id=saved.get("pad_id", 0), pad_token=saved.get("pad_token", "[PAD]"))
            options = ort.SessionOptions()
            if threads:
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
            self._session = ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # anything from onnxruntime/tokenizers: one line for the user
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ModelError(f"cannot load the text embedder {path}: {first}") from None
        self._tokenizer = tokenizer
        self.name = "all-MiniLM-L6-v2" if path.name == "model" else path.name

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        texts = list(texts)
        # similar lengths batched together pad less (as sentence-transformers' encode does)
        order = sorted(range(len(texts)), key=lambda n: len(texts[n]))
        rows = np.zeros((len(texts), DIM), dtype=np.float32)
        for start in range(0, len(order), BATCH):
            chunk = order[start:start + BATCH]
            rows[chunk] = self._run([texts[n] for n in chunk])
        return rows

    def embed_one(self, text: str) -> np.ndarray:
        return self._run([text])[0]

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        feeds = {"input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                 "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                 "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64)}
        vectors = self._session.run(None, feeds)[0].astype(np.float32)
        # the graph normalises already; again here so rounding never leaves a row off unit length
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def exported_graph(model_dir: Path, cache_dir: Path) -> Path:
    """The model's ONNX graph in the cache, exported now if it is not there. Its name carries the
    weights' size, so other weights in the same folder are exported afresh."""
    weights = model_dir / "model.safetensors"
    if not weights.is_file():
        raise ModelError(f"text embedder weights not found: {weights}")
    graph = cache_dir / f"text-embedder-{model_dir.parent.name}-{weights.stat().st_size}.onnx"
    if graph.is_file():
        return graph
    from .embedder_export import export

    return export(model_dir, graph)


def _max_tokens(model_dir: Path) -> int:
    try:
        return int(json.loads((model_dir / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"text embedder has no readable sentence_bert_config.json in {model_dir}: {exc}") from None
