"""Shared fixtures: the real models, loaded once, and the real recordings in ../shared/data."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
SPEECH = SHARED_DATA / "speech"


def load_benchmark(name: str):
    """A script under benchmarks/ as a module (it is not a package), so tests run its short versions."""
    import importlib.util
    import sys

    if str(ROOT / "benchmarks") not in sys.path:  # the scripts import one another as siblings
        sys.path.insert(0, str(ROOT / "benchmarks"))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def speech_manifest() -> list[dict]:
    if not (SPEECH / "manifest.json").exists():
        return []
    return json.loads((SPEECH / "manifest.json").read_text())["items"]


def items(role: str) -> list[dict]:
    return [i for i in speech_manifest() if i["role"] == role]


@pytest.fixture(scope="session")
def speech_dir() -> Path:
    if not SPEECH.is_dir():
        pytest.skip(f"shared speech data not found at {SPEECH}")
    return SPEECH


@pytest.fixture(scope="session")
def test_config(tmp_path_factory):
    from assistant.config import Config

    # Short replies keep the suite quick; greedy decoding, with every prompt evaluated alike whatever
    # the tests before left in the model's cache, keeps replies repeatable; the bundled LLM is
    # assembled once into the user cache.
    return Config(max_reply_tokens=48, temperature=0.0, repeatable_replies=True,
                  data_dir=str(tmp_path_factory.mktemp("data")),
                  cache_dir=os.environ.get("HEARTH_CACHE_DIR") or Config().cache_dir)


@pytest.fixture(scope="session")
def embedder(test_config):
    """The text embedder alone, for memory tests that need no other model."""
    from models.embedder import TextEmbedder

    return TextEmbedder(cache_dir=test_config.cache_path)


@pytest.fixture(scope="session")
def engines(test_config):
    from assistant.engines import load_engines

    return load_engines(test_config)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """Leave with the suite's own exit status once pytest has said everything. livekit's native
    runtime (the echo canceller, audio/aec.py) was seen to panic in its shutdown after a full run
    ("tokio-rt-worker panicked … panic in a function that cannot unwind", exit 134) with every test
    already reported: the interpreter's own shutdown is skipped, which no test relies on."""
    import sys

    status = getattr(config, "_hearth_exit_status", None)
    if status is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(status))


def pytest_sessionfinish(session, exitstatus):
    session.config._hearth_exit_status = exitstatus
