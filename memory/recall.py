"""Recall on the critical path: a candidate pool prepared while the person speaks, ranked on demand.

`prepare(partial_text)` matches the person's entities and schemas in the partial transcript, expands
one hop along edges, and caches the pool (items and cross-entity persona nodes of that neighbourhood,
plus the independent persona nodes). `recall(query)` embeds the query, scores the pool from the
in-memory vectors, and falls back to a person-scoped search over all items when the pool is thin.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from .affect import detect_affect
from .extract import Known, _CUE_RES
from .ranking import Candidate, Result, rank
from .store import ITEM, PERSONA, Memory, MemoryStore

PER_SCHEMA = 12        # entities a schema cue brings in, most recently seen first
MIN_SIM = 0.25         # a pool candidate below this does not count towards a full pool


@dataclass
class Pool:
    key: frozenset
    memories: list[Memory]
    match: dict[tuple[str, int], float]


class Recaller:
    def __init__(self, store: MemoryStore, person_id: int, embedder) -> None:
        self.store, self.person_id, self.embedder = store, person_id, embedder
        self._known: list[Known] | None = None
        self._by_schema: dict[str, list[int]] = {}
        self._pool: Pool | None = None
        self._lock = threading.Lock()

    def invalidate(self) -> None:
        """After a write: entities may have changed, and the pool with them."""
        with self._lock:
            self._known = None
            self._pool = None

    def _entities(self) -> list[Known]:
        if self._known is None:
            entities = self.store.entities(self.person_id)
            self._known = [Known(e.id, e.name, e.schema, tuple(e.aliases)) for e in entities]
            by_schema: dict[str, list[tuple[str, int]]] = {}
            for e in entities:
                by_schema.setdefault(e.schema, []).append((e.last_seen, e.id))
            self._by_schema = {s: [i for _, i in sorted(v, reverse=True)[:PER_SCHEMA]] for s, v in by_schema.items()}
            self._alias: dict[str, set[int]] = {}
            for e in self._known:
                for phrase in (e.name, *e.aliases):
                    if len(phrase) >= 3:
                        self._alias.setdefault(phrase.lower(), set()).add(e.id)
            phrases = sorted(self._alias, key=len, reverse=True)
            self._alias_re = (re.compile(r"(?<![\w'])(" + "|".join(re.escape(p) for p in phrases) + r")(?:s|es|'s)?(?![\w])",
                                         re.I) if phrases else None)
        return self._known

    def match(self, text: str) -> dict[int, float]:
        """Entity id -> match strength: 1 named in the text, 0.6 via a schema cue, 0.5 one hop away."""
        self._entities()
        found: dict[int, float] = {}
        if self._alias_re is not None:
            for m in self._alias_re.finditer(text):
                for eid in self._alias.get(m.group(1).lower(), ()):
                    found[eid] = 1.0
        for schema, pattern in _CUE_RES.items():
            if pattern.search(text):
                for eid in self._by_schema.get(schema, []):
                    found.setdefault(eid, 0.6)
        direct = [e for e, w in found.items() if w == 1.0]
        for eid, kind in self.store.neighbours(self.person_id, direct).items():
            found.setdefault(eid, 0.5 if kind == "strong" else 0.3)
        return found

    def prepare(self, partial_text: str) -> Pool:
        matched = self.match(partial_text)
        key = frozenset(matched.items())
        with self._lock:
            if self._pool is not None and self._pool.key == key:
                return self._pool
        items, nodes = self.store.neighbourhood(self.person_id, list(matched))
        nodes += self.store.independent_persona_ids(self.person_id)
        memories = self.store.memories(self.person_id, items, nodes)
        weights = {(m.kind, m.id): matched.get(m.entity_id, 0.0) for m in memories}
        pool = Pool(key, memories, weights)
        with self._lock:
            self._pool = pool
        return pool

    def recall(self, query: str, now: datetime, k: int = 5, query_vector: np.ndarray | None = None,
               pool: Pool | None = None) -> list[Result]:
        pool = pool or self._pool
        if pool is None or pool.key != frozenset(self.match(query).items()):
            pool = self.prepare(query)
        q = self.embedder.embed_one(query) if query_vector is None else query_vector
        affect = detect_affect(query)
        valence = affect.valence if affect else None
        candidates = self._scored(pool.memories, q, "pool", pool.match)
        strong = sum(1 for c in candidates if c.similarity >= MIN_SIM and c.kind == ITEM)
        if strong < k:
            seen = {m.id for m in pool.memories if m.kind == ITEM}
            hits = [i for i, _ in self.store.search(self.person_id, q, 2 * k + len(seen)) if i not in seen][:2 * k]
            extra = self.store.memories(self.person_id, hits, [])
            candidates += self._scored(extra, q, "fallback", {})
        return rank(candidates, now, k, valence)

    def _scored(self, memories: list[Memory], q: np.ndarray, source: str,
                match: dict[tuple[str, int], float]) -> list[Candidate]:
        out = []
        for kind in (ITEM, PERSONA):
            group = [m for m in memories if m.kind == kind]
            if not group:
                continue
            matrix = self.store.matrix(self.person_id, kind)
            group = [m for m in group if m.id in matrix.row]
            sims = matrix.scores([m.id for m in group], q)
            for m, s in zip(group, sims):
                out.append(Candidate(m.id, kind, m.text, float(s), m.said_at, m.valence, match.get((kind, m.id), 0.0),
                                     m.entity, m.schema, source, tuple(m.provenance)))
        return out
