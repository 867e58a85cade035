"""The memory store: one SQLite file with sqlite-vec, scoped by person in every query.

Writes happen inside `with store.transaction():` (nested blocks join the outer one); a failure rolls
everything in the block back, so a crash mid-update leaves the previous version as it was. Vectors
are also kept as per-person numpy matrices in memory, loaded on first use and kept in step on commit,
so a search over 100k items costs one matrix product.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from . import db
from .errors import MemoryStoreError
from .schema import ITEM_DIM, VOICE_DIM
from .vectors import Matrix as _Matrix, RowMeta, day_number  # noqa: F401 (day_number: re-exported)

ITEM, PERSONA = "item", "persona"
_VEC_TABLE = {ITEM: ("item_vec", "item_id"), PERSONA: ("persona_vec", "persona_id")}


def _ts(value: datetime | str) -> str:
    return value if isinstance(value, str) else value.isoformat(timespec="seconds")


def _blob(vector: np.ndarray, dim: int) -> bytes:
    vector = np.asarray(vector, dtype=np.float32).reshape(-1)
    if vector.shape[0] != dim:
        raise ValueError(f"expected a {dim}-d vector, got {vector.shape[0]}")
    return vector.tobytes()


@dataclass
class Entity:
    id: int
    person_id: int
    name: str
    schema: str
    aliases: list[str]
    last_seen: str


@dataclass
class Version:
    id: int
    item_id: int
    previous_id: int | None
    text: str
    history: str
    current: str
    said_at: str
    happens_at: str | None
    emotion: str | None
    cause: str | None
    provenance: list[int]
    method: str
    created: str


@dataclass
class Memory:
    """One recallable row: a current item version or a persona node, with what ranking needs."""
    id: int
    kind: str  # "item" | "persona"
    text: str
    entity_id: int | None
    entity: str | None
    schema: str | None
    said_at: str
    valence: float = 0.0
    provenance: list[int] = field(default_factory=list)
    persona_kind: str | None = None
    item_kind: str | None = None   # items: "fact" | "summary"


class MemoryStore:
    """Open with `MemoryStore(path)`; raises MemoryStoreError (one line) when the file is unusable."""

    def __init__(self, path: Path, timeout: float = 2.0, embedder=None) -> None:
        self.path = Path(path)
        self.embedder = embedder  # models.embedder.TextEmbedder: what a person's memory embeds text with
        self.conn = db.connect(self.path, timeout)
        self._sqlite = db.sqlite_module()
        self._lock = threading.RLock()
        self._depth = 0
        self._pending: list[tuple] = []
        self._matrices: dict[tuple[int, str], _Matrix] = {}
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

    # -- people, voiceprints, sessions, turns --------------------------------------------------

    def add_person(self, name: str, provisional: bool = False, now: datetime | None = None) -> int:
        with self.transaction():
            cur = self.execute("INSERT INTO people(name, provisional, created) VALUES (?, ?, ?)",
                             (name, int(provisional), _ts(now or datetime.now())))
            return cur.lastrowid

    def person(self, person_id: int) -> dict | None:
        rows = self.rows("SELECT id, name, provisional, created FROM people WHERE id = ?", (person_id,))
        return dict(zip(("id", "name", "provisional", "created"), rows[0])) if rows else None

    def find_person(self, name: str) -> int | None:
        rows = self.rows("SELECT id FROM people WHERE name = ? ORDER BY id LIMIT 1", (name,))
        return rows[0][0] if rows else None

    def add_voiceprint(self, person_id: int, embedding: np.ndarray, now: datetime | None = None) -> int:
        with self.transaction():
            vid = self.execute("INSERT INTO voiceprints(person_id, created) VALUES (?, ?)",
                             (person_id, _ts(now or datetime.now()))).lastrowid
            self.execute("INSERT INTO voiceprint_vec(voiceprint_id, embedding) VALUES (?, ?)",
                       (vid, _blob(embedding, VOICE_DIM)))
            return vid

    def match_voiceprint(self, embedding: np.ndarray, k: int = 3) -> list[tuple[int, float]]:
        """(person_id, cosine distance) of the nearest voiceprints, nearest first."""
        rows = self.rows("SELECT v.person_id, m.distance FROM (SELECT voiceprint_id, distance FROM voiceprint_vec "
                          "WHERE embedding MATCH ? AND k = ?) m JOIN voiceprints v ON v.id = m.voiceprint_id "
                          "ORDER BY m.distance", (_blob(embedding, VOICE_DIM), k))
        return [(int(p), float(d)) for p, d in rows]

    def start_session(self, person_id: int, started: datetime) -> int:
        with self.transaction():
            return self.execute("INSERT INTO sessions(person_id, started) VALUES (?, ?)",
                              (person_id, _ts(started))).lastrowid

    def end_session(self, session_id: int, ended: datetime) -> None:
        with self.transaction():
            self.execute("UPDATE sessions SET ended = ? WHERE id = ?", (_ts(ended), session_id))

    def add_turn(self, person_id: int, session_id: int, role: str, text: str, said_at: datetime) -> int:
        with self.transaction():
            return self.execute("INSERT INTO turns(person_id, session_id, role, text, said_at) VALUES (?, ?, ?, ?, ?)",
                              (person_id, session_id, role, text, _ts(said_at))).lastrowid

    def turns(self, person_id: int, session_id: int | None = None) -> list[dict]:
        sql = "SELECT id, session_id, role, text, said_at FROM turns WHERE person_id = ?"
        params: tuple = (person_id,)
        if session_id is not None:
            sql += " AND session_id = ?"
            params += (session_id,)
        rows = self.rows(sql + " ORDER BY id", params)
        return [dict(zip(("id", "session_id", "role", "text", "said_at"), r)) for r in rows]

    # -- schemas, entities, edges --------------------------------------------------------------

    def _load_schemas(self) -> None:
        self._schemas = {name: sid for sid, name in self.rows("SELECT id, name FROM schemas")}

    def schemas(self) -> list[str]:
        return list(self._schemas)

    def schema_id(self, name: str) -> int:
        name = name.strip().lower()
        if name not in self._schemas:
            with self.transaction():
                self.execute("INSERT OR IGNORE INTO schemas(name) VALUES (?)", (name,))
                self._schemas[name] = self.execute("SELECT id FROM schemas WHERE name = ?", (name,)).fetchone()[0]
        return self._schemas[name]

    def entities(self, person_id: int) -> list[Entity]:
        rows = self.rows("SELECT e.id, e.person_id, e.name, s.name, e.aliases, e.last_seen FROM entities e "
                          "JOIN schemas s ON s.id = e.schema_id WHERE e.person_id = ? ORDER BY e.id", (person_id,))
        return [Entity(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    def add_entity(self, person_id: int, name: str, schema: str, aliases: list[str], now: datetime) -> int:
        sid = self.schema_id(schema)
        with self.transaction():
            row = self.execute("SELECT id, aliases FROM entities WHERE person_id = ? AND name = ?",
                             (person_id, name)).fetchone()
            if row:
                merged = sorted(set(json.loads(row[1])) | set(aliases))
                self.execute("UPDATE entities SET aliases = ?, last_seen = ? WHERE id = ?",
                           (json.dumps(merged), _ts(now), row[0]))
                return row[0]
            return self.execute("INSERT INTO entities(person_id, schema_id, name, aliases, created, last_seen) "
                              "VALUES (?, ?, ?, ?, ?, ?)",
                              (person_id, sid, name, json.dumps(sorted(set(aliases))), _ts(now), _ts(now))).lastrowid

    def touch_entity(self, entity_id: int, aliases: list[str], now: datetime) -> None:
        with self.transaction():
            row = self.execute("SELECT aliases FROM entities WHERE id = ?", (entity_id,)).fetchone()
            merged = sorted(set(json.loads(row[0])) | set(aliases))
            self.execute("UPDATE entities SET aliases = ?, last_seen = ? WHERE id = ?",
                       (json.dumps(merged), _ts(now), entity_id))

    def add_edge(self, person_id: int, a: int, b: int, kind: str, weight: float = 1.0) -> None:
        if a == b:
            return
        a, b = min(a, b), max(a, b)
        with self.transaction():
            self.execute("INSERT INTO edges(person_id, a, b, kind, weight) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT(a, b, kind) DO UPDATE SET weight = weight + excluded.weight",
                       (person_id, a, b, kind, weight))

    def edges(self, person_id: int) -> list[tuple[int, int, str]]:
        """Every edge of the person's entity graph: (a, b, 'strong' | 'weak')."""
        return [(a, b, k) for a, b, k in self.rows("SELECT a, b, kind FROM edges WHERE person_id = ?", (person_id,))]

    def neighbours(self, person_id: int, entity_ids: list[int]) -> dict[int, str]:
        """One hop along edges: entity id -> 'strong' or 'weak' (strong wins)."""
        if not entity_ids:
            return {}
        marks = ",".join("?" * len(entity_ids))
        rows = self.rows(f"SELECT a, b, kind FROM edges WHERE person_id = ? AND (a IN ({marks}) OR b IN ({marks}))",
                          (person_id, *entity_ids, *entity_ids))
        found: dict[int, str] = {}
        seeds = set(entity_ids)
        for a, b, kind in rows:
            other = b if a in seeds else a
            if other not in seeds and found.get(other) != "strong":
                found[other] = kind
        return found

    # -- items and their versions --------------------------------------------------------------

    def add_item(self, person_id: int, entity_id: int | None, version: dict, embedding: np.ndarray,
                 now: datetime, kind: str = "summary") -> tuple[int, int]:
        """A new item with its first version; returns (item_id, version_id). kind: 'fact' or 'summary'."""
        with self.transaction():
            item_id = self.execute("INSERT INTO items(person_id, entity_id, created, updated, kind) VALUES (?, ?, ?, ?, ?)",
                                 (person_id, entity_id, _ts(now), _ts(now), kind)).lastrowid
            vid = self._write_version(item_id, None, version, now)
            self._set_vector(ITEM, person_id, item_id, embedding,
                             _item_meta(entity_id, version, kind == "summary"))
            return item_id, vid

    def update_item(self, item_id: int, version: dict, embedding: np.ndarray, now: datetime) -> int:
        """A new version of an item, linked to the one it replaces; the old version stays."""
        with self.transaction():
            row = self.execute("SELECT person_id, current_version, entity_id, kind FROM items WHERE id = ?",
                             (item_id,)).fetchone()
            if row is None:
                raise MemoryStoreError(f"no memory item {item_id}")
            person_id, previous, entity_id, kind = row
            vid = self._write_version(item_id, previous, version, now)
            self._set_vector(ITEM, person_id, item_id, embedding, _item_meta(entity_id, version, kind == "summary"))
            return vid

    def forget_item(self, person_id: int, item_id: int) -> None:
        """Delete one memory item, every version of it and its vector (asked for by the person).
        The raw turns it was made from stay, as all raw turns do."""
        with self.transaction():
            row = self.execute("SELECT person_id FROM items WHERE id = ?", (item_id,)).fetchone()
            if row is None or row[0] != person_id:
                raise MemoryStoreError(f"person {person_id} has no memory item {item_id}")
            self.execute("DELETE FROM item_versions WHERE item_id = ?", (item_id,))
            self.execute("DELETE FROM items WHERE id = ?", (item_id,))
            self.execute("DELETE FROM item_vec WHERE item_id = ?", (item_id,))
            self._pending.append((ITEM, person_id, item_id, None, None))

    def _write_version(self, item_id: int, previous: int | None, v: dict, now: datetime) -> int:
        vid = self.execute(
            "INSERT INTO item_versions(item_id, previous_id, text, history, current, said_at, happens_at, emotion, "
            "cause, provenance, method, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (item_id, previous, v["text"], v.get("history", ""), v.get("current", ""), _ts(v["said_at"]),
             v.get("happens_at"), v.get("emotion"), v.get("cause"), json.dumps(list(v.get("provenance", []))),
             v.get("method", "new"), _ts(now))).lastrowid
        self.execute("UPDATE items SET current_version = ?, updated = ? WHERE id = ?", (vid, _ts(now), item_id))
        return vid

    def _version(self, row) -> Version:
        return Version(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9],
                       json.loads(row[10]), row[11], row[12])

    _VCOLS = ("v.id, v.item_id, v.previous_id, v.text, v.history, v.current, v.said_at, v.happens_at, v.emotion, "
              "v.cause, v.provenance, v.method, v.created")

    def current_version(self, item_id: int) -> Version | None:
        rows = self.rows(f"SELECT {self._VCOLS} FROM items i JOIN item_versions v ON v.id = i.current_version "
                          "WHERE i.id = ?", (item_id,))
        return self._version(rows[0]) if rows else None

    def history(self, item_id: int) -> list[Version]:
        """Every version of an item, newest first, following the chain of previous versions."""
        by_id = {r[0]: self._version(r) for r in
                 self.rows(f"SELECT {self._VCOLS} FROM item_versions v WHERE v.item_id = ?", (item_id,))}
        current = self.current_version(item_id)
        chain, vid = [], current.id if current else None
        while vid is not None and vid in by_id:
            chain.append(by_id[vid])
            vid = by_id[vid].previous_id
        return chain

    def items_of_entity(self, person_id: int, entity_id: int, kind: str | None = None) -> list[tuple[int, Version]]:
        """(item id, current version) of an entity's items, newest first; kind 'fact' / 'summary' / None for both."""
        sql = (f"SELECT i.id, {self._VCOLS} FROM items i JOIN item_versions v ON v.id = i.current_version "
               "WHERE i.person_id = ? AND i.entity_id = ?")
        params: tuple = (person_id, entity_id)
        if kind:
            sql += " AND i.kind = ?"
            params += (kind,)
        rows = self.rows(sql + " ORDER BY i.updated DESC, i.id DESC", params)
        return [(r[0], self._version(r[1:])) for r in rows]

    def count_items(self, person_id: int) -> int:
        return self.rows("SELECT count(*) FROM items WHERE person_id = ?", (person_id,))[0][0]

    # -- persona nodes -------------------------------------------------------------------------

    def upsert_persona(self, person_id: int, kind: str, entity_id: int | None, node: dict, embedding: np.ndarray,
                       now: datetime, node_id: int | None = None) -> int:
        fields = (node["text"], node.get("affect"), float(node.get("valence", 0.0)), float(node.get("arousal", 0.0)),
                  node.get("cause"), json.dumps(list(node.get("evidence", []))), float(node.get("confidence", 0.5)))
        with self.transaction():
            if node_id is None:
                node_id = self.execute(
                    "INSERT INTO persona(person_id, kind, entity_id, text, affect, valence, arousal, cause, evidence, "
                    "confidence, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (person_id, kind, entity_id, *fields, _ts(now), _ts(now))).lastrowid
            else:
                self.execute("UPDATE persona SET text = ?, affect = ?, valence = ?, arousal = ?, cause = ?, evidence = ?, "
                           "confidence = ?, updated = ? WHERE id = ? AND person_id = ?",
                           (*fields, _ts(now), node_id, person_id))
            from .affect import clamp_valence

            self._set_vector(PERSONA, person_id, node_id, embedding,
                             RowMeta(entity_id if entity_id is not None else -1, day_number(now),
                                     clamp_valence(fields[2]), kind == "cross"))
            return node_id

    def persona(self, person_id: int, kind: str | None = None, entity_id: int | None = None) -> list[dict]:
        sql = ("SELECT id, kind, entity_id, text, affect, valence, arousal, cause, evidence, confidence, created, "
               "updated FROM persona WHERE person_id = ?")
        params: tuple = (person_id,)
        if kind:
            sql += " AND kind = ?"
            params += (kind,)
        if entity_id is not None:
            sql += " AND entity_id = ?"
            params += (entity_id,)
        keys = ("id", "kind", "entity_id", "text", "affect", "valence", "arousal", "cause", "evidence", "confidence",
                "created", "updated")
        out = []
        for r in self.rows(sql + " ORDER BY id", params):
            d = dict(zip(keys, r))
            d["evidence"] = json.loads(d["evidence"])
            out.append(d)
        return out

    # -- recallable rows -----------------------------------------------------------------------

    def memories(self, person_id: int, item_ids: list[int] = (), persona_ids: list[int] = ()) -> list[Memory]:
        """Ranking's view of the given rows, always filtered by person."""
        out: list[Memory] = []
        for chunk in _chunks(list(item_ids)):
            marks = ",".join("?" * len(chunk))
            for r in self.rows(
                    "SELECT i.id, v.text, i.entity_id, e.name, s.name, v.said_at, v.provenance, v.emotion, i.kind "
                    "FROM items i JOIN item_versions v ON v.id = i.current_version "
                    "LEFT JOIN entities e ON e.id = i.entity_id LEFT JOIN schemas s ON s.id = e.schema_id "
                    f"WHERE +i.person_id = ? AND i.id IN ({marks})", (person_id, *chunk)):  # by rowid, not by person
                from .affect import valence_of

                out.append(Memory(r[0], ITEM, r[1], r[2], r[3], r[4], r[5], valence_of(r[7]), json.loads(r[6]),
                                  item_kind=r[8]))
        for chunk in _chunks(list(persona_ids)):
            marks = ",".join("?" * len(chunk))
            for r in self.rows(
                    "SELECT p.id, p.text, p.entity_id, e.name, s.name, p.updated, p.evidence, p.valence, p.kind "
                    "FROM persona p LEFT JOIN entities e ON e.id = p.entity_id LEFT JOIN schemas s ON s.id = e.schema_id "
                    f"WHERE +p.person_id = ? AND p.id IN ({marks})", (person_id, *chunk)):
                out.append(Memory(r[0], PERSONA, r[1], r[2], r[3], r[4], r[5], r[7], json.loads(r[6]), r[8]))
        return out

    def neighbourhood(self, person_id: int, entity_ids: list[int]) -> tuple[list[int], list[int]]:
        """Current item ids and cross-entity persona ids attached to these entities (person-scoped)."""
        if not entity_ids:
            return [], []
        items, nodes = [], []
        for chunk in _chunks(list(entity_ids)):
            marks = ",".join("?" * len(chunk))
            items += [r[0] for r in self.rows(
                f"SELECT id FROM items WHERE person_id = ? AND entity_id IN ({marks})", (person_id, *chunk))]
            nodes += [r[0] for r in self.rows(
                f"SELECT id FROM persona WHERE person_id = ? AND kind = 'cross' AND entity_id IN ({marks})",
                (person_id, *chunk))]
        return items, nodes

    def independent_persona_ids(self, person_id: int) -> list[int]:
        return [r[0] for r in self.rows("SELECT id FROM persona WHERE person_id = ? AND kind = 'independent'",
                                         (person_id,))]

    # -- vectors -------------------------------------------------------------------------------

    def _set_vector(self, kind: str, person_id: int, key: int, embedding: np.ndarray,
                    meta: RowMeta | None = None) -> None:
        table, col = _VEC_TABLE[kind]
        vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
        self.execute(f"DELETE FROM {table} WHERE {col} = ?", (key,))
        self.execute(f"INSERT INTO {table}({col}, person_id, embedding) VALUES (?, ?, ?)",
                   (key, person_id, _blob(vector, ITEM_DIM)))
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
        from .affect import clamp_valence, valence_of

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
        for chunk in _chunks(keys):
            for r in self.rows(sql + f" AND {col} IN ({','.join('?' * len(chunk))})", (person_id, *chunk)):
                out[r[0]] = conv(r)
        return out

    def matrix(self, person_id: int, kind: str) -> _Matrix:
        key = (person_id, kind)
        with self._lock:
            if key not in self._matrices:
                table, col = _VEC_TABLE[kind]
                rows = self.rows(f"SELECT {col}, embedding FROM {table} WHERE person_id = ?", (person_id,))
                ids = np.array([r[0] for r in rows], dtype=np.int64)
                vectors = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), ITEM_DIM)
                           if rows else np.zeros((0, ITEM_DIM), dtype=np.float32))
                metas = self._metas(kind, person_id)
                self._matrices[key] = _Matrix(ids, vectors, [metas.get(int(i), RowMeta()) for i in ids])
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
                          (_blob(query, ITEM_DIM), k, person_id))
        return [(int(key), 1.0 - float(d)) for key, d in rows]


def _item_meta(entity_id: int | None, version: dict, summary: bool) -> RowMeta:
    from .affect import valence_of

    return RowMeta(entity_id if entity_id is not None else -1, day_number(version["said_at"]),
                   valence_of(version.get("emotion")), summary)


def _chunks(values: list, size: int = 500):
    for i in range(0, len(values), size):
        yield values[i:i + size]
