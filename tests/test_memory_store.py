"""The store on real SQLite files: migrations, refusals, versions, scoping, transactions."""

import os
import sqlite3
import stat
import subprocess
import sys
from contextlib import contextmanager
from datetime import datetime

import numpy as np
import pytest

from memory import MemoryStore, MemoryStoreError, db, schema

NOW = datetime(2026, 3, 2, 10)


def vec(seed, dim=384):
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def version(text, turn=1):
    return {"text": text, "said_at": NOW, "provenance": [turn]}


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "hearth.db")
    yield s
    s.close()


def test_new_file_is_owner_only_wal_and_current(store):
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert store.version == schema.SCHEMA_VERSION
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert set(schema.PRESET_SCHEMAS) <= set(store.schemas())


def _written_at_version(path, version: int):
    """A store file as a Hearth of schema `version` left it (an open connection, to add rows)."""
    conn = db.sqlite_module().connect(str(path), isolation_level=None)
    db.load_vec(conn)
    db.migrate(conn, path, target=version)
    return conn


def test_forward_migration_keeps_data(tmp_path):
    path = tmp_path / "old.db"
    conn = _written_at_version(path, 1)
    conn.execute("INSERT INTO people(name, created) VALUES ('Dana', '2026-01-01')")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    with MemoryStore(path) as s:
        assert s.version == schema.SCHEMA_VERSION
        assert s.find_person("Dana") == 1
        assert s.conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sessions_by_person'").fetchone()[0] == 1


def test_the_person_called_me_before_version_6_is_the_desks(tmp_path):
    path = tmp_path / "v5.db"
    conn = _written_at_version(path, 5)
    conn.execute("INSERT INTO people(name, created) VALUES ('Guest 1', '2026-01-01')")
    conn.execute("INSERT INTO people(name, created) VALUES ('me', '2026-01-02')")
    conn.close()
    with MemoryStore(path) as s:
        s.name_person(2, "Dana")  # renamed, still the desk's person
        assert s.desk_owner("me") == 2


def test_newer_file_is_refused_and_unchanged(tmp_path):
    path = tmp_path / "new.db"
    MemoryStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(MemoryStoreError, match="newer"):
        MemoryStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("where", ["header", "page2"])
def test_damaged_file_gives_clear_error_and_is_untouched(tmp_path, where):
    good = tmp_path / "good.db"
    with MemoryStore(good) as s:
        pid = s.add_person("Dana")
        for i in range(50):
            s.add_item(pid, None, version(f"memory {i} " * 20), vec(i), NOW)
    s.conn = None
    bad = tmp_path / "bad.db"
    data = bytearray(good.read_bytes())
    at = 0 if where == "header" else 4096  # the first page after the schema page: a b-tree page
    data[at:at + 4096] = os.urandom(4096)
    bad.write_bytes(bytes(data))
    before = bad.read_bytes()
    with pytest.raises(MemoryStoreError) as err:
        MemoryStore(bad)
    assert "damaged" in str(err.value) and "\n" not in str(err.value)
    assert bad.read_bytes() == before


def test_garbage_file_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(MemoryStoreError, match="damaged or not a Hearth database"):
        MemoryStore(path)
    assert path.read_bytes() == before


HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "exclusive":
    conn.execute("PRAGMA locking_mode = EXCLUSIVE")
conn.execute("BEGIN EXCLUSIVE" if sys.argv[2] == "exclusive" else "BEGIN IMMEDIATE")
conn.execute("CREATE TABLE other_program(x)")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


@contextmanager
def other_program_locks(path, mode="exclusive"):
    """Another process (SQLite's locks are per process) holding an exclusive lock on the file."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(path), mode], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        yield
    finally:
        proc.stdin.write("\n")
        proc.stdin.close()
        proc.wait(10)


def test_locked_database_gives_clear_error(tmp_path):
    path = tmp_path / "hearth.db"
    MemoryStore(path).close()
    with other_program_locks(path):
        with pytest.raises(MemoryStoreError, match="locked") as err:
            MemoryStore(path, timeout=0.2)
        assert "\n" not in str(err.value)
    MemoryStore(path).close()


def test_write_while_locked_loses_nothing(tmp_path):
    path = tmp_path / "hearth.db"
    s = MemoryStore(path, timeout=0.2)
    pid = s.add_person("Dana")
    sid = s.start_session(pid, NOW)
    s.add_turn(pid, sid, "user", "first", NOW)
    with other_program_locks(path, "write"):
        with pytest.raises(MemoryStoreError, match="locked"):
            s.add_turn(pid, sid, "user", "second", NOW)
    s.add_turn(pid, sid, "user", "second", NOW)
    assert [t["text"] for t in s.turns(pid)] == ["first", "second"]
    s.close()


def test_item_versions_form_a_chain(store):
    pid = store.add_person("Dana")
    eid = store.add_entity(pid, "COVID", "health", ["covid"], NOW)
    item, v1 = store.add_item(pid, eid, version("had COVID", 1), vec(1), NOW)
    v2 = store.update_item(item, version("recovered from COVID", 2), vec(2), NOW)
    chain = store.history(item)
    assert [v.id for v in chain] == [v2, v1]
    assert chain[0].previous_id == v1 and chain[1].previous_id is None
    assert chain[1].text == "had COVID" and store.current_version(item).text == "recovered from COVID"
    assert store.search(pid, vec(2), 1)[0][0] == item


def test_forgetting_an_item_removes_every_version_and_its_vector_and_nothing_else(store):
    a, b = store.add_person("Dana"), store.add_person("Eli")
    item, _ = store.add_item(a, None, version("had COVID", 1), vec(1), NOW)
    store.update_item(item, version("recovered from COVID", 2), vec(2), NOW)
    keep, _ = store.add_item(a, None, version("walks by the river"), vec(3), NOW)
    other, _ = store.add_item(b, None, version("Eli's memory"), vec(2), NOW)
    with pytest.raises(MemoryStoreError):
        store.forget_item(b, item)  # not Eli's to forget
    store.forget_item(a, item)
    assert store.count_items(a) == 1 and store.history(item) == []
    assert item not in [i for i, _ in store.search(a, vec(2), 5)]
    assert item not in [i for i, _ in store.search_sql(a, vec(2), 5)]
    assert [i for i, _ in store.search(b, vec(2), 5)] == [other] and store.current_version(keep) is not None


def test_failure_mid_update_keeps_previous_version(store):
    pid = store.add_person("Dana")
    item, _ = store.add_item(pid, None, version("the old memory"), vec(1), NOW)
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.update_item(item, version("the new memory"), vec(2), NOW)
            store.add_entity(pid, "Anna", "family and friends", [], NOW)
            raise RuntimeError("crash in the middle")
    assert store.current_version(item).text == "the old memory"
    assert len(store.history(item)) == 1 and store.entities(pid) == []
    hits = store.search(pid, vec(1), 1)
    assert hits[0][0] == item and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert store.search_sql(pid, vec(1), 1)[0][0] == item


def test_bad_vector_rolls_back(store):
    pid = store.add_person("Dana")
    with pytest.raises(ValueError):
        store.add_item(pid, None, version("x"), np.zeros(10, dtype=np.float32), NOW)
    assert store.count_items(pid) == 0


def test_everything_is_scoped_by_person(store):
    a, b = store.add_person("Dana"), store.add_person("Eli")
    ia, _ = store.add_item(a, None, version("Dana's secret"), vec(1), NOW)
    ib, _ = store.add_item(b, None, version("Eli's secret"), vec(1), NOW)
    assert [i for i, _ in store.search(a, vec(1), 10)] == [ia]
    assert [i for i, _ in store.search_sql(b, vec(1), 10)] == [ib]
    assert [m.text for m in store.memories(a, [ia, ib])] == ["Dana's secret"]
    ea = store.add_entity(a, "Anna", "family and friends", [], NOW)
    assert store.entities(b) == [] and store.neighbourhood(b, [ea]) == ([], [])


def test_edges_one_hop(store):
    pid = store.add_person("Dana")
    e = [store.add_entity(pid, n, "travel", [], NOW) for n in ("a", "b", "c", "d")]
    store.add_edge(pid, e[0], e[1], "strong")
    store.add_edge(pid, e[1], e[2], "weak")
    store.add_edge(pid, e[2], e[3], "strong")
    assert store.neighbours(pid, [e[1]]) == {e[0]: "strong", e[2]: "weak"}


def test_voiceprints(store):
    a, b = store.add_person("Dana"), store.add_person("Eli")
    store.add_voiceprint(a, vec(1, 256))
    store.add_voiceprint(b, vec(2, 256))
    assert store.match_voiceprint(vec(2, 256))[0][0] == b


def test_persona_nodes_and_constraints(store):
    pid = store.add_person("Dana")
    eid = store.add_entity(pid, "Biscuit", "pets", ["dog"], NOW)
    nid = store.upsert_persona(pid, "cross", eid, {"text": "scared about Biscuit", "affect": "scared",
                                                   "valence": -0.7, "arousal": 0.8, "evidence": [3]}, vec(3), NOW)
    store.upsert_persona(pid, "cross", eid, {"text": "grateful about Biscuit", "affect": "grateful", "valence": 0.7,
                                             "evidence": [3, 4]}, vec(4), NOW, nid)
    (node,) = store.persona(pid, "cross")
    assert node["affect"] == "grateful" and node["evidence"] == [3, 4]
    with pytest.raises(MemoryStoreError):
        store.upsert_persona(pid, "independent", None, {"text": "x", "valence": 3.0}, vec(5), NOW)
