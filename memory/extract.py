"""What a user turn is about: the entities it mentions, the schemas it touches, dates and affect.

Deterministic and pure: capitalised names, "my sister Anna" / "a puppy called Biscuit", a noun
lexicon (COVID, driving test, trip...), the person's existing entity names and aliases, and, where a
turn names none of those, the thing it speaks of (text.phrases.topic_of).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from text.phrases import topic_of, verb_after
from text.words import opening_greeting, split_sentences
from wordfreq import zipf_frequency

from . import lexicon as lx
from .affect import Affect, detect_affect
from .dates import DateMention, resolve_dates
from .noting import fact_of


@dataclass(frozen=True)
class Known:
    """An existing entity of the person, as matching needs it."""
    id: int
    name: str
    schema: str
    aliases: tuple[str, ...] = ()


@dataclass
class Mention:
    name: str
    schema: str
    aliases: set[str] = field(default_factory=set)
    start: int = 0
    named: bool = False          # a proper name, not a common noun
    known_id: int | None = None  # an existing entity of the person
    own: bool = False            # someone of the person's own, named by what they are to them ("my sister")


@dataclass
class TurnFacts:
    text: str
    mentions: list[Mention]
    schemas: list[str]           # touched schemas, strongest first
    affect: Affect | None
    dates: list[DateMention]
    fact: str                    # the turn's informative content, dates made absolute, third person


def _word_re(phrase: str) -> re.Pattern:
    return re.compile(r"(?<![\w'])" + re.escape(phrase) + r"(?:s|es|'s)?(?![\w])", re.I)


CUE_PATTERNS = {schema: re.compile(r"(?<![\w])(" + "|".join(re.escape(c) for c in cues) + r")", re.I)
            for schema, cues in lx.SCHEMA_CUES.items()}
_NOUNS = sorted(lx.ENTITY_NOUNS, key=len, reverse=True)
_NOUN_RE = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in _NOUNS) + r")s?(?![\w])", re.I)
_KINDS = sorted(lx.KIND_WORDS, key=len, reverse=True)
_NAME = r"(?:(?:St|Mt|Dr)\.\s+)?[A-Z][\w'’-]*(?:\s+(?:of\s+)?[A-Z][\w'’-]*)*"
_BEFORE_KIND = (r"(?:(?:little|big|older|younger|oldest|eldest|youngest|new|old|beagle|rescue|baby|best|closest|"
                r"dearest|dear|good|late|other|twin)\s+)*")  # "my little sister", "my oldest friend"
# where they are from, said between the relation and its name: "my neighbour on the allotment, Frank"
_QUALIFIER = r"(?:\s+(?:on|at|from|in|next|down|up|across|over)(?:\s+[A-Za-z]+){1,3}(?=,))?"


def _relation_re(opener: str) -> re.Pattern:
    """A relation and its name after `opener` ("my sister Anna"): group 1 the kind, group 2 the name."""
    return re.compile(rf"\b(?:{opener})\s+" + _BEFORE_KIND + "(" + "|".join(_KINDS) + ")" + _QUALIFIER
                      + r"\s*,?\s+(?:called\s+|named\s+)?(" + _NAME + ")")


_RELATION_RE = _relation_re(r"[Mm]y|[Oo]ur|[Aa]n?|[Tt]he|[Hh]is|[Hh]er|[Tt]heir")
# the person's own, also in a note about them by name: "Marcus's brother Sam"
_NOTED_RELATION_RE = _relation_re(r"[Mm]y|[Oo]ur|[A-Z][\w-]*['’]s")
_CAPS_RE = re.compile(r"(?<![\w'’])(" + _NAME + ")")
# "my husband": someone of the person's own, not named in this turn ("my uncle's bakery" is about the bakery)
_OWN_RE = re.compile(r"\b(?:[Mm]y|[Oo]ur)\s+" + _BEFORE_KIND + "(" + "|".join(_KINDS) + r")(?![\w'’])")

# A capitalised word that only starts a sentence ("Seeing you there…", "Appreciate it!") is taken for
# a name only if English seldom uses it: at or above this Zipf frequency (wordfreq: 4.7 is about 50 per
# million words, "appreciate", "lucky") it is an ordinary word. The few first names as common as that
# (John, Rose) are still found mid-sentence, after "my sister", or once they are known.
COMMON_WORD_ZIPF = 4.7


def ordinary_word(word: str) -> bool:
    """Whether a word starting a sentence is most likely not a name: common in English, or a verb's -ing form."""
    low = _strip_possessive(word).lower()  # "How's" is "how"
    return (len(low) > 5 and low.endswith("ing")) or zipf_frequency(low, "en") >= COMMON_WORD_ZIPF


def schema_scores(text: str) -> dict[str, int]:
    """How many cue words of each schema the text holds."""
    scores = {}
    for schema, pattern in CUE_PATTERNS.items():
        n = len(pattern.findall(text))
        if n:
            scores[schema] = n
    return scores


def _strip_possessive(name: str) -> str:
    return re.sub(r"['’]s$", "", name).strip()


def _sentence_starts(text: str) -> set[int]:
    starts, pos = {0}, 0
    for s in split_sentences(text):
        at = text.find(s, pos)
        if at >= 0:
            starts.add(at)
            pos = at + len(s)
    return starts


def match_known(text: str, known: list[Known]) -> list[tuple[Known, int]]:
    """Existing entities whose name or alias appears in the text, with the offset of the first hit.
    An alias that is a relation is known by every word for it ("my mum Anna", then "Mom called")."""
    hits = []
    for entity in known:
        best = None
        for phrase in lx.known_as(entity.name, entity.aliases):
            if len(phrase) < 3 and phrase.lower() not in ("ex",):
                continue
            m = _word_re(phrase).search(text)
            if m and (best is None or m.start() < best):
                best = m.start()
        if best is not None:
            hits.append((entity, best))
    return sorted(hits, key=lambda h: h[1])


def _said_as_verb(text: str, noun: re.Match) -> bool:
    """A thing's word said with an -s as a verb: "the heating works again" (a turn of relief filed
    under work, on a replies run), "she plans to"."""
    before = re.findall(r"[\w'’]+", text[:noun.start()].lower())
    return len(noun.group(0)) > len(noun.group(1)) and bool(before) and verb_after(noun.group(0).lower(), before[-1])


def named_relations(text: str) -> dict[str, set[str]]:
    """Pure. Name -> the kinds of someone the person named them as ("my brother Sam", "Marcus's
    daughter Chloe" in a note), every word for the same relation included ("mum", "mom")."""
    out: dict[str, set[str]] = {}
    for rel in _NOTED_RELATION_RE.finditer(text):
        kind, name = rel.group(1).lower(), _strip_possessive(rel.group(2)).split()[0]
        if name.lower() not in lx.NOT_NAMES:
            out.setdefault(name, set()).update(lx.RELATION_GROUP.get(kind, {kind}))
    return out


def find_mentions(text: str, known: list[Known], self_names: tuple[str, ...] = ()) -> list[Mention]:
    """Entities the text mentions: existing ones first matched by name or alias, then new ones."""
    scores = schema_scores(text)
    dominant = max(scores, key=scores.get) if scores else None
    mentions: dict[str, Mention] = {}
    # who speaks, and who is spoken to: Hearth, by its name or by whatever word a greeting gave it
    greeted = opening_greeting(text)[1].lower()
    ignore = {n.lower() for n in self_names} | lx.ASSISTANT_NAMES | ({greeted} if greeted else set())

    def add(name: str, schema: str, start: int, named: bool, aliases=()) -> Mention | None:
        name = name.strip()
        if not name or name.lower() in ignore:
            return None
        key = name.lower()
        same = lx.RELATION_GROUP.get(key)
        if same:  # "Mum" and "my mom": one mention, known by every word for her
            key = next((k for k in mentions if k in same), key)
            aliases = {*aliases, *same}
        m = mentions.get(key)
        if m is None:
            m = mentions[key] = Mention(name, schema, set(), start, named)
        m.aliases.update(a.lower() for a in aliases if a and a.lower() != key)
        return m

    for entity, start in match_known(text, known):
        m = add(entity.name, entity.schema, start, entity.name[:1].isupper())
        if m:
            m.known_id = entity.id
    known_spans = {e.name.lower() for e in known} | {a.lower() for e in known for a in e.aliases}

    named_spans = []  # "my sister Anna": the relation and its name
    for rel in _RELATION_RE.finditer(text):
        kind, name = rel.group(1).lower(), _strip_possessive(rel.group(2))
        if name.lower() in lx.NOT_NAMES:
            continue
        aliases = {kind, f"my {kind}"}
        if kind in lx.PET_WORDS:
            aliases |= {"dog"} if kind in ("puppy", "beagle", "labrador") else set()
            aliases |= {"pet"}
        add(name, lx.KIND_WORDS[kind], rel.start(2), True, aliases)
        named_spans.append(rel.span())
    for own in _OWN_RE.finditer(text):
        kind = own.group(1).lower()
        # what happened to them is filed under them, not under its object ("My husband lost his job")
        if not any(a <= own.start() < b for a, b in named_spans) and kind not in known_spans \
                and f"my {kind}" not in known_spans:
            m = add(kind, lx.KIND_WORDS[kind], own.start(1), False, {f"my {kind}"})
            if m:
                m.own = True

    starts = _sentence_starts(text)
    for cap in _CAPS_RE.finditer(text):
        raw = cap.group(1)
        words = raw.split()
        while words and words[0].lower().strip("'’") in lx.NOT_NAMES:
            words.pop(0)
        while words and words[-1].lower() in lx.NOT_NAMES:
            words.pop()
        if len(words) > 1 and cap.start() + raw.find(words[0]) in starts and not words[0].isupper() \
                and ordinary_word(words[0]):  # "Seeing Gina there…": the name is Gina
            words.pop(0)
        if not words:
            continue
        if re.search(r"['’](re|ll|ve|d|m|t)$", words[0].lower()):
            continue
        name = " ".join(words)
        if name.lower() in lx.ENTITY_NOUNS:
            canonical, schema = lx.ENTITY_NOUNS[name.lower()]
            add(canonical, schema, cap.start(), True, {name.lower()})
            continue
        if len(name) < 2 or name.lower() in lx.NOT_NAMES or name.lower() in mentions or name.lower() in known_spans:
            continue
        at = cap.start() + raw.find(words[0])
        if at in starts and len(words) == 1 and not name.isupper() and ordinary_word(name):
            continue
        before = text[max(0, at - 12):at].lower().split()
        if len(words) == 1 and before and before[-1] in ("a", "an"):
            continue  # one of a kind, not a name: "I'm a Postman now", as Whisper sometimes writes it
        noun = re.match(r"\s+(hospital|college|school|university|park|street|road|lake|beach|center|centre|club|"
                        r"clinic|church|cafe|café|museum|library)\b", text[cap.end():], re.I)
        aliases = set()
        if noun:
            aliases.add(noun.group(1).lower())
            name = f"{name} {noun.group(1).lower()}"
        else:
            name = _strip_possessive(name)
        if before and before[-1] in lx.PLACE_PREPOSITIONS and (dominant in (None, "home", "hobbies") or "travel" in scores):
            schema = "travel"
        elif noun:
            schema = dominant or "work"
        else:
            schema = dominant if dominant in ("work", "pets", "travel") and before and before[-1] == "at" else (
                "family and friends" if not dominant or dominant == "family and friends" else dominant)
        add(name, schema, at, True, aliases)

    for noun in _NOUN_RE.finditer(text):
        phrase = noun.group(1).lower()
        if phrase in known_spans or _said_as_verb(text, noun):
            continue
        canonical, schema = lx.ENTITY_NOUNS[phrase]
        same = [e for e in known if e.name.lower() == canonical.lower()]
        if same:
            m = add(same[0].name, same[0].schema, noun.start(), False, {phrase})
            if m:
                m.known_id = same[0].id
            continue
        if canonical.lower() in known_spans or any(phrase in m.aliases for m in mentions.values()):
            continue
        add(canonical, schema, noun.start(), False, {phrase})

    if not mentions:  # what a turn that names nothing is about: "the train", "my uncle's bakery", "peanuts"
        topic = topic_of(text)
        if topic and topic.head not in known_spans and topic.head not in lx.NOT_NAMES:
            add(topic.head, lx.KIND_WORDS.get(topic.head, dominant or "everyday"), topic.start, False,
                {topic.said, topic.phrase} - {topic.head})

    out = list(mentions.values())
    # who a turn is about before where or what: "My sister moved to Canada" is filed under the sister
    out.sort(key=lambda m: (m.known_id is None, not (m.named or m.own), m.start))
    return out


def analyse(text: str, said_on: date, known: list[Known], name: str = "", max_words: int = 45) -> TurnFacts:
    """Everything remembering needs from one user turn; no I/O."""
    text = " ".join(text.split())
    dates = resolve_dates(text, said_on)
    scores = schema_scores(text)
    mentions = find_mentions(text, known, (name,) if name else ())
    schemas = sorted(scores, key=lambda s: -scores[s])
    for m in mentions:
        if m.schema not in schemas:
            schemas.append(m.schema)
    return TurnFacts(text, mentions, schemas, detect_affect(text), dates, fact_of(text, name, dates, max_words))
