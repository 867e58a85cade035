"""Anticipation: the memory lookup done from a partial transcript, and when it still holds. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Anticipation:
    turn_id: int
    text: str  # the partial transcript it was made from
    block: str  # the memory block for the prompt
    memories: tuple[dict, ...]
    memory: object  # whose memory it came from (it must be the same speaker's at the end)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def still_valid(partial: str, final: str, min_share: float = 0.8) -> bool:
    """The final transcript carries on from the partial: most of the partial's words are in it.

    Then the memories looked up while the person spoke answer what they finally said, and the
    prompt evaluated from them can be reused; otherwise recall runs again on the final words.
    """
    before, after = _words(partial), set(_words(final))
    if not before or not after:
        return False
    return sum(w in after for w in before) / len(before) >= min_share and len(after) <= 2 * len(set(before)) + 4
