"""Recall's view of the tables: item versions and persona nodes with their entities, always by person. Reads only."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..db import chunks
from .vectors import ITEM, PERSONA


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


@dataclass(frozen=True)
class Summary:
    """An entity's integrative memory: what is true now (`current`) and what came before (`history`),
    and the turns it was written from."""
    id: int
    entity_id: int
    text: str
    said_at: str
    current: str
    history: str
    provenance: list[int]


class RecallableRows:
    """A part of MemoryStore that reads items, persona nodes and entities together for ranking."""

    def memories(self, person_id: int, item_ids: list[int] = (), persona_ids: list[int] = ()) -> list[Memory]:
        """Ranking's view of the given rows, always filtered by person."""
        out: list[Memory] = []
        for chunk in chunks(list(item_ids)):
            marks = ",".join("?" * len(chunk))
            for r in self.rows(
                    "SELECT i.id, v.text, i.entity_id, e.name, s.name, v.said_at, v.provenance, v.emotion, i.kind "
                    "FROM items i JOIN item_versions v ON v.id = i.current_version "
                    "LEFT JOIN entities e ON e.id = i.entity_id LEFT JOIN schemas s ON s.id = e.schema_id "
                    f"WHERE +i.person_id = ? AND i.id IN ({marks})", (person_id, *chunk)):  # by rowid, not by person
                from ..affect import valence_of

                out.append(Memory(r[0], ITEM, r[1], r[2], r[3], r[4], r[5], valence_of(r[7]), json.loads(r[6]),
                                  item_kind=r[8]))
        for chunk in chunks(list(persona_ids)):
            marks = ",".join("?" * len(chunk))
            for r in self.rows(
                    "SELECT p.id, p.text, p.entity_id, e.name, s.name, p.updated, p.evidence, p.valence, p.kind "
                    "FROM persona p LEFT JOIN entities e ON e.id = p.entity_id LEFT JOIN schemas s ON s.id = e.schema_id "
                    f"WHERE +p.person_id = ? AND p.id IN ({marks})", (person_id, *chunk)):
                out.append(Memory(r[0], PERSONA, r[1], r[2], r[3], r[4], r[5], r[7], json.loads(r[6]), r[8]))
        return out

    def summaries_of(self, person_id: int, entity_ids: list[int]) -> list[Summary]:
        """The integrative memories (summary items) filed under these entities, as they stand now."""
        out: list[Summary] = []
        for chunk in chunks(sorted(set(entity_ids))):
            marks = ",".join("?" * len(chunk))
            out += [Summary(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in self.rows(
                "SELECT i.id, i.entity_id, v.text, v.said_at, v.current, v.history, v.provenance "
                "FROM items i JOIN item_versions v ON v.id = i.current_version "
                f"WHERE i.person_id = ? AND i.kind = 'summary' AND i.entity_id IN ({marks})", (person_id, *chunk))]
        return out

    def neighbourhood(self, person_id: int, entity_ids: list[int]) -> tuple[list[int], list[int]]:
        """Current item ids and cross-entity persona ids attached to these entities (person-scoped)."""
        if not entity_ids:
            return [], []
        items, nodes = [], []
        for chunk in chunks(list(entity_ids)):
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
