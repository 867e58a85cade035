"""Cluster emergence for one person, run by the memory writer (never on the critical path).

Each recall's answer set (the entities of the memories that made the block) is logged; every
`every` recalls, memory/clusters.py plans over the recent log, a judge decides on each candidate
and the store writes what changed as new cluster versions. The judge is the language model held to
a small JSON schema (yielding to replies, as rewrites do); without a model, a coherent group is
promoted under its members' names. A judge's answer that is not the schema's writes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Sequence

from . import clusters as cl
from .store import MemoryStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """One thing a run did, for logs and benchmarks."""
    what: str            # "promoted" | "rejected" | "dissolved" | "unjudged"
    cluster_id: int | None
    name: str
    members: frozenset[int]
    coherence: float


def answer_set(memories: Sequence[dict]) -> list[int]:
    """The entities a recall drew on: those of the memories that made the block (Result.as_dict, as
    recall hands them to the loop)."""
    return sorted({m["entity_id"] for m in memories if m.get("entity_id") is not None})


class Emergence:
    def __init__(self, store: MemoryStore, person_id: int, llm=None, clock: Callable[[], datetime] = datetime.now,
                 alpha: float = cl.ALPHA, every: int = cl.EVERY, window: int = cl.WINDOW,
                 min_queries: int = cl.MIN_QUERIES) -> None:
        self.store, self.person_id, self.llm, self.clock = store, person_id, llm, clock
        self.alpha, self.every, self.window, self.min_queries = alpha, every, window, min_queries
        self._since_run = 0

    def noted(self, query: str, entities: Sequence[int]) -> list[Change]:
        """Log one recall (the entities it drew on); every `every` recalls, run emergence. Returns what
        changed (usually nothing)."""
        if not entities:  # log_recall keeps them sorted and distinct
            return []
        self.store.log_recall(self.person_id, query, entities, self.clock())
        self._since_run += 1
        if self._since_run < self.every:
            return []
        self._since_run = 0
        return self.run()

    def run(self) -> list[Change]:
        log_ = self.store.recalls(self.person_id, self.window * 4)
        if not log_:
            return []
        now, last = self.clock(), log_[-1].id
        existing = self.store.clusters(self.person_id)
        plan = cl.plan(existing, log_, self.alpha, self.min_queries, self.window)
        changes: list[Change] = []
        for cid, rho in plan.dissolve:
            self.store.change_cluster(cid, "dissolved", rho, last, "no longer asked about together", now)
            c = next(c for c in existing if c.id == cid)
            changes.append(Change("dissolved", cid, c.name, c.members, rho))
        if not plan.promote:
            return changes
        names = {e.id: e.name for e in self.store.entities(self.person_id)}
        for members, rho in plan.promote:
            shown = [names[e] for e in sorted(members) if e in names]
            if len(shown) < 2:
                continue
            verdict = self._judge(members, shown, log_)
            if verdict is None:
                changes.append(Change("unjudged", None, "", members, rho))
                continue
            state = "active" if verdict.accepted else "rejected"
            reason = ("judged relevant, important and complete" if verdict.accepted else
                      "judged not " + " and not ".join(k for k in ("relevant", "important", "complete")
                                                       if not getattr(verdict, k)))
            cid = self.store.add_cluster(self.person_id, verdict.name, members, state, rho, last, reason, now)
            changes.append(Change("promoted" if verdict.accepted else "rejected", cid, verdict.name, members, rho))
        return changes

    def _judge(self, members: frozenset[int], shown: list[str], log_: Sequence[cl.Recalled]) -> cl.Verdict | None:
        if self.llm is None:
            return cl.Verdict(cl.plain_name(shown), True, True, True)
        queries = [r.query for r in reversed(log_) if r.entities & members][:5]
        items, _ = self.store.neighbourhood(self.person_id, sorted(members))
        notes = [m.text for m in self.store.memories(self.person_id, items[-6:])]
        try:
            reply = self.llm.complete(cl.judge_messages(shown, queries, notes), max_tokens=80, temperature=0.0,
                                      schema=cl.VERDICT_SCHEMA)
        except Exception as exc:  # preempted by a reply, or the model failed: judge it on a later run
            log.info("cluster judge did not answer (%s)", type(exc).__name__)
            return None
        return cl.read_verdict(reply, " ".join([*shown, *queries, *notes]))
