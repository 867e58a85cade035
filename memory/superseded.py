"""Facts a later integrative memory has put in the past. Pure functions, no I/O.

A fact item keeps one turn's words as they were said ("Tom is teaching maths at Hillside School").
When a later turn changes that ("I quit teaching… I'm working at my uncle's bakery now"), the
entity's integrative memory says what is true now and keeps the fact in its history. Shown beside
that memory, the old fact still reads as the present, and the small model answered "Where do I work
now?" with the school it had read first. So recall lets the integrative memory stand for a fact it
has put in the past: what the fact said is still there, after "Before that".
"""

from __future__ import annotations

import re
from dataclasses import replace

from .lexicon import KIND_WORDS
from .ranking import Candidate, Result, content_words, stems
from .tables.recallable import Summary

# Of a fact's content words (by their first four letters), at least this share must stand in the
# summary's history, and less than PRESENT_SHARE in what it says is true now.
PAST_SHARE = 0.7
PRESENT_SHARE = 0.5


def put_in_the_past(fact_text: str, fact_turns: list[int], summary: Summary) -> bool:
    """Whether the summary was written from this fact's turns and holds its words as history, not as now."""
    if not summary.history or not fact_turns or not set(fact_turns) <= set(summary.provenance):
        return False
    words = stems(content_words(fact_text)) - stems(_whom(fact_text))
    if not words:
        return False
    past = len(words & stems(content_words(summary.history))) / len(words)
    present = len(words & stems(content_words(summary.current))) / len(words)
    return past >= PAST_SHARE and present < PRESENT_SHARE


def _whom(text: str) -> set[str]:
    """The words that say whom a note is about ("Maria's brother"): every version of it names them,
    what is true now as much as what was, so they tell neither. ("Maria's brother is finding it
    hard to make friends" stood beside "…Maria's brother made a friend today", half its words in
    what is now, and the reply said he was still finding it hard, live.)"""
    names = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+\b", text)}
    return names | {w for w in content_words(text) if w in KIND_WORDS}


def summaries_stand_for_past_facts(candidates: list[Candidate], facts: set[int],
                                   summaries: list[Summary]) -> list[Candidate]:
    """The candidates with every fact (item ids in `facts`) that its entity's summary put in the
    past replaced by that summary: as a candidate already, it keeps the better of the two's
    similarity and match; otherwise it comes in with the fact's."""
    by_entity = {s.entity_id: s for s in summaries}
    items = {c.id: c for c in candidates if c.kind == "item"}
    out: list[Candidate] = []
    standing: dict[int, Candidate] = {}
    for c in candidates:
        summary = by_entity.get(c.entity_id) if c.kind == "item" and c.id in facts else None
        if summary is None or not put_in_the_past(c.text, list(c.provenance), summary):
            out.append(c)
            continue
        base = standing.get(summary.id) or items.get(summary.id)
        if base is None:
            base = replace(c, id=summary.id, text=summary.text, said_at=summary.said_at,
                           provenance=tuple(summary.provenance))
        standing[summary.id] = replace(base, similarity=max(base.similarity, c.similarity),
                                       match=max(base.match, c.match), past=(*base.past, c.text))
    kept = {c.id for c in out if c.kind == "item"}
    out = [standing.pop(c.id) if c.kind == "item" and c.id in standing else c for c in out]
    return out + [s for i, s in standing.items() if i not in kept]


def with_past_facts(results: list[Result], kept: list[Result]) -> list[dict]:
    """The memories in the block, as recall reports them, each with the facts it stands for
    (`past`). A summary left out of the block because a line of it already says what it says now
    leaves its past facts with the kept memory of the same entity: a reply's notes carried on from an
    earlier turn must still lose them (assistant/reply/prompt.carry_notes)."""
    out = [r.as_dict() for r in kept]
    for r in results:
        if not r.candidate.past or r in kept:
            continue
        same = next((m for m in out if m["entity_id"] is not None and m["entity_id"] == r.candidate.entity_id), None)
        if same is not None:
            same["past"] = [*same.get("past", ()), *r.candidate.past]
    return out
