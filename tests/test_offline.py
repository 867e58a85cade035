"""Hearth runs with the network unavailable and never tries to reach it: no model hub, no telemetry."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from conftest import ROOT

GUARD = textwrap.dedent('''
    import socket, sys
    attempts = []
    def refuse(what):
        def blocked(*args, **kwargs):
            attempts.append((what, repr(args[1:] if what == "connect" else args)[:120]))
            raise OSError("network disabled for this test")
        return blocked
    real_connect = socket.socket.connect
    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            return refuse("connect")(self, address)
        return real_connect(self, address)
    socket.socket.connect = connect
    socket.socket.connect_ex = lambda self, address: connect(self, address)
    socket.getaddrinfo = refuse("getaddrinfo")
    socket.create_connection = refuse("create_connection")
    from assistant.modes.cli import main
    try:
        code = main(sys.argv[1:])
    finally:
        print("NETWORK-ATTEMPTS", attempts, file=sys.stderr)
    sys.exit(code)
''')


def test_replay_with_memory_makes_no_network_attempt(speech_dir, test_config, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HEARTH_CACHE_DIR": test_config.cache_dir,
           "HEARTH_DATA_DIR": str(tmp_path / "data"), "HEARTH_CONFIG": str(tmp_path / "none.toml")}
    proc = subprocess.run(
        [sys.executable, "-c", GUARD, "replay", str(speech_dir / "asr/cards-001.wav"), "--out", str(tmp_path / "out"),
         "--no-tui"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "NETWORK-ATTEMPTS []" in proc.stderr, proc.stderr[-2000:]
    assert (tmp_path / "out" / "cards-001" / "reply-001.wav").exists()
    # what the person said is in the database, which only its owner can read
    db = tmp_path / "data" / "hearth.db"
    assert db.exists() and (db.stat().st_mode & 0o077) == 0


def test_prepare_assembles_the_model_into_an_empty_cache_and_compiles_the_voice_encoder(tmp_path):
    """`hearth prepare`, which make install runs: what the first start would do, done, in a fresh
    cache and with no network; the numba cache is the package's own, written here if it was not yet."""
    from models.bundled import LLM_FILENAME, LLM_SIZE

    cache = tmp_path / "cache"
    proc = subprocess.run([sys.executable, "-c", GUARD, "prepare"], cwd=ROOT, capture_output=True,
                          text=True, env=dict(os.environ, HEARTH_CACHE_DIR=str(cache)), timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "NETWORK-ATTEMPTS []" in proc.stderr, proc.stderr[-2000:]
    assert (cache / LLM_FILENAME).stat().st_size == LLM_SIZE
    assert len(list(cache.glob("text-embedder-*.onnx"))) == 1  # the text embedder, exported
    assert "voice encoder compiled in" in proc.stderr
