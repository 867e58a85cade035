"""What a person asks of their own memory by voice, read from the words alone (pure; no model, so
it costs nothing on the critical path): a recap ("What do you remember about me?"), a forget
("Forget what I said about my sister", "Forget that", or a forget not heard plainly), a day
forgotten ("Forget everything from today") and a correction ("That's wrong, my dog is called Rex").

Only an utterance that begins with the request is one: "I forget where I put my keys" asks nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Recap:
    """Say what Hearth remembers about the person."""


@dataclass(frozen=True)
class Forget:
    about: str  # what to forget, in the person's words ("my sister"); "" for "that": the last thing said


@dataclass(frozen=True)
class ForgetWhat:
    """A forget whose target the words do not make plain ("Forget what I said I'm out my sister", for
    "about my sister", heard live): asked about first."""
    heard: str  # the words after "forget"


@dataclass(frozen=True)
class ForgetToday:
    """Forget everything the person said today."""


@dataclass(frozen=True)
class Correct:
    statement: str  # what is true instead, in the person's words ("my dog is called Rex"); "" if not said


Command = Recap | Forget | ForgetWhat | ForgetToday | Correct

# Words that may come before a request: a greeting, a "please", "can you".
_LEAD = r"^\W*(?:(?:ok|okay|hey|hi|hearth|please|now|and|so|oh|well|also|actually|um|uh|no)\b[\s,.!]*)*" \
        r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:please\s+)?"
_RECAP = re.compile(_LEAD + r"(?:what|tell\s+me\s+what|tell\s+me\s+everything)\s+(?:do\s+|did\s+|have\s+)?you\s+"
                    r"(?:remember|know|recall|remembered)\s+(?:about\s+me|of\s+me)\b", re.I)
_FORGET_TODAY = re.compile(_LEAD + r"forget\s+(?:everything|all|all\s+of\s+it|what\s+i\s+(?:said|told\s+you))"
                           r"(?:\s+(?:that\s+)?i\s+(?:said|told\s+you|talked\s+about))?\s+(?:from\s+|of\s+)?today\b"
                           r"|" + _LEAD + r"forget\s+today\b", re.I)
_WHAT_ABOUT = r"(?:everything\s+|all\s+|what\s+i\s+(?:said|told\s+you)\s+)?about\s+"  # "(what I said) about"
_FORGET_ABOUT = re.compile(_LEAD + r"forget\s+" + _WHAT_ABOUT + r"(?!it\s*(?:[.!?,]|$))(?P<about>.+)",
                           re.I)  # ("forget about it": never mind)
_FORGET_THAT = re.compile(_LEAD + r"forget\s+(?:that|it|this|what\s+i\s+(?:just\s+)?(?:said|told\s+you))\s*(?:[.!?]|$)",
                          re.I)
# Any other request that begins "Forget…", but not "Forget it, never mind", which asks nothing
_FORGET_ANY = re.compile(_LEAD + r"forget\b(?!\s+(?:about\s+)?it\b)(?P<heard>.*)", re.I)
_CORRECT = re.compile(_LEAD + r"(?:that's|that\s+is|that\s+was|that's\s+not|you're|you\s+are|you've\s+got\s+that|"
                      r"you\s+got\s+that)\s+(?:wrong|not\s+right|not\s+true|incorrect|mistaken|right\s+wrong)\b"
                      r"[\s,.!:;-]*(?P<statement>.*)", re.I)
_CORRECT_NOT = re.compile(_LEAD + r"(?:that's|that\s+is)\s+not\s+(?:right|true|correct)\b[\s,.!:;-]*(?P<statement>.*)",
                          re.I)
_END = re.compile(r"[\s.!?,;:]+$")


_NOTHING = re.compile(r"\W*(?:nothing|never\s*mind|forget\s+it|cancel)\b", re.I)
_ANSWER_ABOUT = re.compile(r"^\W*(?:forget\s+)?(?:" + _WHAT_ABOUT + ")?", re.I)


def what_to_forget(answer: str) -> str | None:
    """An answer to "What should I forget?" as the thing it names ("About my sister." → "my
    sister"); None for nothing after all ("Never mind")."""
    if _NOTHING.match(answer):
        return None
    return without_end_marks(_ANSWER_ABOUT.sub("", answer))


def without_end_marks(text: str) -> str:
    """The words without the marks and spaces after them ("my sister." → "my sister")."""
    return _END.sub("", text)


def _clean(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split())


def memory_command(text: str) -> Command | None:
    """The request this utterance makes of the person's memory, if it makes one."""
    said = _clean(text)
    if _RECAP.search(said):
        return Recap()
    if _FORGET_TODAY.search(said):
        return ForgetToday()
    if m := _FORGET_ABOUT.search(said):
        return Forget(without_end_marks(m.group("about")))
    if _FORGET_THAT.search(said):
        return Forget("")
    if m := _FORGET_ANY.search(said):
        return ForgetWhat(without_end_marks(m.group("heard")).strip())
    if m := _CORRECT.search(said) or _CORRECT_NOT.search(said):
        return Correct(without_end_marks(m.group("statement")))
    return None
