"""Moving and deleting everything that belongs to a person, for merging two people and forgetting one.

The tables are found in the file itself (any table with a person_id column), so a table added
later moves and goes with the rest. Both run inside the caller's transaction and leave no row that
points at a person who is gone; the caller drops its caches afterwards.
"""

from __future__ import annotations

import json

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store import MemoryStore

# children before parents, so tables without ON DELETE CASCADE are emptied too
_DELETE_ORDER = ["edges", "persona", "turns", "item_versions", "items", "sessions", "entities", "voiceprints"]


def person_tables(store: MemoryStore) -> tuple[list[str], list[str]]:
    """(ordinary tables, vec0 tables) with a person_id column."""
    virtual = {r[0] for r in store.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")}
    plain, vec = [], []
    for (table,) in store.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        if table == "people" or any(table.startswith(v + "_") for v in virtual):
            continue
        if "person_id" in _columns(store, table):
            (vec if table in virtual else plain).append(table)
    return plain, vec


def tables_with(store: MemoryStore, column: str) -> list[str]:
    """Ordinary tables that have `column`."""
    return [table for (table,) in store.rows("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
            if column in _columns(store, table)]


def _columns(store: MemoryStore, table: str) -> list[str]:
    return [r[1] for r in store.rows(f"PRAGMA table_info({table})")]


def move_person_rows(store: MemoryStore, keep: int, remove: int) -> dict[str, int]:
    """Everything of `remove` becomes `keep`'s and `remove` is deleted. Returns counts moved.

    Voiceprints, sessions, turns, entities, edges, items (with their versions) and persona nodes
    move, and so does any other table with a person_id column. An entity both people have by the
    same name becomes one entity (aliases joined; its items, persona nodes and edges follow it).
    """
    moved: dict[str, int] = {}
    plain, vec = person_tables(store)
    fold = _fold_entities(store, keep, remove) if "entities" in plain else {}
    if "edges" in plain:
        moved["edges"] = _move_edges(store, keep, remove, fold)
    for old, new in fold.items():  # re-point what hangs on a folded entity, then drop it
        for table in tables_with(store, "entity_id"):
            store.execute(f"UPDATE {table} SET entity_id = ? WHERE entity_id = ?", (new, old))
        store.execute("DELETE FROM entities WHERE id = ?", (old,))
    for table in plain:
        if table != "edges":
            moved[table] = store.execute(f"UPDATE {table} SET person_id = ? WHERE person_id = ?",
                                         (keep, remove)).rowcount
    for table in vec:  # sqlite-vec cannot update a partition key: delete and insert again
        cols = _columns(store, table)
        rows = store.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE person_id = ?", (remove,)).fetchall()
        store.execute(f"DELETE FROM {table} WHERE person_id = ?", (remove,))
        at = cols.index("person_id")
        marks = ", ".join("?" * len(cols))
        for row in rows:
            row = list(row)
            row[at] = keep
            store.execute(f"INSERT INTO {table}({', '.join(cols)}) VALUES ({marks})", tuple(row))
        moved[table] = len(rows)
    moved["entities"] = moved.get("entities", 0) + len(fold)
    # the desk's own person, merged into another, makes that one the desk's own
    store.execute("UPDATE people SET desk_owner = max(desk_owner, (SELECT desk_owner FROM people WHERE id = ?)) "
                  "WHERE id = ?", (remove, keep))
    store.execute("DELETE FROM people WHERE id = ?", (remove,))
    return moved


def _fold_entities(store: MemoryStore, keep: int, remove: int) -> dict[int, int]:
    """{remove's entity: keep's entity} for names both have; the kept entity gets both sets of aliases."""
    mine = {name: (eid, aliases) for eid, name, aliases in
            store.execute("SELECT id, name, aliases FROM entities WHERE person_id = ?", (keep,)).fetchall()}
    fold = {}
    for eid, name, aliases, last_seen in store.execute(
            "SELECT id, name, aliases, last_seen FROM entities WHERE person_id = ?", (remove,)).fetchall():
        if name in mine:
            target, target_aliases = mine[name]
            joined = sorted(set(json.loads(target_aliases)) | set(json.loads(aliases)))
            store.execute("UPDATE entities SET aliases = ?, last_seen = max(last_seen, ?) WHERE id = ?",
                          (json.dumps(joined), last_seen, target))
            fold[eid] = target
    return fold


def _move_edges(store: MemoryStore, keep: int, remove: int, fold: dict[int, int]) -> int:
    """remove's edges become keep's, re-pointed at folded entities (weights add up; self-loops dropped)."""
    edges = store.execute("SELECT a, b, kind, weight FROM edges WHERE person_id = ?", (remove,)).fetchall()
    store.execute("DELETE FROM edges WHERE person_id = ?", (remove,))
    for a, b, kind, weight in edges:
        a, b = fold.get(a, a), fold.get(b, b)
        if a == b:
            continue
        a, b = min(a, b), max(a, b)
        store.execute("INSERT INTO edges(person_id, a, b, kind, weight) VALUES (?, ?, ?, ?, ?) "
                      "ON CONFLICT(a, b, kind) DO UPDATE SET weight = weight + excluded.weight",
                      (keep, a, b, kind, weight))
    return len(edges)


def delete_person_rows(store: MemoryStore, person_id: int) -> dict[str, int]:
    """Delete the person and everything that is theirs. Returns counts deleted."""
    deleted: dict[str, int] = {}
    plain, vec = person_tables(store)
    deleted["voiceprints"] = store.execute(
        "DELETE FROM voiceprint_vec WHERE voiceprint_id IN (SELECT id FROM voiceprints WHERE person_id = ?)",
        (person_id,)).rowcount
    for table in vec:
        deleted[table] = store.execute(f"DELETE FROM {table} WHERE person_id = ?", (person_id,)).rowcount
    for table in sorted(plain, key=lambda t: _DELETE_ORDER.index(t) if t in _DELETE_ORDER else -1):
        if table == "items":
            store.execute("DELETE FROM item_versions WHERE item_id IN (SELECT id FROM items WHERE person_id = ?)",
                          (person_id,))
        n = store.execute(f"DELETE FROM {table} WHERE person_id = ?", (person_id,)).rowcount
        if table != "voiceprints":
            deleted[table] = n
    store.execute("DELETE FROM people WHERE id = ?", (person_id,))
    return deleted
