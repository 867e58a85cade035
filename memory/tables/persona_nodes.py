"""The persona table: what Hearth has gathered of how the person feels and what they are like."""

from __future__ import annotations

import json
from datetime import datetime

import numpy as np

from ..db import timestamp
from ..vectors import RowMeta, day_number
from .vectors import PERSONA


class PersonaTables:
    """A part of MemoryStore: it alone writes `persona` (and, through the vector tables, a node's vector)."""

    def upsert_persona(self, person_id: int, kind: str, entity_id: int | None, node: dict, embedding: np.ndarray,
                       now: datetime, node_id: int | None = None) -> int:
        fields = (node["text"], node.get("affect"), float(node.get("valence", 0.0)), float(node.get("arousal", 0.0)),
                  node.get("cause"), json.dumps(list(node.get("evidence", []))), float(node.get("confidence", 0.5)))
        with self.transaction():
            if node_id is None:
                node_id = self.execute(
                    "INSERT INTO persona(person_id, kind, entity_id, text, affect, valence, arousal, cause, evidence, "
                    "confidence, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (person_id, kind, entity_id, *fields, timestamp(now), timestamp(now))).lastrowid
            else:
                self.execute("UPDATE persona SET text = ?, affect = ?, valence = ?, arousal = ?, cause = ?, evidence = ?, "
                           "confidence = ?, updated = ? WHERE id = ? AND person_id = ?",
                           (*fields, timestamp(now), node_id, person_id))
            from ..affect import clamp_valence

            self._set_vector(PERSONA, person_id, node_id, embedding,
                             RowMeta(entity_id if entity_id is not None else -1, day_number(now),
                                     clamp_valence(fields[2]), kind == "cross"))
            return node_id

    def forget_persona(self, person_id: int, node_id: int) -> None:
        """Delete one persona node and its vector (asked for by the person); the turns it was
        gathered from stay, as all raw turns do."""
        with self.transaction():
            self.execute("DELETE FROM persona WHERE id = ? AND person_id = ?", (node_id, person_id))
            self.execute("DELETE FROM persona_vec WHERE persona_id = ?", (node_id,))
            self._pending.append((PERSONA, person_id, node_id, None, None))

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
