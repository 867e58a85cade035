"""Whose name is whose in a reply: the person is called by their name only to address them, their
name is never given to someone of theirs, and Hearth never takes it, or the word they gave for
it, as its own. Pure; part of the perspective checks (assistant/reply/perspective.py).
"""

from __future__ import annotations

import re

from memory.enrolment import enrolment_intent, words_given_as_name
from memory.lexicon import ASSISTANT_NAMES
from memory.noting import PLACEHOLDER_NAMES

# Words after a name that make it a vocative, not a subject: "Hi Dana, ...", "Sure, Dana!".
_AFTER_VOCATIVE = re.compile(r"\s*(?:[,.!?;:…]|$)")
# Words before a name that make it a greeting or an address: "Hi Dana how are you".
GREETING = re.compile(r"\b(?:hi|hello|hey|thanks|thank you|bye|goodbye|morning|evening|night|welcome|sorry|dear|"
                       r"yes|no|okay|ok|sure|oh|well|again)[ ,]*$", re.I)


# What the system prompt calls a person whose name Hearth does not know (assistant/reply/prompt.py uses it),
# and what a small model then calls them: "The user did not know."
UNNAMED = "the user"


def names_of(person: str) -> list[str]:
    named = person and person.lower() not in PLACEHOLDER_NAMES | {UNNAMED}
    return [person, UNNAMED] if named else [UNNAMED]


def third_person_slips(reply: str, person: str) -> list[str]:
    """Places where the reply talks about the person instead of to them: their name (or "the user")
    as a subject ("Dana remembers", "Dana is") or a possessive ("Dana's dog"). A name that addresses
    them ("Hi Dana,", "…, Dana!") is fine."""
    return [slip for name in names_of(person) for slip in _slips(reply, name)]


def _slips(reply: str, person: str) -> list[str]:
    slips = []
    for m in re.finditer(rf"\b{re.escape(person)}\b", reply, re.I):
        after = reply[m.end():]
        if re.match(r"['’]s\b", after):
            slips.append(m.group() + after[:2] + " " + (after[2:].split() or [""])[0])
        elif not _AFTER_VOCATIVE.match(after) and not GREETING.search(reply[:m.start()]):
            slips.append(f"{m.group()} {after.split()[0]}")
    return slips


def own_names(name: str | None, said: list[str], notes: str) -> set[str]:
    """The person's names: the one they are known by, one given this session ("Hi, I'm Sam" before
    any enrolment), or one given in what they told before (a note "I'm Dana.", for a desk whose one
    person is known by no name)."""
    told = [*said, *(line.removeprefix("- ") for line in notes.splitlines())]
    return {n for n in (name, *map(enrolment_intent, told)) if n}


def their_name_for_another(reply: str, person: str) -> list[str]:
    """The person's own name given as the name of someone or something of theirs: "Your daughter is
    named Sam" (to Sam), "His brother is called Maria." (to Maria, live), "Sam is your daughter",
    "Her name is Sam". A small model reaches for the one name in its
    prompt when it has none to give."""
    if person.lower() in PLACEHOLDER_NAMES | {UNNAMED, ""}:
        return []
    name = rf"{re.escape(person)}\b(?!['’]s)"
    # "your daughter", "your new puppy"; "his brother" too, the person's own slipped into the third person
    theirs = r"\b(?:your|his|her|their)\s+(?!name\b)(?:[a-z]+\s+){0,2}[a-z]+"
    given = (rf"{theirs}(?:\s+(?:is|was|are)|['’]s)\s+(?:(?:named|called)\s+)?{name}"
             rf"|{theirs}['’]s\s+name\s+(?:is|was)\s+{name}"
             # asked of someone of theirs: "Her name is Raj." to Raj, of his grandmother
             rf"|^\W*(?:his|her|its|their)\s+name\s+(?:is|was)\s+{name}"
             rf"|\b{name}\s+(?:is|was)\s+your\s+(?!name\b)[a-z]+")
    return [m.group(0) for m in re.finditer(given, reply, re.I)]


def name_claims(names: set[str]) -> list[re.Pattern]:
    """Hearth giving one of the person's names as its own: "My name is Dana", "I'm Dana", "I am
    called Dana" (group 1: the words that claim it)."""
    known = [n for n in names if n and n.lower() not in PLACEHOLDER_NAMES | {UNNAMED}]
    return [re.compile(rf"\b([Mm]y\s+name\s+is|I['’]m|I\s+am(?:\s+called)?)\s+{re.escape(name)}\b") for name in known]


def claims_their_name(reply: str, names: set[str]) -> list[str]:
    """The person's own name taken as Hearth's: "My name is Dana." to Dana, who asked "What is my
    name?" (a small model answers the question in the asker's words)."""
    return [m.group(0) for claim in name_claims(names) for m in claim.finditer(reply)]


_NAMES_ITSELF = re.compile(r"\b(?:[Mm]y\s+name\s+is|I['’]m|I\s+am|[Cc]all\s+me)\s+([A-Z][a-z]+)\b(?!['’])")


def names_itself(reply: str) -> list[str]:
    """Hearth giving itself a name but its own: "I'm Har." to "Hi, Har, I'm Sam" (its name
    misheard, live). A capitalised word after "I'm" is a name."""
    return [m.group(0) for m in _NAMES_ITSELF.finditer(reply) if m.group(1).lower() not in ASSISTANT_NAMES]


def takes_their_introduction(reply: str, heard: str) -> bool:
    """The word the person just gave as their name, whatever Whisper made of it, taken as Hearth's
    own: "I'm period." and "You can call me period." to "Hi, my name is period" ("Priya" misheard,
    live: no name to learn, but still theirs)."""
    given = words_given_as_name(heard)
    calls = [rf"\bcall\s+me\s+{re.escape(word)}\b" for word in given]
    return bool(claims_their_name(reply, given)) or any(re.search(c, reply, re.I) for c in calls)
