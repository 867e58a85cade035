"""The things a sentence speaks of, read without a parser: its noun phrases ("my uncle's bakery",
"the train", "peanuts"), and the one a sentence that names nothing is about.

A word's parts of speech come from lemminflect's English lexicon (out of context, with each
reading's lemma); where it begins and ends from the words around it: a determiner or a preposition
opens a phrase, nouns, adjectives and possessives carry it, anything else closes it. Pure apart from
that lookup (a dictionary in the package, no model).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lemminflect import getAllInflections, getAllLemmas

from text.words import NUMBER_WORDS

DETERMINERS = frozenset("the a an my our your his her their its this these those".split())
# A bare noun after one of these is a thing spoken of: "allergic to peanuts", "a letter from home".
# Not "of": after a number or a part it is the whole ("seven of hearts", "the rest of it").
PREPOSITIONS = frozenset("to from with without about at in on for by into over under after before near around "
                         "against among between through".split())
# Nouns too general to be what a turn is about, and words that are nouns only in odd senses
# ("now", "today" have noun readings too, but those are caught as adverbs).
TOO_GENERAL = frozenset("thing things stuff way time times day days week weekend morning evening night year month "
                        "point fact idea rest lot lots bit one ones other others same whole worst best reason truth "
                        "news problem kind sort type part end start beginning middle couple side".split()
                        + [f"{day}day" for day in "mon tues wednes thurs fri satur sun".split()]
                        + "january february march april may june july august september october november december"
                          .split())
_NOT_CONTENT = frozenset("i me we us you he him she her it they them who what which that there here some any "
                         "no not every each all both much many more most few such own very and or but nor so yet "
                         "because if then than when while as myself yourself himself herself itself ourselves "
                         "yourselves themselves someone somebody something anyone anybody anything everyone "
                         "everybody everything nobody nothing".split())  # (the lexicon has these as nouns)
# Words before a phrase that say it opens a clause.
_CLAUSE_OPENERS = frozenset("because and but so when since".split())
# A relative clause's first word: "the cottage we rented was…" is said of the cottage.
_RELATIVE = frozenset("that which who i we you they he she".split())
# After a subject's noun these say the noun before them was its head: "the plants are…", "the shop is…".
_AUXILIARIES = frozenset("is are was were be been has have had do does did will would can could should "
                         "might must isn't aren't wasn't weren't hasn't haven't don't doesn't didn't won't "
                         "can't couldn't".split())
# A noun made of a verb ("the invention of…", "the loss of…"): what it is about is what follows "of".
_NOMINALISED = re.compile(r"(?:tion|sion|ment|ance|ence|ure|al)$")

_OF_NEXT = re.compile(r"\s+of\s+(?:(?:" + "|".join(DETERMINERS) + r")\s+)?", re.I)  # "…tion of (the) "
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_POSSESSIVE = re.compile(r"['’]s$|s['’]$")
# Adverbs that stand before a verb but read as nouns or adjectives too: "the landlord still hasn't…"
_BEFORE_VERB = frozenset("still just never always also already often ever even only".split())
# A verb or pronoun run together ("hasn't", "they're", "I'd"): no thing, though the lexicon lacks it
# ("the landlord still hasn't fixed it" was noted as about "hasn't")
_CONTRACTED = re.compile(r"n['’]t$|['’](re|ve|ll|d|m)$")


@dataclass(frozen=True)
class NounPhrase:
    head: str          # the head noun's lemma, lower case: "bakery", "letter"
    said: str          # the head as said, lower case: "letters"
    phrase: str        # the phrase after its determiner, lower case: "uncle's bakery", "movable metal letters"
    start: int         # where the head starts in the text
    begins: int        # where the phrase's first word after its opener starts
    opener: str        # the determiner or preposition before it: "my", "at", "of"
    opens_clause: bool  # it is the first thing in its clause: "The invention of…", "…because the boiler…"
    subject: bool      # it opens a clause and a verb follows it: "the train was…", "our old van finally…"

    @property
    def determined(self) -> bool:
        """Opened by a determiner ("the train", "my uncle's bakery"), not bare after a preposition."""
        return self.opener in DETERMINERS


# An auxiliary that says a sentence's subject was someone else: a sentence that opens with it has
# lost that subject ("Is coming at Christmas.", Whisper's cut of "my brother is coming…"), where an
# "I" left out ("Had a lovely time.") is the speaker's own
_THIRD_PERSON_AUXILIARIES = frozenset("is are has isn't aren't hasn't does doesn't".split())


def lacks_subject(sentence: str) -> bool:
    """A sentence that tells, not asks, and begins with a third person's auxiliary: whose it is was
    not heard, so it says nothing that can be kept of anyone."""
    first = _WORD.search(sentence)
    return (first is not None and first.start() == len(sentence) - len(sentence.lstrip(" \"'"))
            and first.group().lower() in _THIRD_PERSON_AUXILIARIES and not sentence.rstrip().endswith("?"))


@lru_cache(maxsize=1 << 16)  # bounded: a desk that listens for months hears names and slips without end
def readings(word: str) -> dict[str, tuple[str, ...]]:
    """The parts of speech a lower-case word can have, each with its lemmas ({} for a word the lexicon lacks)."""
    return getAllLemmas(word)


def _content(word: str) -> bool:
    return word not in DETERMINERS and word not in PREPOSITIONS and word not in _NOT_CONTENT and word != "of" \
        and not _CONTRACTED.search(word)


def _can_carry(word: str) -> bool:
    """Whether a word can stand inside a noun phrase before its head: a noun, an adjective, a possessive,
    or a word the lexicon lacks (names of things are often new words: "app", "podcast")."""
    if _POSSESSIVE.search(word):
        return _content(_POSSESSIVE.sub("", word))  # "uncle's", not "it's"
    r = readings(word)
    return _content(word) and (not r or "NOUN" in r or "ADJ" in r)


def can_head(word: str) -> bool:
    """Whether a word can be a phrase's head noun: a noun that is not also an adverb ("now", "home",
    "back" are seldom the thing) and not too general; a word the lexicon lacks counts as a noun."""
    if _POSSESSIVE.search(word) or not _content(word) or len(word) < 3:
        return False
    if word in TOO_GENERAL or _lemma(word) in TOO_GENERAL:  # "Saturday mornings", "two weeks"
        return False
    r = readings(word)
    return not r or ("NOUN" in r and "ADV" not in r)


def _inflected_verb(word: str) -> bool:
    """A form of a verb other than its base: "keeps", "broke", "fell" (a verb "fell" too, but first "fall")."""
    return any(lemma != word for lemma in readings(word).get("VERB", ()))


@lru_cache(maxsize=1 << 12)
def past_tense(word: str) -> bool:
    """Whether a lower-case word is a verb's simple past and not also its present ("fell", "was",
    "stayed"; not "read", "put"), by lemminflect's lexicon."""
    for lemma in readings(word).get("VERB", ()):
        forms = getAllInflections(lemma, upos="VERB")
        if word in forms.get("VBD", ()) and word not in forms.get("VB", ()) + forms.get("VBP", ()):
            return True
    return False


# Verbs that only help another ("I can swim", "it will be"): no verb of the speaker's own
MODALS = frozenset("can could will would shall should may might must".split())


@lru_cache(maxsize=1 << 12)
def present_verb(word: str) -> bool:
    """Whether a lower-case word is a verb in the present ("start", "flies", "have") and not also some
    verb's past ("read", "saw": the past may be meant) nor a modal, by lemminflect's lexicon."""
    lemmas = readings(word).get("VERB", ())
    if word in MODALS or not lemmas:
        return False
    forms = [getAllInflections(lemma, upos="VERB") for lemma in lemmas]
    if any(word in f.get("VBD", ()) for f in forms):
        return False
    return any(word in f.get("VB", ()) + f.get("VBP", ()) + f.get("VBZ", ()) or word == lemma
               for f, lemma in zip(forms, lemmas))


def verb_after(word: str, before: str) -> bool:
    """Whether a lower-case word that may be a noun or a verb ("works", "plans") is a verb after
    the word before it: after one that opens no noun phrase (a noun, a pronoun, an adverb: "the
    heating works", "she plans", "still works"), not after a determiner, a possessive, a number or an
    adjective ("the works", "Anna's plans", "two plans", "new plans")."""
    if "VERB" not in readings(word):
        return False
    r = readings(before)
    modifies = before in DETERMINERS or _POSSESSIVE.search(before) is not None or before in NUMBER_WORDS \
        or before.isdigit() or not r or "ADJ" in r and "ADV" not in r
    return not modifies


def _verb_after_noun(words: list[tuple[str, int, int]], j: int, breaks: set[int]) -> bool:
    """Whether words[j], an inflected verb after a noun, is that noun's verb rather than the phrase's
    head: a past always ("my mom fell"); an -s word ("the shop closes early", "my landlord wants
    to…") unless the phrase plainly ends after it ("my tomato plants, …", "the plants are…")."""
    word = words[j][0]
    before = words[j - 1][0]
    if not _inflected_verb(word) or not _content(before) or "NOUN" not in readings(before):
        return False  # ("my" has a noun reading in the lexicon)
    if not word.endswith("s") or word.endswith("ss"):
        return True  # a past after a noun is its verb: "my mom fell", "the kettle broke"
    ends_after = j + 1 == len(words) or j + 1 in breaks or words[j + 1][0] in _AUXILIARIES
    return not ends_after


def _predicate_next(word: str) -> bool:
    """Whether a word after a noun phrase begins what is said of it: an auxiliary, an inflected verb
    ("keeps", "broke", "cancelled"), an adverb ("finally"), or a relative clause ("the cottage we rented")."""
    if word in PREPOSITIONS or word == "of":  # "the printer in the office…" says nothing of it yet
        return False
    r = readings(word)
    return (word in _AUXILIARIES or word in _RELATIVE or _inflected_verb(word) or word in _BEFORE_VERB
            or ("ADV" in r and "NOUN" not in r and "ADJ" not in r))


def _lemma(word: str) -> str:
    nouns = readings(word).get("NOUN")
    return min(nouns, key=len) if nouns else word


def noun_phrases(text: str) -> list[NounPhrase]:
    """The noun phrases opened by a determiner, and the bare ones after a preposition or "of", in the
    order they are said."""
    words = [(m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(text)]
    # a clause break (punctuation) between two words ends any phrase
    breaks = {i for i in range(1, len(words)) if re.search(r"[.,;:!?]", text[words[i - 1][2]:words[i][1]])}
    out = []
    i = 0
    while i < len(words):
        word = words[i][0]
        if word not in DETERMINERS and word not in PREPOSITIONS and word != "of":
            i += 1
            continue
        j = i + 1
        # a subject's verb may follow its noun ("the shop closes"); after a preposition no verb does
        while j < len(words) and j not in breaks and _can_carry(words[j][0]) \
                and not (word in DETERMINERS and _verb_after_noun(words, j, breaks)):
            j += 1
        heads = [k for k in range(i + 1, j) if can_head(words[k][0])]
        if heads:
            k = heads[-1]
            said, start = words[k][0], words[k][1]
            opens_clause = i == 0 or i in breaks or words[i - 1][0] in _CLAUSE_OPENERS
            subject = word in DETERMINERS and opens_clause and k + 1 < len(words) and k + 1 not in breaks \
                and _predicate_next(words[k + 1][0])
            out.append(NounPhrase(_lemma(said), said, " ".join(w for w, _, _ in words[i + 1:k + 1]), start,
                                  words[i + 1][1], word, opens_clause, subject))
        i = max(j, i + 1)
    return out


def topic_of(text: str) -> NounPhrase | None:
    """What a sentence that names nothing is about, or None: the subject of its first clause that has
    one ("the train was cancelled"), else the first thing of the speaker's own it speaks of ("at my
    uncle's bakery"), else the first thing after a preposition ("allergic to peanuts"). A noun made of a
    verb, followed by "of", gives way to what follows: "the invention of movable letters" is about the
    letters. Things said with "the" or "a" elsewhere in a clause are passed over: in conversation they
    are mostly passing words ("a difference", "the support"), and "your" things are Hearth's."""
    phrases = noun_phrases(text)

    def of_what(n: int) -> NounPhrase | None:
        """The phrase after "of" that phrases[n] gives way to, if it is such a noun."""
        phrase, following = phrases[n], phrases[n + 1] if n + 1 < len(phrases) else None
        if following and _NOMINALISED.search(phrase.said) and \
                _OF_NEXT.fullmatch(text[phrase.start + len(phrase.said):following.begins]):
            return following
        return None

    def bare_thing(phrase: NounPhrase) -> bool:
        """A bare plural after a preposition other than "of" ("allergic to peanuts"): a bare singular is
        mostly something abstract or a mass ("on success", "with nature"), and not "to play", a verb."""
        first = phrase.phrase.split()[0]
        return not phrase.determined and phrase.opener != "of" and phrase.said != phrase.head \
            and first not in readings(first).get("VERB", ())

    tiers = (lambda n, p: p.opener != "your" and (p.subject or (p.opens_clause and of_what(n) is not None)),
             lambda n, p: p.opener in ("my", "our"),
             lambda n, p: bare_thing(p))
    for tier in tiers:
        for n, phrase in enumerate(phrases):
            if tier(n, phrase):
                return of_what(n) or phrase
    return None
