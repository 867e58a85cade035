"""Recall on the critical path: a candidate pool prepared while the person speaks, ranked on demand.

`prepare(partial_text)` matches the person's entities and schemas in the partial transcript, expands
one hop along edges (from an in-memory copy of the edges) and embeds the partial text, so when the
final transcript equals the last partial, recall has nothing left to compute but one matrix product.
`recall(query)` scores every row of the person's in-memory matrix at once: similarity, recency,
affect and membership of the matched neighbourhood (the pool), takes the best few with
argpartition, and reads only their text from SQLite. Rows outside the pool can still win on
similarity (they are marked "fallback"), so a thin pool needs no second search.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from .affect import detect_affect
from .clusters import cue_words
from .dates import days_asked
from .extract import CUE_PATTERNS, Known
from .lexicon import ENTITY_NOUNS, known_as
from .ranking import Candidate, Result, content_words, rank, vector_scores
from .store import ITEM, PERSONA, MemoryStore, day_number
from .superseded import summaries_stand_for_past_facts
from text.questions import asks

PER_SCHEMA = 12        # entities a schema cue brings in, most recently seen first
SCHEMA_MATCH = 0.6     # the match weight of an entity a schema cue or a cluster brings in
DATE_MATCH = 1.0       # the match weight of a note of what happens on a day the query names, as of a name
SHORTLIST = 4          # rows per wanted result read from SQLite for the final ranking
CACHED_QUERIES = 16    # query vectors kept from prepare() and recall()
MAX_PERSONA = 1        # feelings in one recall: facts need the room more


@dataclass
class Pool:
    key: frozenset
    match: dict[int, float]          # entity id -> match weight


def named_nouns(text: str) -> frozenset[str]:
    """The things of the lexicon a text names in one word ("dog", "wedding"), as they are written."""
    return frozenset(w for w in content_words(text) if w in ENTITY_NOUNS)


def _cue_re(words: frozenset[str]) -> re.Pattern | None:
    return re.compile(r"(?<![\w'])(" + "|".join(re.escape(w) for w in sorted(words)) + r")(?:s|es)?(?![\w])", re.I) \
        if words else None


def asked_days(text: str, now: datetime) -> tuple[tuple[float, float], ...]:
    """The days a query names (memory.dates.days_asked), as [first, end) in days since 1970."""
    return tuple((day_number(datetime.combine(first, datetime.min.time())),
                  day_number(datetime.combine(last, datetime.min.time())) + 1)
                 for first, last in days_asked(text, now.date()))


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


class Recaller:
    def __init__(self, store: MemoryStore, person_id: int, embedder) -> None:
        self.store, self.person_id, self.embedder = store, person_id, embedder
        self._known: list[Known] | None = None
        self._by_schema: dict[str, list[int]] = {}
        self._adjacent: dict[int, dict[int, str]] = {}
        self._alias: dict[str, set[int]] = {}
        self._alias_re = None
        self._clusters: list[tuple[re.Pattern | None, frozenset[int]]] = []
        self._pool: Pool | None = None
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        # the shortlists prepare() computed for its text, reused when recall() gets the same words
        self._shortlists: tuple[tuple, dict[str, list]] | None = None
        self._lock = threading.Lock()   # guards the caches above; never held across SQL or a model call

    def invalidate(self) -> None:
        """After a write: entities and edges may have changed, and the pool with them."""
        with self._lock:
            self._known = None
            self._pool = None
            self._shortlists = None

    def forget_queries(self) -> None:
        """Drop the cached query vectors (a truly cold recall, for benchmarks)."""
        with self._lock:
            self._vectors.clear()

    # -- matching ---------------------------------------------------------------------------

    def _entities(self):
        with self._lock:
            if self._known is not None:
                return self._known, self._by_schema, self._adjacent, self._alias, self._alias_re, self._clusters
        entities = self.store.entities(self.person_id)
        clusters = [(_cue_re(cue_words(c.name)), c.members) for c in self.store.clusters(self.person_id, "active")]
        edges = self.store.edges(self.person_id)
        known = [Known(e.id, e.name, e.schema, tuple(e.aliases)) for e in entities]
        by_schema_raw: dict[str, list[tuple[str, int]]] = {}
        for e in entities:
            by_schema_raw.setdefault(e.schema, []).append((e.last_seen, e.id))
        by_schema = {s: [i for _, i in sorted(v, reverse=True)[:PER_SCHEMA]] for s, v in by_schema_raw.items()}
        adjacent: dict[int, dict[int, str]] = {}
        for a, b, kind in edges:
            for x, y in ((a, b), (b, a)):
                row = adjacent.setdefault(x, {})
                if row.get(y) != "strong":
                    row[y] = kind
        alias: dict[str, set[int]] = {}
        for e in known:
            for phrase in known_as(e.name, e.aliases):
                if len(phrase) >= 3:
                    alias.setdefault(phrase.lower(), set()).add(e.id)
        phrases = sorted(alias, key=len, reverse=True)
        alias_re = (re.compile(r"(?<![\w'])(" + "|".join(re.escape(p) for p in phrases) + r")(?:s|es|'s)?(?![\w])",
                               re.I) if phrases else None)
        with self._lock:
            self._known, self._by_schema, self._adjacent = known, by_schema, adjacent
            self._alias, self._alias_re, self._clusters = alias, alias_re, clusters
        return known, by_schema, adjacent, alias, alias_re, clusters

    def match(self, text: str) -> dict[int, float]:
        """Entity id -> match strength: 1 named in the text, 0.6 via a schema cue or a cluster (its name's
        words said, or one of its members named), 0.5/0.3 one strong/weak hop away."""
        _, by_schema, adjacent, alias, alias_re, clusters = self._entities()
        found: dict[int, float] = {}
        if alias_re is not None:
            for m in alias_re.finditer(text):
                for eid in alias.get(m.group(1).lower(), ()):
                    found[eid] = 1.0
        for schema, pattern in CUE_PATTERNS.items():
            if pattern.search(text):
                for eid in by_schema.get(schema, []):
                    found.setdefault(eid, SCHEMA_MATCH)
        direct = [e for e, w in found.items() if w == 1.0]
        for cue, members in clusters:
            if (cue is not None and cue.search(text)) or members.intersection(direct):
                for eid in members:
                    found.setdefault(eid, SCHEMA_MATCH)
        hop: dict[int, str] = {}
        for eid in direct:
            for other, kind in adjacent.get(eid, {}).items():
                if hop.get(other) != "strong":
                    hop[other] = kind
        for eid, kind in hop.items():
            found.setdefault(eid, 0.5 if kind == "strong" else 0.3)
        return found

    # -- the query vector -----------------------------------------------------------------------

    def vector(self, text: str) -> np.ndarray:
        """The query's embedding, from the cache when prepare() already embedded this very text."""
        key = _norm(text)
        with self._lock:
            v = self._vectors.get(key)
            if v is not None:
                self._vectors.move_to_end(key)
                return v
        v = np.asarray(self.embedder.embed_one(text), dtype=np.float32)
        with self._lock:
            self._vectors[key] = v
            while len(self._vectors) > CACHED_QUERIES:
                self._vectors.popitem(last=False)
        return v

    def prepare(self, partial_text: str, now: datetime | None = None, k: int = 12) -> Pool:
        """Match and expand the pool for the partial transcript, embed it, and score the rows for it
        (off the critical path): if the person's last words add nothing, recall only reads the rows."""
        matched = self.match(partial_text)
        pool = Pool(frozenset(matched.items()), matched)
        with self._lock:
            self._pool = pool
        q = self.vector(partial_text)
        if now is not None:
            key = self._shortlist_key(partial_text, now, k, detect_affect(partial_text))
            on = asked_days(partial_text, now)
            lists = {kind: self._shortlist(kind, q, matched, day_number(now), key[-1], want, on)
                     for kind, want in self._wants(k)}
            with self._lock:
                self._shortlists = (key, lists)
        return pool

    @staticmethod
    def _wants(k: int) -> tuple[tuple[str, int], ...]:
        return ((ITEM, SHORTLIST * k), (PERSONA, 4))

    def _shortlist_key(self, text: str, now: datetime, k: int, felt) -> tuple:
        """felt: the text's Affect (memory.affect.detect_affect), or None."""
        return (_norm(text), self.store.generation, int(day_number(now)), k, felt.valence if felt else None)

    # -- ranking -----------------------------------------------------------------------------------

    def recall(self, query: str, now: datetime, k: int = 5, query_vector: np.ndarray | None = None,
               pool: Pool | None = None) -> list[Result]:
        matched = self.match(query) if pool is None else pool.match
        q = self.vector(query) if query_vector is None else np.asarray(query_vector, dtype=np.float32)
        felt = detect_affect(query)  # its valence ranks by mood; its label, the feeling asked about
        key = self._shortlist_key(query, now, k, felt)
        valence = key[-1]
        now_day = day_number(now)
        with self._lock:
            prepared = self._shortlists[1] if self._shortlists and self._shortlists[0] == key and pool is None \
                else None
        candidates: list[Candidate] = []
        facts: set[int] = set()
        on = asked_days(query, now) if not prepared else ()
        for kind, want in self._wants(k):
            picked = prepared[kind] if prepared else self._shortlist(kind, q, matched, now_day, valence, want, on)
            if not picked:
                continue
            sims = {key: (sim, w) for key, sim, w in picked}
            memories = self.store.memories(self.person_id, *(([*sims], []) if kind == ITEM else ([], [*sims])))
            facts |= {m.id for m in memories if m.item_kind == "fact"}
            for m in memories:
                sim, w = sims[m.id]
                candidates.append(Candidate(m.id, kind, m.text, sim, m.said_at, m.valence, w, m.entity, m.schema,
                                            "pool" if w > 0 else "fallback", tuple(m.provenance), m.entity_id))
        entities = [c.entity_id for c in candidates if c.id in facts and c.kind == ITEM and c.entity_id is not None]
        if entities:
            candidates = summaries_stand_for_past_facts(candidates, facts, self.store.summaries_of(self.person_id,
                                                                                                  entities))
        return rank(candidates, now, k, valence, max_persona=MAX_PERSONA, nouns=named_nouns(query),
                    feeling=felt.label if felt else None, asked=frozenset(content_words(query)),
                    matched_enough=SCHEMA_MATCH if asks(query) else 1.0)

    def _shortlist(self, kind: str, q: np.ndarray, matched: dict[int, float], now_day: float,
                   valence: float | None, want: int, on: tuple[tuple[float, float], ...] = ()
                   ) -> list[tuple[int, float, float]]:
        """(row id, similarity, match weight) of the `want` best rows by the full score, one matrix product.
        on: the days the query names (asked_days); what happens on them counts as named."""
        sims, entity, days, valences, ids, happens = self.store.scored_rows(self.person_id, kind, q)
        n = len(ids)
        if n == 0:
            return []
        weights = np.zeros(n, dtype=np.float32)
        if matched:
            keys = np.fromiter(matched.keys(), dtype=np.int64, count=len(matched))
            vals = np.fromiter(matched.values(), dtype=np.float32, count=len(matched))
            order = np.argsort(keys)
            keys, vals = keys[order], vals[order]
            at = np.clip(np.searchsorted(keys, entity), 0, len(keys) - 1)
            hit = keys[at] == entity
            weights[hit] = vals[at[hit]]
        for first, end in on:  # "What's on Thursday?" finds the dentist on Thursday, at any similarity
            np.maximum(weights, DATE_MATCH, out=weights, where=(happens >= first) & (happens < end))
        scores = vector_scores(sims, days, valences, weights, now_day, valence)
        want = min(want, n)
        top = np.argpartition(-scores, want - 1)[:want] if want < n else np.arange(n)
        top = top[np.argsort(-scores[top])]
        return [(int(ids[i]), float(sims[i]), float(weights[i])) for i in top]
