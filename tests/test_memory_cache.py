"""The per-person matrices (memory/tables/vectors.py) are a cache derived from sqlite-vec's tables:
loaded in the background at the start of a session, they hold exactly the table's rows, commits
made while they loaded included."""

from __future__ import annotations

from datetime import datetime

import numpy as np

from memory import MemoryStore
from memory.store import ITEM

N = 20_000


def synthetic_items(store: MemoryStore, pid: int, n: int, seed: int = 0) -> list[int]:
    """n items with random unit vectors, written directly (no embedder needed)."""
    now = datetime(2026, 1, 1).isoformat()
    first = store.rows("SELECT coalesce(max(id), 0) FROM items")[0][0] + 1
    ids = list(range(first, first + n))
    with store.transaction():
        store.conn.executemany("INSERT INTO items(id, person_id, created, updated) VALUES (?, ?, ?, ?)",
                               [(i, pid, now, now) for i in ids])
        store.conn.executemany("INSERT INTO item_versions(id, item_id, text, said_at, provenance, created) "
                               "VALUES (?, ?, ?, ?, '[]', ?)", [(i, i, f"memory {i}", now, now) for i in ids])
        store.conn.execute("UPDATE items SET current_version = id WHERE person_id = ?", (pid,))
    v = np.random.default_rng(seed).standard_normal((n, 384)).astype(np.float32)
    store.bulk_vectors(ITEM, pid, ids, v / np.linalg.norm(v, axis=1, keepdims=True))
    return ids


def table_ids(store: MemoryStore, pid: int) -> set[int]:
    return {r[0] for r in store.rows("SELECT item_id FROM item_vec WHERE person_id = ?", (pid,))}


def test_a_matrix_loaded_in_the_background_holds_what_was_committed_while_it_loaded(tmp_path):
    path = tmp_path / "hearth.db"
    with MemoryStore(path) as store:
        pid = store.add_person("Dana")
        synthetic_items(store, pid, N)
    with MemoryStore(path) as store:
        loading = store.load_in_background(pid)
        assert loading is not None
        vector = np.ones(384, dtype=np.float32) / np.sqrt(384)
        added = []
        while loading.is_alive() or not added:  # the session goes on: memories are written meanwhile
            item, _ = store.add_item(pid, None, {"text": "a new memory", "said_at": "2026-02-01T10:00:00"},
                                     vector, datetime(2026, 2, 1))
            added.append(item)
        loading.join()
        forgotten = added.pop(0)
        store.forget_item(pid, forgotten)
        matrix = store.matrix(pid, ITEM)
        assert set(int(i) for i in matrix.ids[: matrix.n]) == table_ids(store, pid)
        assert forgotten not in set(matrix.ids[: matrix.n]) and added[-1] in set(matrix.ids[: matrix.n])
        assert store.search(pid, vector, 1)[0][0] in added


def test_a_person_whose_matrix_is_loaded_gets_no_second_load(tmp_path):
    with MemoryStore(tmp_path / "hearth.db") as store:
        pid = store.add_person("Dana")
        synthetic_items(store, pid, 100)
        store.matrix(pid, ITEM)
        store.matrix(pid, "persona")
        assert store.load_in_background(pid) is None
