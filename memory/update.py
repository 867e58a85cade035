"""Update by generation: one integrative memory from the old version and the new turn.

`rewrite()` asks the language model (when there is one) for the new memory in a constrained one-line
format, then `verify()`s it: every essential keyword of the old version that the turn does not
contradict survives, no entity appears that no turn mentioned, the length is bounded, the emotion is
named. When the model is absent or its answer fails the check, `compose()` writes it deterministically,
and `render()` says it in plain sentences a person can read: "<current>. Before that, on <date>,
<history>. <Name> feels <emotion> because <cause>."
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from text.words import split_sentences

from . import lexicon as lx
from .affect import with_cause
from .appraisal import Standing, standing as standing_of

MAX_WORDS = 90          # an item's whole text
HISTORY_WORDS = 45      # the "Before that" part of a deterministic composition
_CHANGE = re.compile(r"\b(no longer|not|never|quit|quitting|left|stopped|ended|over|cancel\w*|recovered from|"
                     r"finished|gave up|sold|lost)\s+(?:\w+\s+){0,3}$", re.I)


@dataclass(frozen=True)
class Draft:
    """The content of one item version, before it is stored."""
    current: str                  # the present situation (already third person, dates absolute)
    when: str                     # the date it was said, "20 March 2026"
    history: str = ""             # what came before, still worth knowing
    emotion: str | None = None
    cause: str | None = None
    provenance: tuple[int, ...] = field(default_factory=tuple)
    method: str = "new"


_DATED = re.compile(r"^(\d{1,2} [A-Z][a-z]+ \d{4}): ")  # a history segment's date, as compose() writes it


def render(d: Draft, name: str = "") -> str:
    """The item's text as a person reads it in the window: what is true now, then what came before
    with its dates, then the feeling and its cause. `name`: the person's ("" for one not known by a
    name, whose notes stay in their own words: "I feel…")."""
    parts = [_sentence(d.current)]
    if d.history:
        before = [_DATED.sub(r"on \1, ", segment) for segment in re.split(r";\s+", d.history.strip().rstrip("."))]
        parts.append(_sentence("Before that, " + "; ".join(before)))
    if d.emotion and d.emotion.lower()[:5] not in d.current.lower():
        who = f"{name} feels" if name else "I feel"
        parts.append(_sentence(f"{who} {d.emotion}{with_cause(d.cause)}"))
    return " ".join(parts)


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".;, ")
    return text[:1].upper() + text[1:] + "."


_STOP = set("""a an the and or but so of to in on at for with from by as is are was were be been being have has had
do does did this that these those it its he she they them his her their we our you your i me my mine not no yes
very really just also about after before then than there here when what which who how all any some more most much
many such only own same too can will would should could may might must shall now earlier feels because while""".split())


def words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][\w'’-]*|\d+", text)


def essential_keywords(text: str) -> set[str]:
    """What must survive an update: names, entity nouns, numbers, and emotion/event nouns of the lexicon."""
    from .dates import MONTHS

    keys: set[str] = set()
    text = re.sub(r"\b\d{1,2} (" + "|".join(m.capitalize() for m in MONTHS) + r")( \d{4})?", " ", text)
    for w in words(text):
        low = w.lower().strip("'’")
        low = re.sub(r"['’]s$", "", low)
        if low in _STOP or len(low) < 3 and not low.isdigit():
            continue
        if w[0].isupper() and low not in lx.NOT_NAMES:
            keys.add(low)
        elif low in lx.ENTITY_NOUNS or low.isdigit():
            keys.add(low)
    return keys


def _present(key: str, text: str) -> bool:
    stem = key[:6] if len(key) > 6 else key
    return re.search(r"(?<![\w])" + re.escape(stem), text, re.I) is not None


def contradicted(key: str, turn: str) -> bool:
    """Whether the new turn says the keyword no longer holds ("quit the hospital", "no longer vegetarian")."""
    for m in re.finditer(r"(?<![\w])" + re.escape(key[:6]), turn, re.I):
        if _CHANGE.search(turn[:m.start()]):
            return True
    return False


@dataclass(frozen=True)
class Check:
    ok: bool
    reason: str = ""


def verify(candidate: str, old_text: str, turn_text: str, known_names: set[str] = frozenset(),
           emotion: str | None = None, max_words: int = MAX_WORDS) -> Check:
    """Accept a generated memory only if it keeps the old essentials, invents nothing and is bounded."""
    text = candidate.strip()
    n = len(text.split())
    if n < 4:
        return Check(False, "too short")
    if n > max_words:
        return Check(False, f"too long ({n} words)")
    for key in sorted(essential_keywords(old_text)):
        if not _present(key, text) and not contradicted(key, turn_text):
            return Check(False, f"dropped '{key}'")
    allowed = (old_text + " " + turn_text).lower()
    for w in words(text):
        low = re.sub(r"['’]s$", "", w.lower())
        if (w[0].isupper() and low not in lx.NOT_NAMES and low not in _STOP and low not in allowed
                and low not in {k.lower() for k in known_names} and not _is_date_word(low)):
            return Check(False, f"invented '{w}'")
    if emotion and not _present(emotion[:5], text):
        return Check(False, f"emotion '{emotion}' not named")
    return Check(True)


def _is_date_word(w: str) -> bool:
    from .dates import MONTHS, WEEKDAYS

    return w in MONTHS or w in WEEKDAYS or w in ("earlier", "now", "feels")


def bound_history(segments: list[str], max_words: int = HISTORY_WORDS) -> str:
    """Join history segments, newest kept whole; older ones shortened to their essential keywords."""
    kept: list[str] = []
    budget = max_words
    for seg in reversed(segments):
        seg = seg.strip().rstrip(".")
        n = len(seg.split())
        if n <= budget:
            kept.append(seg)
            budget -= n
        else:
            keys = [w for w in words(seg) if w.lower() in essential_keywords(seg)]
            short = " ".join(dict.fromkeys(keys))
            head = " ".join(seg.split()[:max(0, min(12, budget - len(short.split())))])
            piece = (head + (f" ({short})" if short and short.lower() not in head.lower() else "")).strip()
            if piece:
                kept.append(piece)
                budget -= len(piece.split())
        if budget <= 0:
            break
    return "; ".join(reversed(kept))


# A turn that says something changed: what it is about is no longer as it was ("walking again", "I'm
# back", "I work at the bakery now", "I quit…", "I started…")
_CHANGED = re.compile(r"\b(now|again|any ?more|no longer|finally|back|instead|recovered|quit|stopped|left|moved|"
                      r"started|switched|changed|became|cancel\w*|ended|finished|gave up|sold|lost|turned out)\b", re.I)
_PASSING = set("""today yesterday tomorrow tonight week weekend month year next last day days time morning night
going got get still new""".split())
STANDING_FACTS = 2  # sentences that stand side by side as what is true now; an older one goes to the history


def topic_stems(text: str) -> set[str]:
    """What a sentence is about, by the first four letters of its words: no names (the entity's own,
    shared by everything said of it), no numbers (dates), stop words or words of passing time."""
    return {w.lower()[:4] for w in words(text) if w[0].islower() and w.lower() not in _STOP
            and w.lower() not in _PASSING and len(w) > 2}


def changes(standing: str, turn: str) -> bool:
    """Whether the turn makes a sentence of what was true no longer the present: it says something
    changed, or it speaks of the same thing ("passed my driving test" after "my driving test is next
    Thursday"). "Mom called, she has a new puppy" leaves "Mum is visiting next week" standing."""
    return bool(_CHANGED.search(turn) or topic_stems(standing) & topic_stems(turn))


def lasting(sentence: str) -> bool:
    """Pure. A sentence that stays true whatever follows: a death ("Priya's friend passed away on
    Tuesday", which a turn about his garden after it sent to the history, and the recap then left out)."""
    return Standing.LOSS in standing_of(sentence)


def compose(old: Draft, new: Draft, name: str = "") -> Draft:
    """The deterministic integrative memory: what the turn changes of the old one becomes history,
    the turn the current situation, beside what it leaves true (what is `lasting`, and the newest
    STANDING_FACTS - 1 sentences of the rest)."""
    said = split_sentences(old.current)
    kept = {s.rstrip(". ") for s in said if lasting(s)}
    unchanged = [s.rstrip(". ") for s in said if s.rstrip(". ") in kept or not changes(s, new.current)]
    passing = [s for s in unchanged if s not in kept]
    newest = passing[max(0, len(passing) - (STANDING_FACTS - 1)):]
    standing = [s for s in unchanged if s in kept or s in newest]
    gone = " ".join(s for s in said if s.rstrip(". ") not in standing).rstrip(". ")
    segments = [s for s in re.split(r";\s+", old.history) if s] if old.history else []
    if gone:
        segments.append(f"{old.when}: {gone}" if old.when and old.when not in gone else gone)
        if old.emotion and old.emotion.lower()[:5] not in old.current.lower():
            segments[-1] += f", and {name or 'I'} felt {old.emotion}{with_cause(old.cause)}"
    emotion, cause = (new.emotion, new.cause) if new.emotion else (old.emotion, old.cause)
    current = ". ".join([*standing, new.current.rstrip(". ")])
    return replace(new, current=current, history=bound_history(segments), emotion=emotion, cause=cause,
                   provenance=tuple(dict.fromkeys(old.provenance + new.provenance)), method="compose")


PROMPT = """You keep a short memory about {name}. Merge the OLD memory and the NEW message into ONE updated memory.
Rules: third person; keep every important fact of the old memory (it is history now), say what is true now and when,
and name {name}'s emotion and its cause. Do not add any person, place or thing that is not in OLD or NEW.
At most 60 words. Answer with exactly one line that starts with "MEMORY:"."""


def prompt_messages(name: str, old_text: str, new: Draft) -> list[dict]:
    feeling = f"\nEmotion: {new.emotion}" + (f" ({with_cause(new.cause).strip()})" if new.cause else "") \
        if new.emotion else ""
    return [{"role": "system", "content": PROMPT.format(name=name or "the person")},
            {"role": "user", "content": f"OLD: {old_text}\nNEW ({new.when}): {new.current}{feeling}"}]


def parse(reply: str) -> str | None:
    """The memory line of a constrained reply, or None when the format was not followed."""
    for line in reply.strip().splitlines():
        m = re.match(r"^\s*\**\s*MEMORY\s*\**\s*:\s*\**\s*(.+)$", line, re.I)
        if m:
            text = m.group(1).strip().strip('"').strip()
            return text or None
    return None


@dataclass(frozen=True)
class Rewrite:
    text: str
    draft: Draft
    check: Check
    used_llm: bool


def rewrite(old: Draft, old_text: str, new: Draft, turn_text: str, llm=None, name: str = "",
            known_names: set[str] = frozenset(), max_tokens: int = 120) -> Rewrite:
    """The new version of an item: the model's integrative memory if it passes `verify`, else `compose`."""
    composed = compose(old, new, name)
    if llm is not None:
        try:
            reply = llm.complete(prompt_messages(name, old_text, new), max_tokens=max_tokens, temperature=0.0)
        except Exception as exc:  # a model failure never loses the update
            check = Check(False, f"model failed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
        else:
            text = parse(reply)
            check = verify(text, old_text, turn_text, known_names, new.emotion) if text else Check(False, "bad format")
            if check.ok:
                draft = replace(composed, method="llm")
                return Rewrite(text, draft, check, True)
        return Rewrite(render(composed, name), composed, check, False)
    return Rewrite(render(composed, name), composed, Check(False, "no model"), False)
