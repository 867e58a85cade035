"""Privacy: what Hearth stores is owner-only, and its logs never carry what was said or remembered.

(Debug logging may; nothing here turns it on.)
"""

from __future__ import annotations

import ast
import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGES = ("assistant", "audio", "memory", "models", "tui")
LOG_METHODS = {"info", "warning", "warn", "error", "exception", "critical", "log"}
# Names that hold what a person said, a reply, or a memory. A logging call at INFO or above must not use them.
PRIVATE_NAMES = {"text", "heard", "reply", "reply_text", "user_text", "spoken", "said", "transcript", "memories",
                 "memory_text", "block", "sentence", "partial", "partial_text", "prompt", "messages", "version",
                 "item", "node", "turns", "history", "content"}


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_database_and_its_side_files_are_owner_only(tmp_path):
    from datetime import datetime

    from memory import open_store

    data = tmp_path / "fresh" / "hearth"
    store = open_store(data, embedder=None)
    try:
        pid = store.add_person("me")
        store.add_turn(pid, store.start_session(pid, datetime.now()), "user", "my PIN is 4321", datetime.now())
        files = sorted(data.glob("hearth.db*"))
        assert {p.name for p in files} >= {"hearth.db", "hearth.db-wal", "hearth.db-shm"}
        for p in files:
            assert _mode(p) == 0o600, (p.name, oct(_mode(p)))
    finally:
        store.close()


def test_the_data_folder_hearth_creates_is_owner_only(tmp_path):
    from memory import open_store

    data = tmp_path / "fresh" / "hearth"
    open_store(data, embedder=None).close()
    assert _mode(data) == 0o700, oct(_mode(data))


def test_hearth_writes_no_config_file(tmp_path):
    """Hearth only reads its config; so no config file can be created with loose permissions."""
    config = tmp_path / "config" / "hearth" / "config.toml"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HEARTH_CONFIG": str(config),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    for args in (["--help"], ["replay", str(tmp_path / "absent.wav"), "--out", str(tmp_path / "o")], ["people"]):
        subprocess.run([sys.executable, "-m", "assistant.modes.cli", *args, "--data-dir", str(tmp_path / "d")]
                       if args != ["--help"] else [sys.executable, "-m", "assistant.modes.cli", *args],
                       cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert not config.exists() and not (tmp_path / "config").exists()
    db = tmp_path / "d" / "hearth.db"
    if db.exists():  # `hearth people` opens the store
        assert _mode(db) == 0o600


def _logging_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        owner_name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if node.func.attr in LOG_METHODS and owner_name in ("log", "logger", "logging", "_log", "LOG"):
            yield node


def test_no_logging_call_above_debug_carries_what_was_said():
    """A static check over the product's code: logging calls at INFO and above name no text variables."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for call in _logging_calls(tree):
                used = {n.id for arg in call.args[1:] + [k.value for k in call.keywords] for n in ast.walk(arg)
                        if isinstance(n, ast.Name)}
                used |= {n.attr for arg in call.args[1:] for n in ast.walk(arg) if isinstance(n, ast.Attribute)}
                if used & PRIVATE_NAMES:
                    found.append(f"{path.relative_to(ROOT)}:{call.lineno} uses {sorted(used & PRIVATE_NAMES)}")
    assert not found, found


@pytest.mark.parametrize("failing_writer", [
    pytest.param(False, id="normal session"),
    pytest.param(True, id="memory writer fails"),
])
def test_a_session_with_memory_logs_nothing_that_was_said(failing_writer, engines, test_config, speech_dir,
                                                          tmp_path, caplog):
    """Replayed turns with memory on, every logger captured: no record at INFO or above holds the words
    heard, the reply, or a memory (with a failing memory writer: not even in its traceback)."""
    from assistant.memory_access.household import Household
    from assistant.modes.replay import replay_file
    from memory import open_store
    from memory.turns import PersonMemory

    caplog.set_level(logging.DEBUG)
    store = open_store(tmp_path / "data", engines.embedder)
    household = Household(store, test_config, engines)
    real_derive = PersonMemory.derive

    def derive(self, text, turn_id, now):  # fails quoting the text, as parse errors do
        raise ValueError(f"could not parse {text!r}")

    if failing_writer:
        PersonMemory.derive = derive
    try:
        result = replay_file(speech_dir / "asr/librivox-ss01-0930.wav", tmp_path / "out", engines, test_config,
                             routing=household)
        household.end_session()
    finally:
        PersonMemory.derive = real_derive
        store.close()
    said = [r.heard for r in result.records if r.heard]
    replies = [r.reply for r in result.records if r.reply]
    assert said and replies
    if not failing_writer:  # what was remembered, too
        from memory import MemoryStore

        with MemoryStore(tmp_path / "data" / "hearth.db") as s:
            said += [r[0] for r in s.conn.execute("SELECT text FROM item_versions")]
    words = [w.strip(" .,!?")[:24] for w in said + replies if len(w.strip(" .,!?")) >= 6]
    leaked = []
    for record in caplog.records:
        if record.levelno < logging.INFO:
            continue
        text = record.getMessage() + ("\n" + logging.Formatter().formatException(record.exc_info)
                                      if record.exc_info else "")
        leaked += [(record.name, w) for w in words if w in text]
    assert not leaked, leaked
