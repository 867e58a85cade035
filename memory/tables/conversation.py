"""The sessions and turns tables: what was said, committed as it is said; its words never rewritten
(how it was said is added once the writer has heard it)."""

from __future__ import annotations

import json
from datetime import datetime

from ..db import timestamp


class ConversationTables:
    """A part of MemoryStore: it alone writes `sessions` and `turns`."""

    def start_session(self, person_id: int, started: datetime) -> int:
        with self.transaction():
            return self.execute("INSERT INTO sessions(person_id, started) VALUES (?, ?)",
                              (person_id, timestamp(started))).lastrowid

    def end_session(self, session_id: int, ended: datetime) -> None:
        with self.transaction():
            self.execute("UPDATE sessions SET ended = ? WHERE id = ?", (timestamp(ended), session_id))

    def add_turn(self, person_id: int, session_id: int, role: str, text: str, said_at: datetime) -> int:
        with self.transaction():
            return self.execute("INSERT INTO turns(person_id, session_id, role, text, said_at) VALUES (?, ?, ?, ?, ?)",
                              (person_id, session_id, role, text, timestamp(said_at))).lastrowid

    def set_turn_voice(self, turn_id: int, voice: dict) -> None:
        """How the turn was said (audio/voice_cues.py), once heard."""
        with self.transaction():
            self.execute("UPDATE turns SET voice = ? WHERE id = ?", (json.dumps(voice), turn_id))

    def turn_voice(self, turn_id: int) -> dict | None:
        rows = self.rows("SELECT voice FROM turns WHERE id = ? AND voice IS NOT NULL", (turn_id,))
        return json.loads(rows[0][0]) if rows else None

    def turn_voices(self, person_id: int, before_turn: int, limit: int = 20) -> list[dict]:
        """How the person's last turns before this one were said, newest first."""
        rows = self.rows("SELECT voice FROM turns WHERE person_id = ? AND id < ? AND voice IS NOT NULL "
                         "ORDER BY id DESC LIMIT ?", (person_id, before_turn, limit))
        return [json.loads(r[0]) for r in rows]

    def turns(self, person_id: int, session_id: int | None = None) -> list[dict]:
        sql = "SELECT id, session_id, role, text, said_at FROM turns WHERE person_id = ?"
        params: tuple = (person_id,)
        if session_id is not None:
            sql += " AND session_id = ?"
            params += (session_id,)
        rows = self.rows(sql + " ORDER BY id", params)
        return [dict(zip(("id", "session_id", "role", "text", "said_at"), r)) for r in rows]

    def last_user_words(self, person_id: int) -> str:
        """What the person said last, in any session ("" if nothing)."""
        rows = self.rows("SELECT text FROM turns WHERE person_id = ? AND role = 'user' ORDER BY id DESC LIMIT 1",
                         (person_id,))
        return rows[0][0] if rows else ""
