"""What of a reply is voiced: a bad start is begun again, a later sentence that only says the
person's words back (or an earlier reply's) is left unsaid, and so is a last try that only does.

A small model sometimes opens with a refusal ("I'm sorry, but I can't assist with that"), with the
person's words back, by narrating its notes, or (told something) by reading one out. The first
piece (a clause of a few words) shows it; the reply is then made again with its first token
banned, from a prompt the model has cached, so another try costs about one first token. Replies
that begin well pass through untouched. After the start, it copies whole sentences (what was just
said, its own last reply): those are dropped.
"""

from __future__ import annotations

import re
from typing import Callable, Generator, Iterator

from assistant.reply.checks import bad_start, copies, undecided_start, unsayable
from assistant.reply.feelings import praises_untold, tells_their_feeling
from assistant.reply.general_checks import is_refusal
from assistant.reply.openings import stock_phrase
from assistant.reply.knowing import blames_them_for_not_telling
from assistant.reply.perspective import gives_them_anothers, makes_them_theirs
from assistant.reply.sentences import lead_in
from assistant.reply.troubles import told_of_trouble

MAX_HEAD_PIECES = 2  # an apology that may open a refusal waits for one more piece
TRIES = 3  # the reply as first begun, and two more; the last is voiced unless it would be a fragment


def never(sentence: str) -> bool:
    return False


def begun_well(make_pieces: Callable[[str], Generator[str, None, None]], heard: str, earlier: list[str] = (),
               unfounded: Callable[[str], bool] = never, known: str = "",
               bad_news: Callable[[str], bool] = told_of_trouble, before: str = "") -> Iterator[str]:
    """The reply's pieces. make_pieces(avoid) starts a reply; `avoid` holds the starts thrown away,
    one per line ("" at first). `earlier`: the replies in the history (and any other words not to be
    copied: the prompt's worked examples), whose starts are not copied. `unfounded`: whether a piece
    says what nothing in the conversation holds (the worked examples' matter, a made-up number).
    `known`: what the person told Hearth (the notes, what they said before), which a reply does not
    begin by saying it does not know. `bad_news(heard)`: whether they told something bad for them,
    which a reply does not cheer; `before`: what they said the turn before, which words that go on
    with it are read with."""
    thrown: list[str] = []
    for attempt in range(TRIES):
        pieces = make_pieces("\n".join(thrown))
        head: list[str] = []
        for piece in pieces:
            head.append(piece)
            if len(head) >= MAX_HEAD_PIECES or not undecided_start(" ".join(head), heard, known):
                break
        start = " ".join(head)
        # a piece that own_words would leave unsaid leaves the rest alone: a fragment ("Before that,")
        unsaid = unfounded(start) or len(list(own_words(iter(head), heard, earlier, unfounded))) < len(head)
        # a lead-in's words are not the reply's own: "You know, Max is a bit worried" says their words back
        led = " ".join(head[1:]) if len(head) > 1 and lead_in(head[0]) else ""
        bad = bad_start(start, heard, earlier, known, bad_news, before) \
            or bool(led) and bad_start(led, heard, earlier, known, bad_news, before)
        if not head or not (unsaid or bad):
            yield from head
            yield from pieces
            return
        # the last try is voiced, but for what would be left unsaid or what no reply may say (the
        # caller's acknowledgement is better than "I don't have information about the train
        # cancellation", "You are very sorry for the inconvenience." or "That's great to hear!")
        if attempt == TRIES - 1:
            if not (unsaid or unsayable(start, heard, earlier, known, bad_news, before)):
                yield from head
                yield from pieces
            pieces.close()
            return
        pieces.close()  # the generation under it stops
        thrown.append(start)


def own_words(pieces: Iterator[str], heard: str, earlier: list[str], unfounded: Callable[[str], bool] = never
              ) -> Iterator[str]:
    """The pieces after the first, less any that only repeats what the person just said or what an
    earlier reply said (`earlier`: the replies in the history, and the other words not to be copied)
    or praises how they are doing when they told nothing of it ("Hi Dana! You're doing well.") or
    hands them a feeling they did not tell ("That sounds like a good plan. I'm glad you're feeling
    better.", heard live) or is a stock phrase nothing they said earned ("You're welcome." to no
    thanks) or tells them another's doing as theirs ("I'm glad you're coming to visit." to their
    sister's visit, live) or tells them they are one of theirs ("You are the new kitten.") or
    refuses ("…miscommunication. I'm sorry, but I can't assist with that.", live); and
    none, the first included, that says what nothing in the conversation holds (`unfounded`): a
    made-up answer is worse than none; or, asked one thing, says they never told it another ("I
    don't know," then "you haven't told me your plans yet." to a question about the rain)."""
    unended = ""  # the voiced start of a sentence not yet ended: a piece that goes on with it is judged with it
    praised = False  # the piece before was such praise, left unsaid: "How about you?" after it goes too
    for n, piece in enumerate(pieces):
        sentence = f"{unended} {piece}".strip()
        if praised and _ABOUT_YOU.match(piece):
            continue
        praised = bool(n) and praises_untold(piece, heard)
        if n and (copies(sentence, heard, earlier) or praised or tells_their_feeling(piece, heard)
                  or stock_phrase(piece, heard) or gives_them_anothers(piece, heard)
                  or makes_them_theirs(piece, [heard]) or is_refusal(sentence)) or unfounded(piece) \
                or blames_them_for_not_telling(piece, heard):
            continue
        yield piece
        unended = "" if piece.rstrip()[-1:] in ".!?…" else sentence


_ABOUT_YOU = re.compile(r"^\W*(?:(?:how|what)\s+about\s+you|and\s+you)\W*$", re.I)


def continued(previous: str, piece: str) -> str:
    """A piece that carries on its sentence ("Last time," then "You were worried…", turned to "you"
    on its own) begins in lower case."""
    if previous and previous[-1] not in ".!?…" and piece[:3] == "You":
        return "y" + piece[1:]
    return piece
