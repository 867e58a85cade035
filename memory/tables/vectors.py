"""The vector tables (item_vec, persona_vec: sqlite-vec) and the matrices derived from them.

sqlite-vec's tables are the one durable store of the vectors. Each person's vectors are also kept
in memory as a numpy matrix (memory/vectors.py's Matrix), a cache loaded from the table on first
use and patched after each commit, so a search over 100k items is one matrix product (about 1 ms,
against 77 ms for sqlite-vec's own KNN, which `search_sql` runs for the benchmark that compares them).
Loading a person's matrix takes 2.5 s at 100k items, so a session starts it in the background
(`load_in_background`, through a connection of its own); a commit made while it loads is applied to
the matrix once it is in place.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .. import db
from ..db import chunks, vector_blob
from ..schema import ITEM_DIM
from ..vectors import Matrix, RowMeta, day_number

log = logging.getLogger(__name__)


ITEM, PERSONA = "item", "persona"
_VEC_TABLE = {ITEM: ("item_vec", "item_id"), PERSONA: ("persona_vec", "persona_id")}


class ScoredRows(NamedTuple):
    """A person's rows of one kind against a query, row by row (numpy arrays)."""
    similarity: np.ndarray
    entity: np.ndarray    # entity ids, -1 for none
    day: np.ndarray       # when each was said, days since 1970
    valence: np.ndarray
    ids: np.ndarray
    happens: np.ndarray   # the day what it tells of happens, days since 1970 (0: it names none)


@dataclass
class PendingLoad:
    """A matrix being read in the background: what waits for it, and the commits made meanwhile."""
    done: threading.Event = field(default_factory=threading.Event)
    missed: list[tuple[int, np.ndarray | None, RowMeta | None]] = field(default_factory=list)


def _patch(matrix: Matrix, key: int, vector: np.ndarray | None, meta: RowMeta | None) -> None:
    """A committed change to one row: its vector put in place, or removed (None)."""
    if vector is None:
        matrix.remove(key)
    else:
        matrix.put(key, vector, meta)


class VectorTables:
    """A part of MemoryStore: it alone writes `item_vec` and `persona_vec`, and owns the matrix cache."""

    def _set_vector(self, kind: str, person_id: int, key: int, embedding: np.ndarray,
                    meta: RowMeta | None = None) -> None:
        table, col = _VEC_TABLE[kind]
        vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
        self.execute(f"DELETE FROM {table} WHERE {col} = ?", (key,))
        self.execute(f"INSERT INTO {table}({col}, person_id, embedding) VALUES (?, ?, ?)",
                   (key, person_id, vector_blob(vector, ITEM_DIM)))
        self._pending.append((kind, person_id, key, vector, meta))

    def _apply(self, kind: str, person_id: int, key: int, vector: np.ndarray | None,
               meta: RowMeta | None = None) -> None:
        matrix = self._matrices.get((person_id, kind))
        if matrix is None:
            loading = self._loading.get((person_id, kind))
            if loading is not None:  # being loaded in the background: applied once it is in place
                loading.missed.append((key, vector, meta))
            return  # otherwise loaded from the table on first use
        _patch(matrix, key, vector, meta)
        self.generation += 1

    def bulk_vectors(self, kind: str, person_id: int, keys: list[int], vectors: np.ndarray) -> None:
        """Insert many vectors for existing rows in one transaction (benchmarks, imports)."""
        table, col = _VEC_TABLE[kind]
        vectors = np.asarray(vectors, dtype=np.float32)
        with self.transaction():
            self.conn.executemany(f"INSERT INTO {table}({col}, person_id, embedding) VALUES (?, ?, ?)",
                                  [(k, person_id, v.tobytes()) for k, v in zip(keys, vectors)])
            cached = (person_id, kind) in self._matrices or (person_id, kind) in self._loading
            metas = self._metas(kind, person_id, list(keys)) if cached else {}
            for k, v in zip(keys, vectors):
                self._pending.append((kind, person_id, k, v, metas.get(k)))

    def _metas(self, kind: str, person_id: int, keys: list[int] | None = None, rows=None) -> dict[int, RowMeta]:
        """Row metadata read from the tables (all of the person's rows, or the given ones), through
        `rows` (the store's own, by default)."""
        rows = rows or self.rows
        from ..affect import clamp_valence, valence_of

        if kind == ITEM:
            sql = ("SELECT i.id, coalesce(i.entity_id, -1), v.said_at, v.emotion, i.kind, v.happens_at FROM items i "
                   "JOIN item_versions v ON v.id = i.current_version WHERE i.person_id = ?")
            conv = lambda r: RowMeta(r[1], day_number(r[2]), valence_of(r[3]), r[4] == "summary",  # noqa: E731
                                     day_number(r[5]) if r[5] else 0.0)
        else:
            sql = "SELECT id, coalesce(entity_id, -1), updated, valence, kind FROM persona WHERE person_id = ?"
            conv = lambda r: RowMeta(r[1], day_number(r[2]), clamp_valence(r[3]), r[4] == "cross")  # noqa: E731
        out: dict[int, RowMeta] = {}
        if keys is None:
            for r in rows(sql, (person_id,)):
                out[r[0]] = conv(r)
            return out
        col = "i.id" if kind == ITEM else "id"
        for chunk in chunks(keys):
            for r in rows(sql + f" AND {col} IN ({','.join('?' * len(chunk))})", (person_id, *chunk)):
                out[r[0]] = conv(r)
        return out

    def matrix(self, person_id: int, kind: str) -> Matrix:
        key = (person_id, kind)
        with self._lock:
            loading = self._loading.get(key)
        if loading is not None:  # being loaded in the background: wait for it rather than load it twice
            loading.done.wait()
        with self._lock:
            if key not in self._matrices:
                self._matrices[key] = self._read_matrix(kind, person_id, self.rows)
            return self._matrices[key]

    def _read_matrix(self, kind: str, person_id: int, rows) -> Matrix:
        table, col = _VEC_TABLE[kind]
        found = rows(f"SELECT {col}, embedding FROM {table} WHERE person_id = ?", (person_id,))
        ids = np.array([r[0] for r in found], dtype=np.int64)
        vectors = (np.frombuffer(b"".join(r[1] for r in found), dtype=np.float32).reshape(len(found), ITEM_DIM)
                   if found else np.zeros((0, ITEM_DIM), dtype=np.float32))
        metas = self._metas(kind, person_id, rows=rows)
        return Matrix(ids, vectors, [metas.get(int(i), RowMeta()) for i in ids])

    def load_in_background(self, person_id: int) -> threading.Thread | None:
        """Load the person's matrices on a thread of their own, through a connection of its own, so
        the store stays free for the turns being written; None when they are loaded already."""
        keys = []
        with self._lock:
            for kind in (ITEM, PERSONA):
                key = (person_id, kind)
                if key not in self._matrices and key not in self._loading:
                    self._loading[key] = PendingLoad()
                    keys.append(key)
        if not keys:
            return None
        thread = threading.Thread(target=self._load, args=(keys,), name="memory-cache", daemon=True)
        thread.start()
        return thread

    def _load(self, keys: list[tuple[int, str]]) -> None:
        conn = None
        try:
            conn = db.reader(self.path)
            read = lambda sql, params=(): conn.execute(sql, params).fetchall()  # noqa: E731
            for person_id, kind in keys:
                matrix = self._read_matrix(kind, person_id, read)
                with self._lock:
                    loading = self._stop_loading((person_id, kind))
                    if loading is None:
                        continue  # dropped meanwhile (merge, forget): read again on next use
                    for key, vector, meta in loading.missed:
                        _patch(matrix, key, vector, meta)
                    self._matrices.setdefault((person_id, kind), matrix)
        except Exception:  # a cache worth having early, not worth failing for: loaded on first use instead
            log.warning("loading the memory cache in the background failed", exc_info=True)
        finally:
            with self._lock:
                for key in keys:
                    self._stop_loading(key)
            if conn is not None:
                conn.close()

    def scored_rows(self, person_id: int, kind: str, query: np.ndarray) -> ScoredRows:
        """Every row of the person's matrix scored against `query`, read together under the lock (a
        commit patches the matrix in place)."""
        matrix = self.matrix(person_id, kind)
        with self._lock:
            n = matrix.n
            return ScoredRows(matrix.vectors[:n] @ query, matrix.entity[:n].copy(), matrix.day[:n].copy(),
                              matrix.valence[:n].copy(), matrix.ids[:n].copy(), matrix.happens[:n].copy())

    def drop_person_caches(self, *person_ids: int) -> None:
        """Forget the in-memory matrices of people whose rows moved or went (merge, forget): they
        are read again from the tables on next use."""
        with self._lock:
            for pid in person_ids:
                for kind in (ITEM, PERSONA):
                    self._matrices.pop((pid, kind), None)
                    self._stop_loading((pid, kind))
            self.generation += 1

    def _stop_loading(self, key: tuple[int, str]) -> PendingLoad | None:
        """With the lock held: the load of this matrix is over (what waited for it goes on)."""
        loading = self._loading.pop(key, None)
        if loading is not None:
            loading.done.set()
        return loading

    def search(self, person_id: int, query: np.ndarray, k: int, kind: str = ITEM) -> list[tuple[int, float]]:
        """(id, cosine similarity) of this person's nearest rows, from the in-memory matrix."""
        return self.matrix(person_id, kind).search(np.asarray(query, dtype=np.float32), k)

    def search_sql(self, person_id: int, query: np.ndarray, k: int, kind: str = ITEM) -> list[tuple[int, float]]:
        """The same search done by sqlite-vec's KNN on the person's partition (no cache needed)."""
        table, col = _VEC_TABLE[kind]
        rows = self.rows(f"SELECT {col}, distance FROM {table} WHERE embedding MATCH ? AND k = ? AND person_id = ?",
                          (vector_blob(query, ITEM_DIM), k, person_id))
        return [(int(key), 1.0 - float(d)) for key, d in rows]
