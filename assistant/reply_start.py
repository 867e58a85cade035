"""A reply begun badly is begun again before any of it is voiced (once, and only then).

A small model sometimes opens with a refusal ("I'm sorry, but I can't assist with that"), with the
person's words back, or by narrating its notes. The first piece (a clause of a few words) shows it;
the reply is then made again with its first token banned, from a prompt the model has cached, so
the second try costs about one first token. Replies that begin well pass through untouched.
"""

from __future__ import annotations

from typing import Callable, Iterator

from .reply_checks import bad_start, undecided_start

MAX_HEAD_PIECES = 2  # an apology that may open a refusal waits for one more piece
TRIES = 3  # the reply as first begun, and two more; the last is voiced whatever it is


def begun_well(make_pieces: Callable[[str], Iterator[str]], heard: str) -> Iterator[str]:
    """The reply's pieces. make_pieces(avoid) starts a reply; `avoid` holds the starts thrown away,
    one per line ("" at first)."""
    thrown: list[str] = []
    for attempt in range(TRIES):
        pieces = make_pieces("\n".join(thrown))
        head: list[str] = []
        for piece in pieces:
            head.append(piece)
            if len(head) >= MAX_HEAD_PIECES or not undecided_start(" ".join(head)):
                break
        start = " ".join(head)
        if not head or attempt == TRIES - 1 or not bad_start(start, heard):
            yield from head
            yield from pieces
            return
        close = getattr(pieces, "close", None)
        if close:
            close()
        thrown.append(start)
