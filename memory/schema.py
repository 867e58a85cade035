"""The store's tables, as forward migrations keyed by `PRAGMA user_version`.

Migration N takes a file at version N-1 to version N. Never edit a released migration: add one.
"""

from __future__ import annotations

ITEM_DIM = 384   # text embedder
VOICE_DIM = 256  # voice encoder

PRESET_SCHEMAS = ("health", "work", "family and friends", "home", "travel", "pets", "hobbies", "food", "money",
                  "plans")


def _chain_head(table: str, *columns: str) -> str:
    """A table of things whose state is a chain of versions, kept in a table of its own beside it
    (items and item_versions, clusters and cluster_versions): whose it is, its own columns, and the
    version in force now."""
    own = "".join(f"    {column},\n" for column in columns)
    return (f"CREATE TABLE {table} (\n    id INTEGER PRIMARY KEY,\n"
            f"    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,\n{own}"
            "    current_version INTEGER,\n    created TEXT NOT NULL,\n    updated TEXT NOT NULL\n);")


_V1 = f"""
CREATE TABLE people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    provisional INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE voiceprints (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    created TEXT NOT NULL
);
CREATE VIRTUAL TABLE voiceprint_vec USING vec0(
    voiceprint_id INTEGER PRIMARY KEY,
    embedding float[{VOICE_DIM}] distance_metric=cosine
);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    started TEXT NOT NULL,
    ended TEXT
);
CREATE TABLE turns (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    text TEXT NOT NULL,
    said_at TEXT NOT NULL
);
CREATE INDEX turns_by_session ON turns(session_id, id);
CREATE TABLE schemas (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    preset INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE entities (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    schema_id INTEGER NOT NULL REFERENCES schemas(id),
    name TEXT NOT NULL,
    aliases TEXT NOT NULL DEFAULT '[]',
    created TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    UNIQUE (person_id, name)
);
CREATE INDEX entities_by_schema ON entities(person_id, schema_id);
CREATE TABLE edges (
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    a INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    b INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('strong', 'weak')),
    weight REAL NOT NULL DEFAULT 1.0,
    PRIMARY KEY (a, b, kind)
);
CREATE INDEX edges_by_b ON edges(b);
{_chain_head('items', 'entity_id INTEGER REFERENCES entities(id) ON DELETE SET NULL')}
CREATE INDEX items_by_entity ON items(person_id, entity_id);
CREATE TABLE item_versions (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    previous_id INTEGER REFERENCES item_versions(id),
    text TEXT NOT NULL,
    history TEXT NOT NULL DEFAULT '',
    current TEXT NOT NULL DEFAULT '',
    said_at TEXT NOT NULL,
    happens_at TEXT,
    emotion TEXT,
    cause TEXT,
    provenance TEXT NOT NULL DEFAULT '[]',
    method TEXT NOT NULL DEFAULT 'new',
    created TEXT NOT NULL
);
CREATE INDEX versions_by_item ON item_versions(item_id, id);
CREATE VIRTUAL TABLE item_vec USING vec0(
    item_id INTEGER PRIMARY KEY,
    person_id INTEGER PARTITION KEY,
    embedding float[{ITEM_DIM}] distance_metric=cosine
);
CREATE TABLE persona (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('independent', 'cross')),
    entity_id INTEGER REFERENCES entities(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    affect TEXT,
    valence REAL NOT NULL DEFAULT 0 CHECK (valence BETWEEN -1 AND 1),
    arousal REAL NOT NULL DEFAULT 0 CHECK (arousal BETWEEN 0 AND 1),
    cause TEXT,
    evidence TEXT NOT NULL DEFAULT '[]',
    confidence REAL NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    CHECK ((kind = 'cross') = (entity_id IS NOT NULL))
);
CREATE INDEX persona_by_person ON persona(person_id, kind, entity_id);
CREATE VIRTUAL TABLE persona_vec USING vec0(
    persona_id INTEGER PRIMARY KEY,
    person_id INTEGER PARTITION KEY,
    embedding float[{ITEM_DIM}] distance_metric=cosine
);
""" + "".join(f"INSERT INTO schemas(name, preset) VALUES ('{name}', 1);\n" for name in PRESET_SCHEMAS)

# Version 2: voiceprints scoped by person inside the vector table, and sessions found by person quickly.
_V2 = """
CREATE INDEX sessions_by_person ON sessions(person_id, id);
CREATE INDEX voiceprints_by_person ON voiceprints(person_id);
"""

# Version 3: an item is either one turn's own fact ('fact', never rewritten) or an entity's integrative
# summary ('summary', rewritten by generation, versions kept). Items written before were summaries.
_V3 = """
ALTER TABLE items ADD COLUMN kind TEXT NOT NULL DEFAULT 'summary' CHECK (kind IN ('fact', 'summary'));
CREATE INDEX items_by_kind ON items(person_id, entity_id, kind);
"""

# Version 4: how the person's turn was said (audio/voice_cues.py: the cues, and how they departed from the
# person's usual), as JSON beside the words; NULL where it was not heard (text turns, older turns).
_V4 = """
ALTER TABLE turns ADD COLUMN voice TEXT;
"""

# Version 5: clusters that emerge from what is asked (memory/clusters.py). `recalls` logs which entities
# each recall drew on; a cluster is a chain of versions like an item (a name, its members, its state:
# active, dissolved, or rejected by the judge), so what routing used when is never lost.
_V5 = f"""
CREATE TABLE recalls (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    query TEXT NOT NULL,
    entities TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX recalls_by_person ON recalls(person_id, id);
{_chain_head('clusters')}
CREATE INDEX clusters_by_person ON clusters(person_id);
CREATE TABLE cluster_versions (
    id INTEGER PRIMARY KEY,
    cluster_id INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    previous_id INTEGER REFERENCES cluster_versions(id),
    name TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('active', 'dissolved', 'rejected')),
    coherence REAL NOT NULL,
    since_recall INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL
);
CREATE INDEX cluster_versions_by_cluster ON cluster_versions(cluster_id, id);
CREATE TABLE cluster_members (
    version_id INTEGER NOT NULL REFERENCES cluster_versions(id) ON DELETE CASCADE,
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE
);
CREATE INDEX cluster_members_by_version ON cluster_members(version_id);
CREATE INDEX cluster_members_by_entity ON cluster_members(entity_id);
"""

# Version 6: the desk's own person (assistant/config.py's `person` while it is the placeholder "me") is
# marked, not found by that name: they keep their memory when they give their name ("I'm Dana") and
# are called by it. The person named "me" before, if any, is that person.
_V6 = """
ALTER TABLE people ADD COLUMN desk_owner INTEGER NOT NULL DEFAULT 0;
UPDATE people SET desk_owner = 1 WHERE id = (SELECT min(id) FROM people WHERE name = 'me');
"""

MIGRATIONS: list[str] = [_V1, _V2, _V3, _V4, _V5, _V6]
SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """Split a migration into statements (none of ours holds a ';' inside a literal)."""
    return [s.strip() for s in script.split(";") if s.strip()]
