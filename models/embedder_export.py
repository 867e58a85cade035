"""Turning the bundled sentence-transformers model into one ONNX graph, once, into the cache.

Importing sentence-transformers (and through it torch's model code, scikit-learn and SciPy) took
2.7 s of every start on a 2-core CPU, for a model whose query takes 10 ms. The graph this writes is
the model's own modules traced whole (transformer, mean pooling, normalisation, as its modules.json
lists them), so onnxruntime gives the same vectors (within 1e-6) and nothing of it is written by
hand. `hearth prepare` (which `make install` runs) exports it; a start that finds none exports it
itself (about 6 s here, once).
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

from . import ModelError

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "sentence_embedding"


def export(model_dir: Path, target: Path) -> Path:
    """Write `target` from the sentence-transformers model in `model_dir`; written whole or not at all."""
    try:
        import torch
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True).eval()
    except Exception as exc:  # anything from torch/transformers: one line for the user
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ModelError(f"cannot load the text embedder {model_dir} to prepare it: {first}") from None

    class Whole(torch.nn.Module):
        """The model's modules in order, taking the tokenizer's arrays and giving the sentence's vector."""

        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            features = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
            return self.model(features)[OUTPUT]

    # `tokenize` was renamed `preprocess` in sentence-transformers 6
    preprocess = getattr(model, "preprocess", None) or model.tokenize
    example = preprocess(["an example", "a second, longer example sentence"])
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".partial")
    os.close(fd)
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on constants the graph rightly keeps
            torch.onnx.export(Whole(), tuple(example[name] for name in INPUTS), partial, input_names=list(INPUTS),
                              output_names=[OUTPUT], opset_version=17, dynamo=False,
                              dynamic_axes={**{name: {0: "batch", 1: "tokens"} for name in INPUTS}, OUTPUT: {0: "batch"}})
        os.chmod(partial, 0o644)  # (mkstemp made it private; a cache is read by whoever runs Hearth)
        os.replace(partial, target)  # a start killed mid-export leaves no half-written graph behind
    except Exception as exc:
        raise ModelError(f"cannot prepare the text embedder: {type(exc).__name__}: {exc}") from None
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target
