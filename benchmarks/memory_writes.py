"""What memory writes down from one turn, against labels, for benchmarks/memory.py --writes FILE.

Each labelled turn (../shared/data/memory-writes/, read its README) is said to a fresh store as the
loop says it (PersonMemory.remember, with the bundled model where the writer uses one); then what
was written is read back: the emotion and cause of the memory the turn made, and the entity it was
filed under. Scored as the README says: emotion right (its family, or none when the turn expresses
none), cause right (for turns with an emotion), entity right (for turns that name one).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from memory import PersonMemory, open_store

SAID_AT = datetime(2026, 3, 2, 10, 0)


class Written(NamedTuple):
    """What one turn left in memory."""
    emotion: str | None
    cause: str | None
    filed_under: tuple[str, ...]  # the entity's name and aliases (empty: filed under none)


def family_of(emotion: str | None, families: dict[str, list[str]]) -> str | None:
    """The family whose words appear in a recorded emotion ("nervous" → "worried"); None for none,
    "other" for a feeling no family names."""
    if not emotion:
        return None
    text = emotion.lower()
    return next((name for name, words in families.items() if any(w in text for w in words)), "other")


def score(turn: dict, written: Written, families: dict[str, list[str]]) -> dict:
    """Right or wrong on each of the three (None where the label asks nothing)."""
    emotion_right = family_of(written.emotion, families) == turn.get("emotion")
    cause_right = None
    if turn.get("emotion"):
        cause = (written.cause or "").lower()
        cause_right = bool(cause) and any(w.lower() in cause for w in turn.get("cause_any", []))
    entity_right = None
    if turn.get("about_any"):
        names = " ".join(written.filed_under).lower()
        entity_right = bool(names) and any(w.lower() in names for w in turn["about_any"])
    return {"emotion": emotion_right, "cause": cause_right, "entity": entity_right}


def write_one(text: str, embedder, llm, folder: Path) -> Written:
    store = open_store(folder, embedder)
    try:
        person = store.add_person("Dana")
        memory = PersonMemory(store, person, llm=llm, clock=lambda: SAID_AT)
        memory.remember(text, "")
        conn = sqlite3.connect(f"file:{folder / 'hearth.db'}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT id, entity_id FROM items ORDER BY id LIMIT 1").fetchone()
        finally:
            conn.close()
        if row is None:
            return Written(None, None, ())
        version = store.current_version(row[0])
        entity = next((e for e in store.entities(person) if e.id == row[1]), None)
        names = (entity.name, *entity.aliases) if entity else ()
        return Written(version.emotion, version.cause, tuple(names))
    finally:
        store.close()


def run_writes(path: Path, embedder, llm=None) -> dict:
    data = json.loads(Path(path).read_text())
    families = data["families"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, turn in enumerate(data["turns"]):
            written = write_one(turn["text"], embedder, llm, Path(tmp) / f"{n:03d}")
            rows.append((turn, written, score(turn, written, families)))

    def share(key: str) -> float:
        judged = [s[key] for _, _, s in rows if s[key] is not None]
        return sum(judged) / max(1, len(judged))

    misses = [{"text": t["text"], "expected": {"emotion": t.get("emotion"), "cause_any": t.get("cause_any"),
                                               "about_any": t.get("about_any")},
               "written": w._asdict(), "wrong": [k for k, ok in s.items() if ok is False]}
              for t, w, s in rows if False in s.values()]
    return {"turns": len(rows), "emotion": share("emotion"), "cause": share("cause"), "entity": share("entity"),
            "judged": {k: sum(s[k] is not None for _, _, s in rows) for k in ("emotion", "cause", "entity")},
            "misses": misses}


def print_writes(label: str, r: dict) -> None:
    j = r["judged"]
    print(f"\nwhat memory writes ({label}, {r['turns']} turns): emotion right {r['emotion']:.0%} of {j['emotion']}, "
          f"cause right {r['cause']:.0%} of {j['cause']}, filed under the right entity {r['entity']:.0%} of "
          f"{j['entity']}")
    for m in r["misses"]:
        w = m["written"]
        print(f"  {', '.join(m['wrong']):<20} {m['text'][:70]!r}: wrote {w['emotion']!r} / {w['cause']!r} / "
              f"{', '.join(w['filed_under'][:2]) or '-'}")
