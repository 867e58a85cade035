"""Who "she" or "him" is: the person or pet a turn before named. Pure.

"Actually she cancelled, she has the flu." said two turns after "My sister is coming to visit on
Saturday" is about the sister. Taken as it was said, it was filed under "the flu" beside her, nothing
of her was recalled for the reply, and "Who is coming to visit me?" was still answered from the
visit she had cancelled (live). A turn that names no one of its own has its first "she" or "he" read
as whom the turns before it last named, as the person calls them ("my sister", "Anna"); so is a
"him" or "her" done to ("I'm taking him to the vet" after "My dog has been limping", live).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .enrolment import enrolment_intent
from .extract import Mention, find_mentions

SAID_BEFORE = 4  # the turns before whose names a "she" may stand for
_SOMEONE_SCHEMAS = ("family and friends", "pets")
_HERS = frozenset("""sister mother mom mum mummy mommy wife daughter grandma grandmother granny nana aunt
girlfriend niece fiancee fiancée stepmother stepdaughter granddaughter mother-in-law sister-in-law""".split())
_HIS = frozenset("""brother father dad daddy husband son grandpa grandfather grandad granddad uncle boyfriend
nephew fiance fiancé stepfather stepson grandson father-in-law brother-in-law""".split())
# a subject pronoun, with the verb run into it: "she's ill" is "my sister is ill", "she's got" has;
# or one done to: "I'm taking him to the vet", "I drove her home" (not "her wedding": whose, not whom)
_PRONOUN = re.compile(r"\b(she|he)(?:['’](s))?\b(\s+(?:been|got|had|gone)\b)?"
                      r"|\b(him|her)\b(?=\s+(?:to|for|at|in|on|up|out|home|back|round|over|off|with)\b"
                      r"|\s*[.,;!?]|\s*$)",
                      re.I)


@dataclass(frozen=True)
class Someone:
    said: str                # as the person calls them: "Anna", "my sister"
    words: frozenset[str]    # every word they go by, lower case

    def may_be(self, pronoun: str) -> bool:
        """Whether "she" or "her" ("he", "him") may be them: not where what they are to the person
        says otherwise."""
        other = _HIS if pronoun.lower() in ("she", "her") else _HERS
        return not self.words & other


def someone_of(mention: Mention) -> Someone | None:
    """A person or pet a turn mentions, as the person calls them; None for a place, a thing, a
    relation of several ("my parents")."""
    if mention.schema not in _SOMEONE_SCHEMAS or not (mention.named or mention.own or mention.known_id):
        return None
    words = frozenset({mention.name.lower(), *mention.aliases})
    if words & {"parents", "kids", "children", "twins", "grandchildren", "grandkids", "in-laws"}:
        return None
    said = mention.name if mention.name[:1].isupper() else f"my {mention.name}"
    return Someone(said, words)


def named_in(mentions: Iterable[Mention]) -> list[Someone]:
    return [s for s in map(someone_of, mentions) if s is not None]


def named_before(texts: Sequence[str], self_names: tuple[str, ...] = ()) -> list[Someone]:
    """Whom the newest of the turns (oldest first) that names anyone names; the person's own
    name, or the one they give for themselves ("Hi, I'm Tom"), is no one else."""
    for text in reversed(texts):
        own = tuple(n for n in (*self_names, enrolment_intent(text)) if n)
        someone = named_in(find_mentions(text, [], own))
        if someone:
            return someone
    return []


def resolved(text: str, named: Sequence[Someone]) -> str:
    """The turn with its first "she" or "he" said as whom it stands for, the first of `named` it
    may be; as it came where nothing tells ("she" after "my brother") or it names no such pronoun."""
    m = _PRONOUN.search(text)
    if m is None:
        return text
    someone = next((s for s in named if s.may_be(m.group(1) or m.group(4))), None)
    if someone is None:
        return text
    said = someone.said
    if m.start() == 0 or re.search(r"[.!?]\s*$", text[:m.start()]):
        said = said[:1].upper() + said[1:]
    if m.group(2):  # "she's"
        said += " has" if m.group(3) else " is"
    return text[:m.start()] + said + (m.group(3) or "") + text[m.end():]


def meant(text: str, before: Sequence[str], self_names: tuple[str, ...] = ()) -> str:
    """The turn as meant, after the turns `before` it (oldest first): resolved, unless it names
    someone of its own ("My friend said she would come")."""
    if named_in(find_mentions(text, [], self_names)):
        return text
    return resolved(text, named_before(before, self_names))
