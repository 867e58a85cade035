"""Clusters that emerge from what is asked: groups of entities the person's questions pull together.

The preset schemas fill up as a person talks for months, and at a small budget the right memory is
crowded out. So Hearth watches which entities each recall drew on (its answer set A_q) and, off the
critical path, looks for groups H that the questions ask about together coherently:

    ρ(H) = mean over the recalls q that touch H of |A_q ∩ H| / |A_q ∪ H|

A group with ρ(H) at or above a threshold, asked about at least `min_queries` times, is a candidate;
a judge (the language model, with a schema-constrained answer, or none) finds it relevant, important
and complete and names it, and it becomes a cluster that routing matches like a schema. A cluster
nobody asks about any more dissolves. Everything here is pure: the store keeps the log and the
versions (memory/tables/clusters.py), the writer runs it (memory/turns.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

ALPHA = 0.4          # coherence a group needs (the research's α); a setting (config cluster_coherence)
MIN_QUERIES = 3      # recalls that must have touched a group before it is judged
MAX_MEMBERS = 8      # a cluster larger than this says little more than a schema
WINDOW = 60          # the recent recalls emergence and dissolution look at
EVERY = 10           # recalls between two runs of emergence


@dataclass(frozen=True)
class Recalled:
    """One recall as the log keeps it: the words asked and the entities the answer drew on."""
    id: int
    query: str
    entities: frozenset[int]


@dataclass(frozen=True)
class Cluster:
    """A cluster's current version."""
    id: int
    name: str
    members: frozenset[int]
    state: str            # "active" | "dissolved" | "rejected"
    since_recall: int     # the last recall logged when this version was written


@dataclass(frozen=True)
class Plan:
    promote: tuple[tuple[frozenset[int], float], ...]   # (members, coherence) to judge
    dissolve: tuple[tuple[int, float], ...]             # (cluster id, coherence now)


def coherence(group: frozenset[int], answers: Sequence[frozenset[int]]) -> float:
    """ρ(H): the mean Jaccard overlap of the group with each answer set that touches it (0 if none does)."""
    touching = [a for a in answers if a & group]
    if not touching:
        return 0.0
    return sum(len(a & group) / len(a | group) for a in touching) / len(touching)


def _grow(seed: frozenset[int], answers: Sequence[frozenset[int]], alpha: float, taken: frozenset[int],
          max_members: int, min_queries: int) -> frozenset[int]:
    """The largest group grown from seed, one entity at a time (the one keeping ρ highest), while ρ ≥ alpha.
    An entity joins only if at least min_queries of the answers touching the group hold it: asked about
    with the group, not once beside it."""
    group = seed
    while len(group) < max_members:
        together = Counter(e for a in answers if a & group for e in a)
        nearby = {e for e, n in together.items() if n >= min_queries} - group - taken
        best = None
        for entity in sorted(nearby):
            rho = coherence(group | {entity}, answers)
            if rho >= alpha and (best is None or rho > best[0]):
                best = (rho, entity)
        if best is None:
            break
        group = group | {best[1]}
    return group


def candidates(answers: Sequence[frozenset[int]], alpha: float = ALPHA, min_queries: int = MIN_QUERIES,
               taken: frozenset[int] = frozenset(), max_members: int = MAX_MEMBERS) -> list[tuple[frozenset[int], float]]:
    """Coherent groups of two or more entities, disjoint and outside `taken`, each with its ρ.

    Seeds are the pairs most often recalled together (at least min_queries times); each grows to the
    largest group whose coherence stays at or above alpha."""
    pairs: Counter = Counter()
    for a in answers:
        ids = sorted(a)
        pairs.update((x, y) for i, x in enumerate(ids) for y in ids[i + 1:])
    out: list[tuple[frozenset[int], float]] = []
    used = set(taken)
    for (x, y), n in sorted(pairs.items(), key=lambda p: (-p[1], p[0])):
        if n < min_queries:
            break
        if x in used or y in used:
            continue
        seed = frozenset((x, y))
        if coherence(seed, answers) < alpha:
            continue
        # the seed was asked about min_queries times, so the group it grows into is too
        group = _grow(seed, answers, alpha, frozenset(used), max_members, min_queries)
        out.append((group, coherence(group, answers)))
        used |= group
    return out


def plan(clusters: Sequence[Cluster], log: Sequence[Recalled], alpha: float = ALPHA,
         min_queries: int = MIN_QUERIES, window: int = WINDOW) -> Plan:
    """What one run of emergence does over the recent log: groups to judge (none that is already a
    cluster, or was judged and rejected with the same members), and active clusters to dissolve
    (a window of recalls has passed since they were written and they fell below alpha / 2 in it)."""
    recent = [r.entities for r in log[-window:] if r.entities]
    active = [c for c in clusters if c.state == "active"]
    rejected = {c.members for c in clusters if c.state == "rejected"}
    taken = frozenset().union(*(c.members for c in active)) if active else frozenset()
    promote = tuple((g, rho) for g, rho in candidates(recent, alpha, min_queries, taken) if g not in rejected)
    dissolve = []
    for c in active:
        after = [r for r in log if r.id > c.since_recall]
        if len(after) >= window:
            rho = coherence(c.members, [r.entities for r in after[-window:] if r.entities])
            if rho < alpha / 2:
                dissolve.append((c.id, rho))
    return Plan(promote, tuple(dissolve))


# -- the judge -------------------------------------------------------------------------------------

# The judgement first, then the name: a small model writes what it has decided before it names it.
VERDICT_SCHEMA = {
    "type": "object",
    "properties": {
        "relevant": {"type": "boolean"},
        "important": {"type": "boolean"},
        "complete": {"type": "boolean"},
        "name": {"type": "string", "maxLength": 40},
    },
    "required": ["relevant", "important", "complete", "name"],
}


@dataclass(frozen=True)
class Verdict:
    name: str
    relevant: bool
    important: bool
    complete: bool

    @property
    def accepted(self) -> bool:
        return self.relevant and self.important and self.complete


def judge_messages(members: Sequence[str], queries: Sequence[str], notes: Sequence[str]) -> list[dict]:
    """The judge's prompt: the group, the questions that pulled it together, a few of its notes."""
    listed = "\n".join(f"- {q}" for q in queries[:5])
    noted = "\n".join(f"- {n}" for n in notes[:6])
    return [
        {"role": "system", "content": "You organise a person's memories into topics. Answer in JSON."},
        {"role": "user", "content":
            f"Things asked about together: {', '.join(members)}.\n"
            f"Questions that asked about them:\n{listed}\n"
            f"What is remembered about them:\n{noted}\n\n"
            "Judge the group. relevant: the things belong to one topic; important: the person is likely to "
            "ask about it again; complete: the group needs no other thing to make sense. name: a short name "
            "for the topic, two to four words."},
    ]


_NAME_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def read_verdict(text: str, sources: str = "") -> Verdict | None:
    """The judge's answer, or None when it is not the schema's, or (given the sources: the members'
    names, the questions and the notes it was shown) when its name has a word none of them has:
    nothing unverified is written."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), bool) for k in ("relevant", "important",
                                                                                        "complete")):
        return None
    name = data.get("name")
    if not isinstance(name, str):
        return None
    words = _NAME_WORD.findall(name)
    if not 1 <= len(words) <= 6:
        return None
    if sources:
        known = {_stem(w) for w in _NAME_WORD.findall(sources.lower())}
        if any(_stem(w) not in known for w in cue_words(name)):
            return None
    return Verdict(" ".join(words), data["relevant"], data["important"], data["complete"])


def _stem(word: str) -> str:
    word = re.sub(r"['’]s$", "", word.lower())
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def plain_name(members: Sequence[str]) -> str:
    """A cluster's name where no model judged it: its first members, as they are called."""
    shown = list(members[:3])
    return " and ".join([", ".join(shown[:-1]), shown[-1]]) if len(shown) > 1 else shown[0]


_GENERIC = frozenset("""and the of with about their his her my our your plans things stuff life topic topics
people time memories memory""".split())


def cue_words(name: str) -> frozenset[str]:
    """The words of a cluster's name that route a question to it, as a schema's cue words do."""
    return frozenset(w.lower() for w in _NAME_WORD.findall(name) if len(w) >= 4 and w.lower() not in _GENERIC)
