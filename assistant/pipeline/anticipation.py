"""Anticipation: the memory lookup done from a partial transcript, and when it still holds. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from text.words import NUMBER_WORDS


@dataclass(frozen=True)
class Anticipation:
    turn_id: int
    text: str  # the partial transcript it was made from
    block: str  # the memory block for the prompt
    memories: tuple[dict, ...]
    memory: object  # whose memory it came from (it must be the same speaker's at the end)


# Whisper writes a number as a word in one pass and as digits in the next ("Four" and "4").
_NUMBERS = {w: str(n) for n, w in enumerate(NUMBER_WORDS)}


def _words(text: str) -> list[str]:
    return [_NUMBERS.get(w, w) for w in re.findall(r"[a-z0-9']+", text.lower())]


def still_valid(partial: str, final: str, min_share: float = 0.8) -> bool:
    """The final transcript carries on from the partial: most of the partial's words are in it.

    Then the memories looked up while the person spoke answer what they finally said, and the
    prompt evaluated from them can be reused; otherwise recall runs again on the final words.
    The partial's last word need only begin as a final word does: its audio was cut off at an
    arbitrary moment, often in the middle of that word ("7 of Club" for "7 of clubs", "my fella"
    for "my fellow"). It must be there, though: it is often what the person is asking about.
    """
    before, after = _words(partial), set(_words(final))
    if not before or not after or len(after) > 2 * len(set(before)) + 4:
        return False
    *head, last = before
    if head and sum(w in after for w in head) / len(head) < min_share:
        return False
    return any(w.startswith(last[:3]) for w in after)


def stands_in_for(partial: str, final: str) -> bool:
    """The partial says enough of the final words for its meaning (its query embedding) to rank
    memories for them: at least half as many words."""
    return 2 * len(_words(partial)) >= len(_words(final)) > 0
