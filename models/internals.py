"""What an engine adapter uses of its library beyond the documented API, checked when it loads.

models/llm_local.py reaches into llama-cpp-python (the KV cache's tokens, the sampler, the context's
state), models/asr.py into faster-whisper (its CTranslate2 model and tokenizer). Those libraries are
pinned exactly in pyproject.toml; an upgrade that moves one of these names fails at load with the
name, the version found and the version the adapter was written for, not later inside a reply.
"""

from __future__ import annotations

from importlib import metadata
from typing import Iterable

from . import ModelError


def missing_attributes(root: object, paths: Iterable[str]) -> list[str]:
    """The dotted attribute paths ("_ctx.ctx") that `root` does not have."""
    missing = []
    for path in paths:
        obj = root
        for part in path.split("."):
            if not hasattr(obj, part):
                missing.append(path)
                break
            obj = getattr(obj, part)
    return missing


def require_internals(distribution: str, pinned: str, adapter: str,
                      uses: Iterable[tuple[str, object, Iterable[str]]]) -> None:
    """uses: (what to call it, the object, its attribute paths the adapter reads or writes).
    Raises ModelError naming whatever is missing."""
    missing = [f"{label}.{path}" for label, root, paths in uses for path in missing_attributes(root, paths)]
    if missing:
        try:
            found = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            found = "(not installed)"
        raise ModelError(f"{distribution} {found} has no {', '.join(missing)}, which {adapter} uses: it is "
                         f"written for {distribution} {pinned} (pinned in pyproject.toml); reinstall that "
                         f"version or update {adapter}")
