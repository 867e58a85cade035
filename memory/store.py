"""The memory store: one SQLite file with sqlite-vec, scoped by person in every query.

Writes happen inside `with store.transaction():` (nested blocks join the outer one); a failure rolls
everything in the block back, so a crash mid-update leaves the previous version as it was. Each
group of tables has one owner in memory/tables/ (people, conversation, graph, items, persona_nodes,
clusters, vectors, and recallable for ranking's reads); MemoryStore is all of them over one connection.
Vectors are also kept as per-person numpy matrices, a cache derived from sqlite-vec's tables
(memory/tables/vectors.py), so a search over 100k items costs one matrix product.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path

from . import db
from .errors import MemoryStoreError
from .tables.clusters import ClusterTables
from .tables.conversation import ConversationTables
from .tables.graph import Entity, GraphTables
from .tables.items import ItemTables, Version
from .tables.people import PeopleTables
from .tables.persona_nodes import PersonaTables
from .tables.recallable import Memory, RecallableRows
from .tables.vectors import ITEM, PERSONA, PendingLoad, VectorTables
from .vectors import Matrix, day_number

__all__ = ["ITEM", "PERSONA", "Entity", "Memory", "MemoryStore", "Version", "day_number"]


class MemoryStore(PeopleTables, ConversationTables, GraphTables, ItemTables, PersonaTables, ClusterTables,
                  RecallableRows, VectorTables):
    """Open with `MemoryStore(path)`; raises MemoryStoreError (one line) when the file is unusable."""

    def __init__(self, path: Path, timeout: float = 2.0, embedder=None) -> None:
        self.path = Path(path)
        self.embedder = embedder  # models.embedder.TextEmbedder: what a person's memory embeds text with
        self.conn = db.connect(self.path, timeout)
        self._sqlite = db.sqlite_module()
        self._lock = threading.RLock()
        self._depth = 0
        self._pending: list[tuple] = []
        self._matrices: dict[tuple[int, str], Matrix] = {}
        self._loading: dict[tuple[int, str], PendingLoad] = {}  # matrices being read in the background
        self._schemas: dict[str, int] = {}
        self.generation = 0   # bumped whenever an in-memory matrix changes (recall caches key on it)
        self._load_schemas()

    # -- plumbing -----------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> "MemoryStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    @contextmanager
    def transaction(self):
        with self._lock:
            outer = self._depth == 0
            if outer:
                self.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self
            except BaseException:
                self._depth -= 1
                if outer:
                    self.conn.execute("ROLLBACK")
                    self._pending.clear()
                    self._load_schemas()
                raise
            self._depth -= 1
            if outer:
                self.execute("COMMIT")
                for op in self._pending:
                    self._apply(*op)
                self._pending.clear()

    def execute(self, sql: str, params: tuple = ()):
        """One statement; a database error becomes a one-line MemoryStoreError. Callers that write
        hold `transaction()` (the speaker book keeps its own SQL and uses this)."""
        try:
            return self.conn.execute(sql, params)
        except self._sqlite.Error as exc:
            msg = db.one_line(exc)
            if db.is_locked(exc):
                raise MemoryStoreError(f"the memory store {self.path} is locked by another program; "
                                       "nothing was written") from None
            raise MemoryStoreError(f"memory store error ({msg})") from None

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """All rows of one query, read under the store's lock."""
        with self._lock:
            return self.execute(sql, params).fetchall()
