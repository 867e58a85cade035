"""A turn's words as a note: its sentences that carry information, dates made absolute, in the
third person by the person's name (or in their own words, for one Hearth knows by no name). Pure.
"""

from __future__ import annotations

import re

from lemminflect import getInflection

from text.phrases import lacks_subject, present_verb
from text.questions import is_question
from text.words import opening_greeting, split_sentences

from .dates import DateMention, absolutise


# first person -> the person's name, so a memory reads the same wherever it is shown
_OWN_FORMS = {"am": "is", "don't": "doesn't", "haven't": "hasn't"}
_ADVERBS = r"usually|still|really|finally|also|just|always|never|often|sometimes"


def _their_verb(word: str) -> str:
    """A verb said after "I" as it is said after their name: "start" -> "starts" (lemminflect), "am"
    -> "is"; a past, a modal, or a form that is also a past ("read", "saw") as it was ("I start my
    new job" was noted "Tom start Tom's new job", heard live)."""
    lower = word.lower()
    if lower in _OWN_FORMS:
        return _OWN_FORMS[lower]
    if not present_verb(lower):
        return word
    return (getInflection(lower, "VBZ") or (word,))[0]


_PRONOUNS = [(rf"\bI (?:({_ADVERBS}) )?([A-Za-z']+)\b(?!')",
              lambda m, n: f"{n} " + (m.group(1) + " " if m.group(1) else "") + _their_verb(m.group(2))),
             (r"\bI'm\b|\bI am\b", "{n} is"), (r"\bI've\b", "{n} has"), (r"\bI'll\b", "{n} will"),
             (r"\bI'd\b", "{n} would"), (r"\bmyself\b", "themself"),
             (r"\bI\b", "{n}"), (r"\bmy\b", "{n}'s"), (r"\bMy\b", "{n}'s"), (r"\bme\b", "{n}"), (r"\bmine\b", "{n}'s")]
_SMALLTALK = re.compile(r"^\W*(hey|hi|hello|thanks|thank you|wow|yeah|yes|no|ok|okay|sure|good to see you|"
                        r"congrats|congratulations|that's (great|awesome|amazing|cool)|sounds (great|good|fun)|"
                        r"glad to hear|i'm glad|bye|see you|take care|haha|lol)\b[^.!?]{0,30}[.!?]*\s*$", re.I)


# What a person is called before Hearth knows their name (assistant/config.py's "me" on a desk of
# one): their notes stay in their own words ("I walked my dog"), never "me walked me's dog".
PLACEHOLDER_NAMES = frozenset({"me", "person", "you"})


def note_name(name: str) -> str:
    """The name the person's notes call them by; "" keeps the notes in their own words."""
    return "" if not name or name.strip().lower() in PLACEHOLDER_NAMES else name


def third_person(text: str, name: str) -> str:
    if not name:  # (their own words, as they said them)
        return text
    for pattern, repl in _PRONOUNS:
        text = re.sub(pattern, (lambda m, r=repl: r(m, name)) if callable(repl) else repl.format(n=name), text)
    return text


def informative(text: str) -> list[str]:
    """The turn's sentences that carry information: no questions, no greetings, small talk or name
    given alone, none whose subject was not heard ("Is coming at Christmas." was written as a memory
    and a feeling); a turn with none is kept as a raw turn but makes no memory item."""
    kept = [_ungreeted(s) for s in split_sentences(text)
            if not is_question(s) and not _SMALLTALK.match(s) and not _NAME_GIVEN.match(s)]
    return [s for s in kept if s and not lacks_subject(s)]


# "I'm Priya, " after a greeting: the person introducing themselves (their name is learned apart,
# memory/enrolment.own_name_given), not what they went on to tell
_INTRODUCTION = re.compile(r"^(?:(?i:i['’]m|i am|my name is|my name['’]s|this is)\s+[A-Z][\w'’-]*"
                           r"\s*(?:[,.!;]\s*|$))?")


# "My name is Tom.": the name, learned apart, and no more (noted "Tom's name is Tom.", and taken for the
# cause of the feeling told after it, live)
_NAME_GIVEN = re.compile(r"^\W*(?i:my name is|my name['’]s|call me)\s+[\w'’-]+(?:\s+[A-Z][\w'’-]*)?\W*$")


def _ungreeted(sentence: str) -> str:
    """The sentence without the greeting it opens with, and the introduction after it ("Hi Har,
    I'm Priya, my daughter…": Hearth greeted, its name misheard, was noted as someone they know)."""
    end, _ = opening_greeting(sentence)
    if not end:
        return sentence
    rest = sentence[end:]
    rest = rest[_INTRODUCTION.match(rest).end():]
    return rest[:1].upper() + rest[1:]


def fact_of(text: str, name: str, dates: list[DateMention], max_words: int = 45) -> str:
    """The turn's content as a memory sentence: informative sentences, dates absolute, third person, bounded."""
    absolute = absolutise(text, dates)
    words: list[str] = []
    for sentence in informative(absolute):
        sw = sentence.split()
        if words and len(words) + len(sw) > max_words:
            break
        words += sw
    words = words[:max_words]
    fact = " ".join(words).strip()
    if name:
        fact = third_person(fact, name)
        # "I'm Dana." and "My name is Dana." say nothing, nor "I'm Dana, my daughter…"'s first clause
        fact = re.sub(rf"\b{re.escape(name)}(?:['’]s name)? is {re.escape(name)}\b[.!,]?\s*", "", fact)
        fact = fact[:1].upper() + fact[1:]
    return fact.rstrip(".!? ")
