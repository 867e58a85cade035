"""What a spoken reply must not do, as pure checks on its words: no scenario lists, only grammar.

A reply speaks to the person as "you": never about them in the third person by name ("Dana
remembers", "Dana's dog"), and never as if their things were Hearth's own ("my dog is Max" when
the dog is theirs). It says something of its own (not the person's words back), it says something
at all, it does not refuse an everyday question, and it carries none of the notes' layout.
The replies benchmark and the tests hold every reply to these; the reply path repairs what it can
(`second_person`) before a sentence is voiced.
"""

from __future__ import annotations

import re

from memory.ranking import DAY_HEADER, repeats, word_set

FALLBACK_REPLY = "Sorry, I lost my train of thought. Could you say that again?"

# Words after a name that make it a vocative, not a subject: "Hi Dana, ...", "Sure, Dana!".
_AFTER_VOCATIVE = re.compile(r"\s*(?:[,.!?;:…]|$)")
_REFUSAL = re.compile(
    r"\b(?:can(?:no|')t|could(?:n't| not)|unable to|not able to|won't)\s+(?:assist|help)\s+with\s+(?:that|this)"
    r"|\bas an ai\b|\bi'm (?:just )?an ai\b|\bi am (?:just )?an ai\b"
    r"|\b(?:can(?:no|')t|could(?:n't| not))\s+(?:provide|share|access)\s+(?:personal|that|this|any)", re.I)
_BULLET_LINE = re.compile(r"(?:^|\n)\s*(?:[-*•]|\d+[.)])\s+\S")
NOTES_WORDS = re.compile(r"what you remember about|\bnotes?\b:|\bearlier:|\bnow:", re.I)
# Nouns a person calls theirs in what they say ("my dog", "my sister's wedding").
_THEIR = re.compile(r"\bmy\s+((?:[a-z]+\s+)?[a-z]+)", re.I)
_STOP_AFTER_MY = {"own", "best", "first", "last", "new", "old", "little", "big", "dear", "whole", "other",
                  "favourite", "favorite", "mind", "god", "goodness", "name"}
# A name's verb after it, turned to "you": the common irregular ones, else the -s dropped.
_YOU_VERB = {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't", "isn't": "aren't",
             "wasn't": "weren't", "hasn't": "haven't", "'s": "'re"}
_NOT_VERBS = {"and", "or", "but", "too", "also", "again", "here", "there", "now", "then"}
# Words before a name that make it a greeting or an address: "Hi Dana how are you".
_GREETING = re.compile(r"\b(?:hi|hello|hey|thanks|thank you|bye|goodbye|morning|evening|night|welcome|sorry|dear|"
                       r"yes|no|okay|ok|sure|oh|well|again)[ ,]*$", re.I)


def third_person_slips(reply: str, person: str) -> list[str]:
    """Places where the reply talks about the person by name instead of to them: their name as a
    subject ("Dana remembers", "Dana is") or a possessive ("Dana's dog"). A name that addresses them
    ("Hi Dana,", "…, Dana!") is fine."""
    if not person or person.lower() in {"me", "person", "you"}:
        return []
    slips = []
    for m in re.finditer(rf"\b{re.escape(person)}\b", reply, re.I):
        after = reply[m.end():]
        if re.match(r"['’]s\b", after):
            slips.append(m.group() + after[:2] + " " + (after[2:].split() or [""])[0])
        elif not _AFTER_VOCATIVE.match(after) and not _GREETING.search(reply[:m.start()]):
            slips.append(f"{m.group()} {after.split()[0]}")
    return slips


def their_things(said: list[str]) -> set[str]:
    """The words the person has called theirs ("my dog Max" → "dog", "max"), from what they said."""
    return {w for text in said for m in _THEIR.finditer(text) for w in m.group(1).lower().split()} - _STOP_AFTER_MY


def claims_their_things(reply: str, things: set[str]) -> list[str]:
    """"my dog" in a reply when the dog is the person's: Hearth has no dog."""
    found = []
    for m in _THEIR.finditer(reply):
        words = m.group(1).lower().split()
        if any(w in things for w in words):
            found.append(m.group())
    return found


def perspective_errors(reply: str, person: str, things: set[str]) -> list[str]:
    """Every slip of perspective: about the person by name, or their things as Hearth's."""
    return third_person_slips(reply, person) + claims_their_things(reply, things)


def parrots(reply: str, heard: str, share: float = 0.7) -> bool:
    """Most of the reply's words are the words just heard (a reply that says nothing of its own)."""
    said = word_set(reply)
    if not said or not word_set(heard):
        return False
    return repeats(reply, [word_set(heard)], share) and len(said) >= 3


def is_empty(reply: str) -> bool:
    """Nothing said, or only the fallback said when the model produced nothing."""
    return not word_set(reply) or reply.strip() == FALLBACK_REPLY


def is_refusal(reply: str) -> bool:
    return bool(_REFUSAL.search(reply))


def has_layout(reply: str) -> bool:
    """The notes' layout copied into a reply: a day header, a bullet, the notes' own labels."""
    return bool(DAY_HEADER.search(reply) or _BULLET_LINE.search(reply) or NOTES_WORDS.search(reply))


def failed_checks(reply: str, heard: str, person: str, things: set[str]) -> list[str]:
    """The names of the general checks the reply fails (empty when it passes them all)."""
    failed = []
    if is_empty(reply):
        failed.append("empty")
    if perspective_errors(reply, person, things):
        failed.append("perspective")
    if parrots(reply, heard):
        failed.append("parrot")
    if is_refusal(reply):
        failed.append("refusal")
    if has_layout(reply):
        failed.append("layout")
    return failed


def second_person(sentence: str, person: str, things: set[str]) -> str:
    """A sentence about the person by name said to them instead: "Dana's dog" → "your dog",
    "Dana is worried" → "you are worried", "Dana remembers" → "you remember", and "my dog" → "your
    dog" where the dog is theirs. A slip a small model makes often; the words stay its own."""
    def possessive(m: re.Match) -> str:
        return _cased("your", m.group(0))

    out = sentence
    if person and person.lower() not in {"me", "person", "you"}:
        out = re.sub(rf"\b{re.escape(person)}['’]s\b", possessive, out, flags=re.I)

        def subject(m: re.Match) -> str:
            verb = m.group(2)
            low = verb.lower()
            if low in _NOT_VERBS:
                return m.group(0)
            new = _YOU_VERB.get(low) or (low[:-1] if low.endswith("s") and not low.endswith("ss") else low)
            start = not m.string[:m.start()].strip() or m.string[:m.start()].rstrip()[-1] in ".!?"
            return ("You" if start else "you") + " " + new

        out = re.sub(rf"\b({re.escape(person)})\s+([A-Za-z']+)",
                     lambda m: m.group(0) if _GREETING.search(m.string[:m.start()]) else subject(m), out)
    for m in reversed(list(_THEIR.finditer(out))):  # from the end: earlier positions stay put
        if any(w in things for w in m.group(1).lower().split()):
            out = out[:m.start()] + _cased("your", m.group(0)) + out[m.start() + 2:]
    return out


def _cased(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word
