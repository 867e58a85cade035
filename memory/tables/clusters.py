"""The recalls and clusters tables: which entities each recall drew on, and the clusters that emerge
from them (memory/clusters.py), each a chain of versions like an item."""

from __future__ import annotations

import json
from datetime import datetime

from ..clusters import Cluster, Recalled
from ..db import timestamp
from ..errors import MemoryStoreError

KEEP_RECALLS = 500   # the log is a window, not an archive: older rows go as new ones come


class ClusterTables:
    """A part of MemoryStore: it alone writes `recalls`, `clusters`, `cluster_versions` and `cluster_members`."""

    def log_recall(self, person_id: int, query: str, entity_ids: list[int], now: datetime) -> int:
        """One recall's answer set; the oldest rows beyond KEEP_RECALLS go."""
        with self.transaction():
            rid = self.execute("INSERT INTO recalls(person_id, query, entities, at) VALUES (?, ?, ?, ?)",
                               (person_id, query, json.dumps(sorted(set(entity_ids))), timestamp(now))).lastrowid
            self.execute("DELETE FROM recalls WHERE person_id = ? AND id <= ?", (person_id, rid - KEEP_RECALLS))
            return rid

    def recalls(self, person_id: int, last: int) -> list[Recalled]:
        """The person's `last` recalls, oldest first (entities that were deleted since are left out)."""
        rows = self.rows("SELECT id, query, entities FROM recalls WHERE person_id = ? ORDER BY id DESC LIMIT ?",
                         (person_id, last))
        alive = {r[0] for r in self.rows("SELECT id FROM entities WHERE person_id = ?", (person_id,))}
        return [Recalled(r[0], r[1], frozenset(json.loads(r[2])) & alive) for r in reversed(rows)]

    def clusters(self, person_id: int, state: str | None = None) -> list[Cluster]:
        """The person's clusters as their current versions say (only those in `state`, when given);
        one query, as recall reads them whenever the person's entities change."""
        sql = ("SELECT c.id, v.name, v.state, v.since_recall, m.entity_id FROM clusters c "
               "JOIN cluster_versions v ON v.id = c.current_version "
               "LEFT JOIN cluster_members m ON m.version_id = v.id WHERE c.person_id = ?")
        params: tuple = (person_id,)
        if state:
            sql += " AND v.state = ?"
            params += (state,)
        found: dict[int, tuple[str, str, int, set[int]]] = {}
        for cid, name, st, since, entity in self.rows(sql + " ORDER BY c.id", params):
            members = found.setdefault(cid, (name, st, since, set()))[3]
            if entity is not None:
                members.add(entity)
        return [Cluster(cid, name, frozenset(members), st, since) for cid, (name, st, since, members) in found.items()]

    def add_cluster(self, person_id: int, name: str, members: frozenset[int], state: str, coherence: float,
                    since_recall: int, reason: str, now: datetime) -> int:
        """A new cluster with its first version (state 'active', or 'rejected' to remember a judgement)."""
        with self.transaction():
            cid = self.execute("INSERT INTO clusters(person_id, created, updated) VALUES (?, ?, ?)",
                               (person_id, timestamp(now), timestamp(now))).lastrowid
            self._cluster_version(cid, None, name, members, state, coherence, since_recall, reason, now)
            return cid

    def change_cluster(self, cluster_id: int, state: str, coherence: float, since_recall: int, reason: str,
                       now: datetime) -> int:
        """A new version of a cluster in another state (its name and members carried over); the old stays."""
        with self.transaction():
            row = self.execute("SELECT c.current_version, v.name FROM clusters c JOIN cluster_versions v "
                               "ON v.id = c.current_version WHERE c.id = ?", (cluster_id,)).fetchone()
            if row is None:
                raise MemoryStoreError(f"no cluster {cluster_id}")
            members = frozenset(r[0] for r in self.execute(
                "SELECT entity_id FROM cluster_members WHERE version_id = ?", (row[0],)).fetchall())
            return self._cluster_version(cluster_id, row[0], row[1], members, state, coherence, since_recall,
                                         reason, now)

    def cluster_versions(self, cluster_id: int) -> list[dict]:
        """Every version of a cluster, oldest first."""
        keys = ("id", "previous_id", "name", "state", "coherence", "since_recall", "reason", "created")
        out = []
        for row in self.rows(f"SELECT {', '.join(keys)} FROM cluster_versions WHERE cluster_id = ? ORDER BY id",
                             (cluster_id,)):
            v = dict(zip(keys, row))
            v["members"] = sorted(r[0] for r in self.rows(
                "SELECT entity_id FROM cluster_members WHERE version_id = ?", (v["id"],)))
            out.append(v)
        return out

    def _cluster_version(self, cluster_id: int, previous: int | None, name: str, members: frozenset[int],
                         state: str, coherence: float, since_recall: int, reason: str, now: datetime) -> int:
        vid = self.execute(
            "INSERT INTO cluster_versions(cluster_id, previous_id, name, state, coherence, since_recall, reason, "
            "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (cluster_id, previous, name, state, float(coherence), since_recall, reason, timestamp(now))).lastrowid
        self.conn.executemany("INSERT INTO cluster_members(version_id, entity_id) VALUES (?, ?)",
                              [(vid, e) for e in sorted(members)])
        self.execute("UPDATE clusters SET current_version = ?, updated = ? WHERE id = ?",
                     (vid, timestamp(now), cluster_id))
        return vid
