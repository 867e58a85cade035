"""The schemas, entities and edges tables: the things a person talks about, by kind, and how they connect."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from ..db import timestamp


@dataclass
class Entity:
    id: int
    person_id: int
    name: str
    schema: str
    aliases: list[str]
    last_seen: str


class GraphTables:
    """A part of MemoryStore: it alone writes `schemas`, `entities` and `edges`."""

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
                           (json.dumps(merged), timestamp(now), row[0]))
                return row[0]
            return self.execute("INSERT INTO entities(person_id, schema_id, name, aliases, created, last_seen) "
                              "VALUES (?, ?, ?, ?, ?, ?)",
                              (person_id, sid, name, json.dumps(sorted(set(aliases))), timestamp(now), timestamp(now))).lastrowid

    def touch_entity(self, entity_id: int, aliases: list[str], now: datetime) -> None:
        with self.transaction():
            row = self.execute("SELECT aliases FROM entities WHERE id = ?", (entity_id,)).fetchone()
            merged = sorted(set(json.loads(row[0])) | set(aliases))
            self.execute("UPDATE entities SET aliases = ?, last_seen = ? WHERE id = ?",
                       (json.dumps(merged), timestamp(now), entity_id))

    def rename_entity(self, entity_id: int, name: str, now: datetime) -> None:
        """The person said it is called something else: the old name is not kept as an alias (it was wrong)."""
        with self.transaction():
            row = self.execute("SELECT name, aliases FROM entities WHERE id = ?", (entity_id,)).fetchone()
            aliases = sorted(set(json.loads(row[1])) - {row[0].lower(), row[0]})
            self.execute("UPDATE entities SET name = ?, aliases = ?, last_seen = ? WHERE id = ?",
                         (name, json.dumps(aliases), timestamp(now), entity_id))

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
