"""The vector tables (item_vec, persona_vec: sqlite-vec) and the matrices derived from them.

sqlite-vec's tables are the one durable store of the vectors. Each person's vectors are also kept
in memory as a numpy matrix (memory/vectors.py's Matrix), a cache loaded from the table on first
use and patched after each commit, so a search over 100k items is one matrix product (about 1 ms,
against 77 ms for sqlite-vec's own KNN, which `search_sql` runs for the benchmark that compares them).
"""

from __future__ import annotations

import numpy as np

from ..db import chunks, vector_blob
from ..schema import ITEM_DIM
from ..vectors import Matrix, RowMeta, day_number


ITEM, PERSONA = "item", "persona"
_VEC_TABLE = {ITEM: ("item_vec", "item_id"), PERSONA: ("persona_vec", "persona_id")}


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
            return  # loaded from the table on first use
        if vector is None:
            matrix.remove(key)
        else:
            matrix.put(key, vector, meta)
        self.generation += 1

    def bulk_vectors(self, kind: str, person_id: int, keys: list[int], vectors: np.ndarray) -> None:
        """Insert many vectors for existing rows in one transaction (benchmarks, imports)."""
        table, col = _VEC_TABLE[kind]
        vectors = np.asarray(vectors, dtype=np.float32)
        with self.transaction():
            self.conn.executemany(f"INSERT INTO {table}({col}, person_id, embedding) VALUES (?, ?, ?)",
                                  [(k, person_id, v.tobytes()) for k, v in zip(keys, vectors)])
            metas = self._metas(kind, person_id, list(keys)) if (person_id, kind) in self._matrices else {}
            for k, v in zip(keys, vectors):
                self._pending.append((kind, person_id, k, v, metas.get(k)))

    def _metas(self, kind: str, person_id: int, keys: list[int] | None = None) -> dict[int, RowMeta]:
        """Row metadata read from the tables (all of the person's rows, or the given ones)."""
        from ..affect import clamp_valence, valence_of

        if kind == ITEM:
            sql = ("SELECT i.id, coalesce(i.entity_id, -1), v.said_at, v.emotion, i.kind FROM items i "
                   "JOIN item_versions v ON v.id = i.current_version WHERE i.person_id = ?")
            conv = lambda r: RowMeta(r[1], day_number(r[2]), valence_of(r[3]), r[4] == "summary")  # noqa: E731
        else:
            sql = "SELECT id, coalesce(entity_id, -1), updated, valence, kind FROM persona WHERE person_id = ?"
            conv = lambda r: RowMeta(r[1], day_number(r[2]), clamp_valence(r[3]), r[4] == "cross")  # noqa: E731
        out: dict[int, RowMeta] = {}
        if keys is None:
            for r in self.rows(sql, (person_id,)):
                out[r[0]] = conv(r)
            return out
        col = "i.id" if kind == ITEM else "id"
        for chunk in chunks(keys):
            for r in self.rows(sql + f" AND {col} IN ({','.join('?' * len(chunk))})", (person_id, *chunk)):
                out[r[0]] = conv(r)
        return out

    def matrix(self, person_id: int, kind: str) -> Matrix:
        key = (person_id, kind)
        with self._lock:
            if key not in self._matrices:
                table, col = _VEC_TABLE[kind]
                rows = self.rows(f"SELECT {col}, embedding FROM {table} WHERE person_id = ?", (person_id,))
                ids = np.array([r[0] for r in rows], dtype=np.int64)
                vectors = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), ITEM_DIM)
                           if rows else np.zeros((0, ITEM_DIM), dtype=np.float32))
                metas = self._metas(kind, person_id)
                self._matrices[key] = Matrix(ids, vectors, [metas.get(int(i), RowMeta()) for i in ids])
            return self._matrices[key]

    def scored_rows(self, person_id: int, kind: str, query: np.ndarray):
        """(similarities to `query`, entity ids, day numbers, valences, row ids) of every row in the
        person's matrix, read together under the lock (a commit patches the matrix in place)."""
        matrix = self.matrix(person_id, kind)
        with self._lock:
            n = matrix.n
            return (matrix.vectors[:n] @ query, matrix.entity[:n].copy(), matrix.day[:n].copy(),
                    matrix.valence[:n].copy(), matrix.ids[:n].copy())

    def drop_person_caches(self, *person_ids: int) -> None:
        """Forget the in-memory matrices of people whose rows moved or went (merge, forget): they
        are read again from the tables on next use."""
        with self._lock:
            for pid in person_ids:
                for kind in (ITEM, PERSONA):
                    self._matrices.pop((pid, kind), None)
            self.generation += 1

    def search(self, person_id: int, query: np.ndarray, k: int, kind: str = ITEM) -> list[tuple[int, float]]:
        """(id, cosine similarity) of this person's nearest rows, from the in-memory matrix."""
        return self.matrix(person_id, kind).search(np.asarray(query, dtype=np.float32), k)

    def search_sql(self, person_id: int, query: np.ndarray, k: int, kind: str = ITEM) -> list[tuple[int, float]]:
        """The same search done by sqlite-vec's KNN on the person's partition (no cache needed)."""
        table, col = _VEC_TABLE[kind]
        rows = self.rows(f"SELECT {col}, distance FROM {table} WHERE embedding MATCH ? AND k = ? AND person_id = ?",
                          (vector_blob(query, ITEM_DIM), k, person_id))
        return [(int(key), 1.0 - float(d)) for key, d in rows]
