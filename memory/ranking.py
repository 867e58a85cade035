"""Ranking candidates and writing the memory block for the prompt. Pure functions, no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from text.phrases import readings
from text.words import split_sentences

from .affect import compatibility
from .dates import MONTH_YEAR_RE, MONTHS, NOTE_DATE_RE, WRITTEN_DATE_RE, format_date, read_written, relative
from .lexicon import RELATION_GROUP

W_SIM, W_AFFECT, W_RECENCY, W_MATCH = 0.78, 0.08, 0.06, 0.08
HALF_LIFE_DAYS = 120.0
# A row must be at least this similar to the query to be recalled, unless its entity was named or
# it carries the feeling the query names ("What was I worried about?" is 0.28 similar to the worry).
# Unrelated sentences score 0–0.25 with the bundled embedder (the best of 100k random vectors about
# 0.23); on LoCoMo dev this floor costs no evidence (57.0% → 56.9%). Below it a note is noise: the
# small model reads it back, and it changes the prompt on every turn. Rows a schema cue ("work",
# "health") or a hop brings in need it too: with 100k items, a cue brings in thousands.
RELEVANCE_FLOOR = 0.3
# Query words a memory below the floor must share to be kept: the embedder reads a long note as a whole
# ("What broke down at home?" came 0.23 from "Our boiler broke down again, so we've had no hot water…")
SHARED_WORDS = 2


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
    entity_id: int | None = None
    past: tuple[str, ...] = ()  # a summary's: the facts it stands for, having put them in the past


@dataclass(frozen=True)
class Result:
    candidate: Candidate
    score: float

    def as_dict(self) -> dict:
        c = self.candidate
        return {"id": c.id, "kind": c.kind, "text": c.text, "entity": c.entity, "entity_id": c.entity_id,
                "schema": c.schema, "score": round(self.score, 4), "source": c.source, "said_at": c.said_at,
                **({"past": list(c.past)} if c.past else {})}


def recency(said_at: str, now: datetime | date) -> float:
    """1 for today, halving every HALF_LIFE_DAYS."""
    when = datetime.fromisoformat(said_at)
    now_dt = now if isinstance(now, datetime) else datetime.combine(now, datetime.min.time())
    age = max(0.0, (now_dt - when).total_seconds() / 86400)
    return 0.5 ** (age / HALF_LIFE_DAYS)


def score(c: Candidate, now: datetime | date, query_valence: float | None = None) -> float:
    return (W_SIM * c.similarity + W_AFFECT * compatibility(query_valence, c.valence)
            + W_RECENCY * recency(c.said_at, now) + W_MATCH * c.match)


def vector_scores(similarity, days, valences, match, now_day: float, query_valence: float | None = None):
    """`score` for many rows at once (numpy arrays; days since 1970 as in the store's matrices)."""
    import numpy as np

    age = np.maximum(0.0, now_day - days)
    rec = np.power(0.5, age / HALF_LIFE_DAYS)
    if query_valence is None or query_valence == 0:
        compat = 0.5
    else:
        compat = np.where(valences == 0, 0.5, 1.0 - np.abs(query_valence - valences) / 2.0)
    return W_SIM * similarity + W_AFFECT * compat + W_RECENCY * rec + W_MATCH * match


def rank(candidates: list[Candidate], now: datetime | date, k: int = 5, query_valence: float | None = None,
         floor: float = RELEVANCE_FLOOR, max_persona: int = 2, nouns: frozenset[str] = frozenset(),
         feeling: str | None = None, asked: frozenset[str] = frozenset(), matched_enough: float = 1.0
         ) -> list[Result]:
    """The k best candidates by similarity, affect compatibility, recency and entity match.

    One result per row, persona nodes that repeat one feeling about one cause counted once, and at
    most `max_persona` of them, so facts keep room in the block. A candidate needs `floor`
    similarity at least, unless its entity was named (matched at `matched_enough` or more: a question
    of a schema's, "What do you know about my family?", brings in the family's entities at the schema's
    weight, whose notes stand at 0.1-0.2 from the question), it carries the feeling the query names, or
    it says one of the things the query names (`nouns`: "my dog" finds "…walk with my dog Max",
    filed under Max, at a similarity of 0.2) or SHARED_WORDS of its words (`asked`: the query's
    content words). Where the query names a feeling (`feeling`, a label
    of memory.affect: "annoying" is "frustrated") and a persona node names it too, the persona
    places go to such nodes: by valence and similarity alone, asked "What has been annoying me?",
    a sadness about a grandfather took the one place from the frustration about a train."""
    best: dict[tuple[str, int], Result] = {}
    names_feeling = re.compile(rf"\b{re.escape(feeling[:5])}", re.I) if feeling else None
    asked_feeling = names_feeling is not None and any(
        c.kind == "persona" and names_feeling.search(c.text) for c in candidates)
    for c in candidates:
        same_feeling = bool(query_valence) and c.valence * query_valence > 0
        if c.match < matched_enough and c.similarity < floor and not same_feeling \
                and not _mentioned(c.text, nouns, asked):
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
            if same in seen or personas >= max_persona or asked_feeling and not names_feeling.search(c.text):
                continue
            seen.add(same)
            personas += 1
        out.append(r)
        if len(out) == k:
            break
    return out


def _mentioned(text: str, nouns: frozenset[str], asked: frozenset[str]) -> bool:
    """A thing the query names is in the text, or SHARED_WORDS of its words are."""
    words = content_words(text)
    return bool(nouns & words) or len(asked & words) >= SHARED_WORDS


_TOKEN = re.compile(r"\w+|[^\w\s]")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: words and punctuation marks (close to BPE counts for English)."""
    return len(_TOKEN.findall(text))


_WORD = re.compile(r"[A-Za-z0-9][\w'’-]*")
_STOPWORDS = frozenset("""a an the and or but of to in on at for with from by as is are was were be been it its this that
these those he she they his her their i me my we our you your what when where which who whom how did does do has have
had not no so if then than there here about into over after before during s any some tell much many""".split())


def content_words(text: str) -> set[str]:
    """Lower-cased words of a text that carry meaning (no stop words)."""
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOPWORDS}


def said_of_anyone(words: set[str]) -> set[str]:
    """Words with every other word for the same relation: asked "How is my mom?", the sentence of a
    note that says "mum" is as close as the one that says "mom" (it had kept "Before that, … my mom
    is in hospital with…" over "my mum came home", on a replies run)."""
    return words | {other for w in words for other in RELATION_GROUP.get(w, ())}


def focus(text: str, query_words: set[str], max_words: int) -> str:
    """A long memory cut down to its sentences that share most words with the query, in their order.

    A memory within `max_words` is kept whole; where the closest sentence is itself longer than
    `max_words`, its window that shares most with the query is kept (of `max_words` words, or of
    WINDOW_WORDS where the memory has other sentences), marked with '…' where it was cut."""
    if len(text.split()) <= max_words:
        return text
    parts = split_sentences(text)
    scored = sorted(range(len(parts)), key=lambda i: (-len(content_words(parts[i]) & query_words), i))
    if len(parts[scored[0]].split()) > max_words:
        # the closest sentence alone is too long: its closest window, not a sentence further from the
        # query ("…feels sad because…" kept, "…Frank, had a fall…" left out, asked what happened to Frank)
        words = parts[scored[0]].split()
        max_words = min(max_words, WINDOW_WORDS) if len(parts) > 1 else max_words
        hits = [1 if (content_words(w) & query_words) else 0 for w in words]
        best = max(range(len(words) - max_words + 1), key=lambda j: (sum(hits[j:j + max_words]), -j))
        cut = " ".join(words[best:best + max_words])
        return ("…" if best else "") + cut + ("…" if best + max_words < len(words) else "")
    chosen, used = [], 0
    for i in scored:
        n = len(parts[i].split())
        if used + n <= max_words:
            chosen.append(i)
            used += n
    return " ".join(parts[i] for i in sorted(chosen))


def _day(said_at: str) -> date:
    return datetime.fromisoformat(said_at).date()


# What dates.absolutise puts after the phrase that named a time ("yesterday (7 May 2023)", "last year (2022)")
_NOTE_WHEN = re.compile(NOTE_DATE_RE, re.I)


@dataclass(frozen=True, order=True)
class When:
    """The time a block's lines go under: a day, or a month or year where that is all a note said."""
    start: date
    span: str = "day"  # "day", "month" or "year"


def _when(text: str, said_at: str) -> When:
    """When a note says its event happened, where it names a day, a month or a year ("went to the group
    yesterday (7 May 2023)", "painted it last year (2022)"), else the day it was said: asked "when did…",
    a small model answers with the header's date, not the one in the line. A week stays with the day
    it was said ("last week (the week of 2 June 2023)" under 9 June), and so does what is still to
    come: read last, below the rest, "Asha is getting married in June" had the small model answer
    "What am I nervous about?" with "Asha is nervous"."""
    said = When(_day(said_at))
    m = _NOTE_WHEN.search(text)
    if not m or m[1].lower().startswith("the week of"):
        return said
    named = When(*read_written(m[1]))  # "7 May 2023", "June 2023", "2022"
    return named if named.start <= said.start else said


RELATIVE_DAYS = 31  # a day further back is named by its date alone, as people do ("on 8 May", not "six months ago")


def _header(when: When, now: datetime | date) -> str:
    """'7 May 2026 (three weeks ago):', or '7 November 2025:' for a day more than a month back (the year
    stays: asked-for dates are answered with it), 'March 2026:' or '2022:'. A small model copies the
    header's words into a reply ('8 May 2023 (six months ago)'), and an age in months says less than the date."""
    day = when.start
    if when.span == "year":
        return f"{day.year}:"
    if when.span == "month":
        return f"{MONTHS[day.month - 1].capitalize()} {day.year}:"
    today = now.date() if isinstance(now, datetime) else now
    if abs((today - day).days) > RELATIVE_DAYS:
        return f"{format_date(day)}:"
    return f"{format_date(day)} ({relative(day, now)}):"


# What _header writes, wherever it turns up (a small model sometimes copies one into its reply).
DAY_HEADER = re.compile(rf"\b(?:{WRITTEN_DATE_RE}(?: \([^)]*\))?|{MONTH_YEAR_RE}|(?:19|20)\d{{2}}):", re.I)


def _pack(results: list[Result], now: datetime | date, budget_tokens: int, query: str | None,
          max_words: int) -> tuple[list[Result], str]:
    """Which results fit the budget and the block they make: lines grouped under their day (_when),
    days in order, and within a day in the order they were said, not by score: turn after turn the
    block then changes only where a memory comes or goes (new ones mostly at the end), so the
    model's cached prompt reaches further into it."""
    qwords = said_of_anyone(content_words(query)) if query else set()
    groups: dict[When, list[tuple[tuple, str]]] = {}
    kept: list[Result] = []
    seen: list[set[str]] = []
    used = 0
    for r in results:
        c = r.candidate
        if repeats(c.text, seen):  # a summary that says no more than a fact already in the block
            continue
        text = focus(c.text, qwords, max_words) if query is not None else c.text
        if text != c.text and repeats(text, seen):  # cut down, it says what a line above says
            continue
        line = f"- {text}"
        day = _when(text, c.said_at)  # when it happened, where the note says
        head = 0 if day in groups else estimate_tokens(_header(day, now)) + 1
        cost = estimate_tokens(line) + 1 + head
        if used + cost > budget_tokens and query is not None:
            room = budget_tokens - used - head - 2          # what is left for the words of a shorter line
            words = min(max_words, len(text.split())) - 1
            while used + cost > budget_tokens and words >= MIN_LINE_WORDS and room >= MIN_LINE_WORDS:
                line = f"- {focus(c.text, qwords, words)}"
                cost = estimate_tokens(line) + 1 + head
                words -= max(1, (cost - (budget_tokens - used)) // 2)
        if used + cost > budget_tokens:
            continue
        groups.setdefault(day, []).append(((c.said_at, c.kind, c.id), line))
        kept.append(r)
        seen.append(word_set(line))
        used += cost
    out = []
    for day in sorted(groups):
        out.append(_header(day, now))
        out += [line for _, line in sorted(groups[day])]
    return kept, "\n".join(out)


def words_in_order(text: str) -> list[str]:
    """Lower-cased words and numbers, as they come."""
    return re.findall(r"[a-z0-9']+", text.lower())


def word_set(text: str) -> set[str]:
    return set(words_in_order(text))


def stems(words: set[str]) -> set[str]:
    """Words by their first four letters: "walk" and "walking", "grand" and "granddad" are one."""
    return {w[:4] for w in words}


def word_forms(words: set[str]) -> set[str]:
    """As stems, and the first four letters of every lemma too: "running" and "runs" are one."""
    return stems(words) | {lemma[:4] for w in words for lemmas in readings(w).values() for lemma in lemmas}


def repeats(text: str, seen: list[set[str]], share: float = 0.9) -> bool:
    """Whether nearly all of text's words are already in one line of the block."""
    words = word_set(text)
    return bool(words) and any(len(words & s) >= share * len(words) for s in seen)


MAX_LINE_WORDS = 18
MIN_LINE_WORDS = 8   # a line cut shorter than this to fit the budget says too little to be worth it
# A note's closest sentence cut to its window, where the note says more besides: the words around the
# question's own carry the answer, and the room left holds another note (18 words: LoCoMo evidence
# recall 60.5%, answer recall 45.7%; 12: 61.3% and 45.6%; the whole sentences as before: 61.6% and 43.1%)
WINDOW_WORDS = 12


def memory_block(results: list[Result], now: datetime | date, budget_tokens: int = 200, query: str | None = None,
                 max_words: int = MAX_LINE_WORDS) -> str:
    """Short lines under a header per day ('7 May 2023 (three weeks ago):', or the month or year a note
    named: 'March 2026:'), days oldest first, within the token budget; results are taken best first
    and one that does not fit is skipped. With the query, a long memory is cut down to its sentences
    closest to the query."""
    return _pack(results, now, budget_tokens, query, max_words)[1]


def block_results(results: list[Result], now: datetime | date, budget_tokens: int = 200, query: str | None = None,
                  max_words: int = MAX_LINE_WORDS) -> list[Result]:
    """The results that made it into the block, best first."""
    return _pack(results, now, budget_tokens, query, max_words)[0]
