"""Per-person vectors kept in memory beside the SQLite tables: one matrix product scores them all.

A `Matrix` holds ids, an (n, d) float32 matrix and each row's ranking metadata; the store keeps
one per person and kind, loaded on first use and kept in step with every commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np

from .schema import ITEM_DIM


def day_number(said_at: datetime | str) -> float:
    """A date-time as days since 1970 (what the matrices keep for recency)."""
    when = datetime.fromisoformat(said_at) if isinstance(said_at, str) else said_at
    return when.timestamp() / 86400 if when.tzinfo else (when - datetime(1970, 1, 1)).total_seconds() / 86400


@dataclass(frozen=True)
class RowMeta:
    """What ranking needs of a row besides its vector, kept beside it so a recall needs no SQL to score."""
    entity: int = -1          # entity id, -1 for none
    day: float = 0.0          # when it was said, days since 1970
    valence: float = 0.0
    summary: bool = False     # an entity's integrative summary (items) / a cross-entity node (persona)
    happens: float = 0.0      # the day what it tells of happens, days since 1970 (0: it names none)


class Matrix:
    """A person's vectors of one kind: ids, an (n, d) matrix and per-row metadata, grown in place.

    Mutated only under the store's lock; readers take the same lock for the few milliseconds a
    matrix product takes."""

    def __init__(self, ids: np.ndarray, vectors: np.ndarray, metas: list[RowMeta] | None = None) -> None:
        self.n = len(ids)
        cap = max(16, self.n)
        self.ids = np.zeros(cap, dtype=np.int64)
        self.vectors = np.zeros((cap, vectors.shape[1] if vectors.ndim == 2 else ITEM_DIM), dtype=np.float32)
        self.entity = np.full(cap, -1, dtype=np.int64)
        self.day = np.zeros(cap, dtype=np.float64)
        self.valence = np.zeros(cap, dtype=np.float32)
        self.summary = np.zeros(cap, dtype=bool)
        self.happens = np.zeros(cap, dtype=np.float64)
        self.ids[:self.n] = ids
        if self.n:
            self.vectors[:self.n] = vectors
        for r, m in enumerate(metas or []):
            self._set_meta(r, m)
        self.row = {int(i): r for r, i in enumerate(ids)}

    def _set_meta(self, r: int, m: RowMeta | None) -> None:
        if m is not None:
            self.entity[r], self.day[r], self.valence[r], self.summary[r] = m.entity, m.day, m.valence, m.summary
            self.happens[r] = m.happens

    def _grow(self) -> None:
        cap = 2 * max(self.n, 8)
        self.ids = np.resize(self.ids, cap)
        grown = np.zeros((cap, self.vectors.shape[1]), dtype=np.float32)
        grown[:self.n] = self.vectors[:self.n]
        self.vectors = grown
        for name, fill in (("entity", -1), ("day", 0), ("valence", 0), ("summary", False), ("happens", 0)):
            old = getattr(self, name)
            new = np.full(cap, fill, dtype=old.dtype)
            new[:self.n] = old[:self.n]
            setattr(self, name, new)

    def put(self, key: int, vector: np.ndarray, meta: RowMeta | None = None) -> None:
        r = self.row.get(key)
        if r is None:
            if self.n == len(self.ids):
                self._grow()
            r = self.n
            self.n += 1
            self.row[key] = r
            self.ids[r] = key
        self.vectors[r] = vector
        self._set_meta(r, meta)

    def remove(self, key: int) -> None:
        r = self.row.pop(key, None)
        if r is None:
            return
        last = self.n - 1
        if r != last:
            moved = int(self.ids[last])
            self.ids[r] = moved
            self.vectors[r] = self.vectors[last]
            for name in ("entity", "day", "valence", "summary"):
                arr = getattr(self, name)
                arr[r] = arr[last]
            self.row[moved] = r
        self.n = last

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        if self.n == 0:
            return []
        scores = self.vectors[:self.n] @ query
        k = min(k, self.n)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(int(self.ids[i]), float(scores[i])) for i in top]

    def scores(self, keys: list[int], query: np.ndarray) -> np.ndarray:
        rows = [self.row[k] for k in keys]
        return self.vectors[rows] @ query if rows else np.zeros(0, dtype=np.float32)
