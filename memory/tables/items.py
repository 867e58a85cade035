"""The items and item_versions tables: memories, each a chain of versions (an update writes a new one)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from ..db import timestamp
from ..errors import MemoryStoreError
from ..vectors import RowMeta, day_number
from .vectors import ITEM


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


class ItemTables:
    """A part of MemoryStore: it alone writes `items` and `item_versions` (and, through the
    vector tables, an item's vector)."""

    def add_item(self, person_id: int, entity_id: int | None, version: dict, embedding: np.ndarray,
                 now: datetime, kind: str = "summary") -> tuple[int, int]:
        """A new item with its first version; returns (item_id, version_id). kind: 'fact' or 'summary'."""
        with self.transaction():
            item_id = self.execute("INSERT INTO items(person_id, entity_id, created, updated, kind) VALUES (?, ?, ?, ?, ?)",
                                 (person_id, entity_id, timestamp(now), timestamp(now), kind)).lastrowid
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

    def take_back(self, person_id: int, item_id: int, to: Version, embedding: np.ndarray) -> None:
        """The versions written after `to` deleted (asked for by the person: "forget that"), and `to`
        in force again with its vector; an integrative summary keeps what the turns before it told."""
        with self.transaction():
            row = self.execute("SELECT person_id, entity_id, kind FROM items WHERE id = ?", (item_id,)).fetchone()
            if row is None or row[0] != person_id:
                raise MemoryStoreError(f"person {person_id} has no memory item {item_id}")
            chain = [v.id for v in self.history(item_id)]  # newest first
            if to.id not in chain:
                raise MemoryStoreError(f"version {to.id} is not in the history of memory item {item_id}")
            newer = chain[:chain.index(to.id)]
            if newer:
                self.execute(f"DELETE FROM item_versions WHERE id IN ({', '.join('?' * len(newer))})", newer)
            self.execute("UPDATE items SET current_version = ? WHERE id = ?", (to.id, item_id))
            self._set_vector(ITEM, person_id, item_id, embedding,
                             _item_meta(row[1], {"said_at": to.said_at, "emotion": to.emotion}, row[2] == "summary"))

    def _write_version(self, item_id: int, previous: int | None, v: dict, now: datetime) -> int:
        vid = self.execute(
            "INSERT INTO item_versions(item_id, previous_id, text, history, current, said_at, happens_at, emotion, "
            "cause, provenance, method, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (item_id, previous, v["text"], v.get("history", ""), v.get("current", ""), timestamp(v["said_at"]),
             v.get("happens_at"), v.get("emotion"), v.get("cause"), json.dumps(list(v.get("provenance", []))),
             v.get("method", "new"), timestamp(now))).lastrowid
        self.execute("UPDATE items SET current_version = ?, updated = ? WHERE id = ?", (vid, timestamp(now), item_id))
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

    def items_of_person(self, person_id: int) -> list[tuple[int, int | None, str, str, Version]]:
        """(item id, entity id, kind, created, current version) of every item of the person, the most
        recently updated first."""
        rows = self.rows(f"SELECT i.id, i.entity_id, i.kind, i.created, {self._VCOLS} FROM items i "
                         "JOIN item_versions v ON v.id = i.current_version WHERE i.person_id = ? "
                         "ORDER BY i.updated DESC, i.id DESC", (person_id,))
        return [(r[0], r[1], r[2], r[3], self._version(r[4:])) for r in rows]

    def count_items(self, person_id: int) -> int:
        return self.rows("SELECT count(*) FROM items WHERE person_id = ?", (person_id,))[0][0]


def _item_meta(entity_id: int | None, version: dict, summary: bool) -> RowMeta:
    from ..affect import valence_of

    happens = version.get("happens_at")
    return RowMeta(entity_id if entity_id is not None else -1, day_number(version["said_at"]),
                   valence_of(version.get("emotion")), summary, day_number(happens) if happens else 0.0)
