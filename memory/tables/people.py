"""The people and voiceprints tables (with voiceprint_vec, sqlite-vec): who is known, and their voices."""

from __future__ import annotations

from datetime import datetime

import numpy as np

from ..db import timestamp, vector_blob
from ..schema import VOICE_DIM


class PeopleTables:
    """A part of MemoryStore: it alone writes `people`, `voiceprints` and `voiceprint_vec`."""

    def add_person(self, name: str, provisional: bool = False, now: datetime | None = None) -> int:
        with self.transaction():
            cur = self.execute("INSERT INTO people(name, provisional, created) VALUES (?, ?, ?)",
                             (name, int(provisional), timestamp(now or datetime.now())))
            return cur.lastrowid

    def person(self, person_id: int) -> dict | None:
        rows = self.rows("SELECT id, name, provisional, created FROM people WHERE id = ?", (person_id,))
        return dict(zip(("id", "name", "provisional", "created"), rows[0])) if rows else None

    def find_person(self, name: str) -> int | None:
        rows = self.rows("SELECT id FROM people WHERE name = ? ORDER BY id LIMIT 1", (name,))
        return rows[0][0] if rows else None

    def desk_owner(self, name: str, now: datetime | None = None) -> int:
        """The desk's own person, known by no name until they give one (memory/schema.py, version 6):
        the one marked so, else the oldest called `name` (then marked), else a new person called `name`."""
        marked = "SELECT id FROM people WHERE desk_owner = 1 ORDER BY id LIMIT 1"
        if rows := self.rows(marked):  # (read first: this is asked on every utterance)
            return rows[0][0]
        with self.transaction():
            if rows := self.rows(marked):
                return rows[0][0]
            found = self.find_person(name)
            if found is None:
                found = self.add_person(name, now=now)
            self.execute("UPDATE people SET desk_owner = 1 WHERE id = ?", (found,))
            return found

    def add_voiceprint(self, person_id: int, embedding: np.ndarray, now: datetime | None = None) -> int:
        with self.transaction():
            vid = self.execute("INSERT INTO voiceprints(person_id, created) VALUES (?, ?)",
                             (person_id, timestamp(now or datetime.now()))).lastrowid
            self.execute("INSERT INTO voiceprint_vec(voiceprint_id, embedding) VALUES (?, ?)",
                       (vid, vector_blob(embedding, VOICE_DIM)))
            return vid

    def match_voiceprint(self, embedding: np.ndarray, k: int = 3) -> list[tuple[int, float]]:
        """(person_id, cosine distance) of the nearest voiceprints, nearest first."""
        rows = self.rows("SELECT v.person_id, m.distance FROM (SELECT voiceprint_id, distance FROM voiceprint_vec "
                          "WHERE embedding MATCH ? AND k = ?) m JOIN voiceprints v ON v.id = m.voiceprint_id "
                          "ORDER BY m.distance", (vector_blob(embedding, VOICE_DIM), k))
        return [(int(p), float(d)) for p, d in rows]

    def people_named(self, name: str) -> list[tuple[int, str]]:
        """(id, name) of everyone called `name`, in any case, oldest first."""
        return [(r[0], r[1]) for r in self.rows("SELECT id, name FROM people WHERE lower(name) = lower(?) ORDER BY id",
                                                (name,))]

    def names_starting(self, prefix: str) -> set[str]:
        return {r[0] for r in self.rows("SELECT name FROM people WHERE name LIKE ?", (f"{prefix}%",))}

    def name_person(self, person_id: int, name: str) -> None:
        """Give a person a name; they stop being provisional."""
        with self.transaction():
            self.execute("UPDATE people SET name = ?, provisional = 0 WHERE id = ?", (name, person_id))

    def confirm_person(self, person_id: int) -> None:
        """A provisional person is provisional no more."""
        with self.transaction():
            self.execute("UPDATE people SET provisional = 0 WHERE id = ?", (person_id,))

    def people_with_counts(self) -> list[tuple]:
        """(id, name, provisional, created, voiceprints, things said, memories) of everyone, provisional
        people last."""
        return self.rows(
            "SELECT p.id, p.name, p.provisional, p.created, "
            "(SELECT count(*) FROM voiceprints v WHERE v.person_id = p.id), "
            "(SELECT count(*) FROM turns t WHERE t.person_id = p.id AND t.role = 'user'), "
            "(SELECT count(*) FROM items i WHERE i.person_id = p.id) + "
            "(SELECT count(*) FROM persona n WHERE n.person_id = p.id) "
            "FROM people p ORDER BY p.provisional, lower(p.name), p.id")

    def voiceprints(self, person_id: int | None = None) -> list[tuple[int, int, bytes | None]]:
        """(voiceprint id, person id, its vector's bytes or None if the vector is missing), by person
        and age; everyone's, or one person's."""
        where, params = ("WHERE v.person_id = ? ", (person_id,)) if person_id is not None else ("", ())
        return self.rows("SELECT v.id, v.person_id, vv.embedding FROM voiceprints v "
                         f"LEFT JOIN voiceprint_vec vv ON vv.voiceprint_id = v.id {where}ORDER BY v.person_id, v.id",
                         params)

    def delete_voiceprint(self, voiceprint_id: int) -> None:
        with self.transaction():
            self.execute("DELETE FROM voiceprint_vec WHERE voiceprint_id = ?", (voiceprint_id,))
            self.execute("DELETE FROM voiceprints WHERE id = ?", (voiceprint_id,))
