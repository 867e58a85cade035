"""Anticipation: the memory lookup done from a partial transcript, and when it still holds. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from text.phrases import can_head
from text.words import HANGING_WORDS, as_digits


@dataclass(frozen=True)
class Anticipation:
    turn_id: int
    text: str  # the partial transcript it was made from
    block: str  # the memory block for the prompt
    memories: tuple[dict, ...]
    memory: object  # whose memory it came from (it must be the same speaker's at the end)


def _words(text: str) -> list[str]:
    return [as_digits(w) for w in re.findall(r"[a-z0-9']+", text.lower())]


def still_valid(partial: str, final: str, min_share: float = 0.8) -> bool:
    """The final transcript carries on from the partial: most of the partial's words are in it.

    Then the memories looked up while the person spoke answer what they finally said, and the
    prompt evaluated from them can be reused; otherwise recall runs again on the final words.
    The partial's last word need only begin as a final word does: its audio was cut off at an
    arbitrary moment, often in the middle of that word ("7 of Club" for "7 of clubs", "my fella"
    for "my fellow"). It must be there, though: it is often what the person is asking about. A
    partial that stops on a word leaning on what follows ("what my") had not yet said what it was
    about ("dog"), and one the final words go on from to name a thing had not looked it up.
    """
    before, after = _words(partial), set(_words(final))
    if not before or not after or len(after) > 2 * len(set(before)) + 4:
        return False
    *head, last = before
    if last in HANGING_WORDS and after - set(before):
        return False
    if head and sum(w in after for w in head) / len(head) < min_share:
        return False
    if _names_more(before, after):
        return False
    return any(w.startswith(last[:3]) for w in after)


def _names_more(before: list[str], after: set[str]) -> bool:
    """The final words name a thing the partial had not reached: looked up on "Hello again, can you
    remind me", the notes held no dog for "…what my dog is called?" (the demo answered "I don't
    know" now and then). A word cut off in the partial is the same thing if enough of it was heard
    to look it up by ("7 of Club"; "what my d-" was not)."""
    heard, cut = {w[:4] for w in before}, before[-1]
    return any(w[:4] not in heard and not (len(cut) >= 3 and w.startswith(cut)) and can_head(w)
               for w in after - set(before))


def stands_in_for(partial: str, final: str) -> bool:
    """The partial says enough of the final words for its meaning (its query embedding) to rank
    memories for them: at least half as many words."""
    return 2 * len(_words(partial)) >= len(_words(final)) > 0


def anticipate(turn_id: int, partial_text: str, memory) -> Anticipation:
    """The lookup for the words so far in `memory` (a TurnMemory, or None: nothing to look up)."""
    if memory is None:
        return Anticipation(turn_id, partial_text, "", (), None)
    memory.prepare(partial_text)
    block, memories = memory.recall(partial_text)
    return Anticipation(turn_id, partial_text, block, tuple(memories), memory)


def recall(anticipated: Anticipation | None, turn_id: int, memory, text: str) -> tuple[str, list[dict]]:
    """The final words' notes: the anticipated lookup if it still answers them, else a fresh one,
    ranked by the partial's meaning (its embedding is at hand; the final words' would take 15-25 ms
    on the critical path) and the final words' entities, or by the final words alone where there
    was no partial or it heard too little of them."""
    if memory is None:
        return "", []
    a = anticipated
    if a is not None and a.turn_id == turn_id and a.memory is memory:
        if still_valid(a.text, text):
            return a.block, list(a.memories)
        if stands_in_for(a.text, text):
            return memory.recall(text, like=a.text)
    return memory.recall(text)
