"""The general checks a spoken reply is held to, and the fixed lines said when the model gives
nothing worth saying. Pure; no scenario lists, only grammar.

A reply speaks to the person as "you" (`assistant.reply.perspective`), says something of its own
(not the person's words back), says something at all, does not refuse an everyday question, and
carries none of the notes' layout. The replies benchmark and the tests hold every reply to these
(`failed_checks`); the reply path begins again a reply that opens by failing one
(`assistant.reply.checks.bad_start`).
"""

from __future__ import annotations

import re

from memory.affect import Affect
from memory.ranking import DAY_HEADER, content_words, repeats, word_set
from assistant.reply.perspective import perspective_errors
from assistant.reply.retold import new_words

FALLBACK_REPLY = "Sorry, I lost my train of thought. Could you say that again?"
NOT_TOLD_REPLY = "I don't know, you haven't told me that yet."  # asked about themselves, every answer made up
ACKNOWLEDGED_REPLY = "I see, thanks for telling me."  # told something, and every try said it back
# ... and what was told was good news, or bad: bad news met by the feeling it names or implies ("I'm
# sorry to hear that." to "I'm so nervous about my speech at my sister's wedding", heard live)
GLAD_REPLY = "That's good to hear."
SORRY_REPLY = "I'm sorry to hear that."
WORRYING_REPLY = "That sounds worrying. I hope it turns out all right."
FRUSTRATING_REPLY = "That sounds really frustrating."
TIRING_REPLY = "That sounds exhausting. I hope you can rest soon."
_BY_FEELING = (dict.fromkeys(("worried", "nervous", "anxious", "scared", "stressed and anxious"), WORRYING_REPLY)
               | dict.fromkeys(("angry", "frustrated"), FRUSTRATING_REPLY) | {"tired": TIRING_REPLY})
FIXED_REPLIES = frozenset({FALLBACK_REPLY, ACKNOWLEDGED_REPLY, GLAD_REPLY, SORRY_REPLY, *_BY_FEELING.values()})


def acknowledgement(felt: Affect | None) -> str:
    """What is said when every try at a reply to something told failed: met as its feeling
    (`felt`, memory.affect's reading of what was told) asks ("I see, thanks for telling me." to "I
    passed my driving test this morning!" was cold)."""
    if felt is None or not felt.valence:
        return ACKNOWLEDGED_REPLY
    return GLAD_REPLY if felt.valence > 0 else _BY_FEELING.get(felt.label, SORRY_REPLY)


_REFUSAL = re.compile(
    # (or ending there: a clause cut before "with" after the lead-in "I'm sorry,", reply/sentences.py)
    r"\b(?:can(?:no|')t|could(?:n't| not)|unable to|not able to|won't)\s+(?:assist|help)(?:\s+with\s+(?:that|this)|\W*$)"
    r"|\bas an ai\b|\bi'm (?:just )?an ai\b|\bi am (?:just )?an ai\b"
    r"|\b(?:can(?:no|')t|could(?:n't| not))\s+(?:provide|share|access)\s+(?:personal|that|this|any)", re.I)
_BULLET_LINE = re.compile(r"(?:^|\n)\s*(?:[-*•]|\d+[.)])\s+\S")
NOTES_WORDS = re.compile(r"what you remember about|\bnotes?\b:|\bearlier:|\bnow:", re.I)


def parrots(reply: str, heard: str, share: float = 0.7) -> bool:
    """Most of the reply's words are the words just heard (a reply that says nothing of its own).
    An answer in the question's words is none: "Last time, you felt worried about Biscuit" to
    "What was I worried about last time?" has a word of its own."""
    said = word_set(reply)
    if not said or not word_set(heard):
        return False
    if "?" in heard and new_words(content_words(reply), heard):  # (its mark: "How lovely, …" asks nothing)
        return False
    return repeats(reply, [word_set(heard)], share) and len(said) >= 3


def is_empty(reply: str) -> bool:
    """Nothing said, or only a fixed line said when the model produced nothing worth saying."""
    return not word_set(reply) or reply.strip() in FIXED_REPLIES


def is_refusal(reply: str) -> bool:
    return bool(_REFUSAL.search(reply))


def has_layout(reply: str) -> bool:
    """The notes' layout copied into a reply: a day header, a bullet, the notes' own labels."""
    return bool(DAY_HEADER.search(reply) or _BULLET_LINE.search(reply) or NOTES_WORDS.search(reply))


def failed_checks(reply: str, heard: str, person: str, things: set[str], said: list[str] = ()) -> list[str]:
    """The names of the general checks the reply fails (empty when it passes them all)."""
    failed = []
    if is_empty(reply):
        failed.append("empty")
    if perspective_errors(reply, person, things, [*said, heard]):
        failed.append("perspective")
    if parrots(reply, heard):
        failed.append("parrot")
    if is_refusal(reply):
        failed.append("refusal")
    if has_layout(reply):
        failed.append("layout")
    return failed


