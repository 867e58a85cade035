"""Ranking candidates and writing the memory block for the prompt. Pure functions, no I/O."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from .affect import compatibility
from .dates import format_date, relative

W_SIM, W_AFFECT, W_RECENCY, W_MATCH = 0.72, 0.08, 0.12, 0.08
HALF_LIFE_DAYS = 120.0


@dataclass(frozen=True)
class Candidate:
    id: int
    kind: str               # "item" | "persona"
    text: str
    similarity: float       # cosine with the query
    said_at: str            # ISO date-time
    valence: float = 0.0
    match: float = 0.0      # 1 matched in the query, 0.5 one hop away, 0 otherwise
    entity: str | None = None
    schema: str | None = None
    source: str = "pool"    # "pool" | "fallback"
    provenance: tuple[int, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Result:
    candidate: Candidate
    score: float

    def as_dict(self) -> dict:
        c = self.candidate
        return {"id": c.id, "kind": c.kind, "text": c.text, "entity": c.entity, "schema": c.schema,
                "score": round(self.score, 4), "source": c.source, "said_at": c.said_at}


def recency(said_at: str, now: datetime | date) -> float:
    """1 for today, halving every HALF_LIFE_DAYS."""
    when = datetime.fromisoformat(said_at)
    now_dt = now if isinstance(now, datetime) else datetime.combine(now, datetime.min.time())
    age = max(0.0, (now_dt - when).total_seconds() / 86400)
    return 0.5 ** (age / HALF_LIFE_DAYS)


def score(c: Candidate, now: datetime | date, query_valence: float | None = None) -> float:
    return (W_SIM * c.similarity + W_AFFECT * compatibility(query_valence, c.valence)
            + W_RECENCY * recency(c.said_at, now) + W_MATCH * c.match)


def rank(candidates: list[Candidate], now: datetime | date, k: int = 5, query_valence: float | None = None,
         min_similarity: float = 0.0, max_persona: int = 2) -> list[Result]:
    """The k best candidates by similarity, affect compatibility, recency and entity match.

    One result per row, persona nodes that repeat one feeling about one cause counted once, and at
    most `max_persona` of them, so facts keep room in the block."""
    best: dict[tuple[str, int], Result] = {}
    for c in candidates:
        if c.similarity < min_similarity:
            continue
        r = Result(c, score(c, now, query_valence))
        key = (c.kind, c.id)
        if key not in best or r.score > best[key].score:
            best[key] = r
    ranked = sorted(best.values(), key=lambda r: (-r.score, r.candidate.kind, r.candidate.id))
    out, seen, personas = [], set(), 0
    for r in ranked:
        c = r.candidate
        if c.kind == "persona":
            same = c.text.split(":", 1)[-1].strip().lower()  # one feeling about one cause, whatever the entity
            if same in seen or personas >= max_persona:
                continue
            seen.add(same)
            personas += 1
        out.append(r)
        if len(out) == k:
            break
    return out


_TOKEN = re.compile(r"\w+|[^\w\s]")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: words and punctuation marks (close to BPE counts for English)."""
    return len(_TOKEN.findall(text))


def _line(r: Result, now: datetime | date) -> str:
    c = r.candidate
    when = datetime.fromisoformat(c.said_at)
    rel = relative(when, now)
    label = rel if rel in ("today", "yesterday") else f"{rel}, {format_date(when.date())}"
    prefix = "feeling" if c.kind == "persona" else label
    return f"- ({prefix}) {c.text}"


def _truncate(text: str, tokens: int) -> str:
    pieces = _TOKEN.finditer(text)
    end = 0
    for i, m in enumerate(pieces):
        if i >= tokens:
            break
        end = m.end()
    return text[:end].rstrip(" ,;:") + "…"


def memory_block(results: list[Result], now: datetime | date, budget_tokens: int = 200) -> str:
    """Compact lines, best first, dates relative to now, within the token budget (a long line is cut)."""
    lines: list[str] = []
    used = 0
    for r in results:
        line = _line(r, now)
        cost = estimate_tokens(line) + 1
        if used + cost > budget_tokens:
            room = budget_tokens - used - 1
            if room >= 24:
                line = _truncate(line, room - 1)
                lines.append(line)
                used += estimate_tokens(line) + 1
            continue
        lines.append(line)
        used += cost
    return "\n".join(lines)


def block_results(results: list[Result], now: datetime | date, budget_tokens: int = 200) -> list[Result]:
    """The results that made it into the block (whole or cut), in block order."""
    kept, used = [], 0
    for r in results:
        cost = estimate_tokens(_line(r, now)) + 1
        if used + cost > budget_tokens:
            room = budget_tokens - used - 1
            if room >= 24:
                kept.append(r)
                used += room
            continue
        kept.append(r)
        used += cost
    return kept
