"""Split a stream of LLM tokens into sentences as they arrive, so speech can start early."""

from __future__ import annotations

import re
from typing import Callable, Generator, Iterable

from memory.dates import DAY_MONTH_RE, NOTE_DATE_RE, RELATIVE_RE, WRITTEN_DATE_RE
from memory.ranking import DAY_HEADER
from text.words import LEANING_WORDS, sentence_ends

from assistant.reply.prompt import NOTES_INTRO

MIN_CHARS = 12  # very short fragments ("Oh.") wait to join the next sentence
# Words before which a spoken sentence can pause naturally. The first piece of a reply may end
# there (once it has CONNECTIVE_MIN_WORDS words) when the model writes no early comma.
_CONNECTIVES = {"and", "but", "because", "so", "that", "which", "who", "when", "while", "since", "if", "or"}
CONNECTIVE_MIN_WORDS = 3
# A speaker may also pause before a preposition, once the piece is a little longer; and a first
# piece with no pause at all is cut after FIRST_PIECE_MAX_WORDS, so that a long first sentence
# (there were some of 30 words: 3 s of generating and voicing before any sound) starts sooner.
# (Not "to" or "like": "a question | to ask", "I would | like".)
_PREPOSITIONS = {"by", "in", "with", "for", "about", "from", "on", "at", "after", "before", "into"}
PREPOSITION_MIN_WORDS = 4
FIRST_PIECE_MAX_WORDS = 10
# A first piece of a word or two ("You know,", "Yes,") is only a lead-in: the clause after it is
# cut early too, so that what it leads into can be heard (and judged, reply/guard.py) as soon.
LEAD_IN_WORDS = 2
# The layout of the memory notes, which a small model sometimes copies into its reply ("30 November
# 2026 (today): - Seeing that..."): day headers and bullets are not for saying aloud.
_NOTES_HEADER = re.compile(f"{re.escape(NOTES_INTRO)}|{DAY_HEADER.pattern}", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)](?=\s+[A-Za-z]))\s+")
# The date the notes put after a day they name ("since Sunday (1 March 2026)"), copied into a reply:
# read aloud it is "since Sunday one March twenty twenty-six", and the words before it say when.
_NOTE_DATE = re.compile(rf"\s*(?:{NOTE_DATE_RE}|\({DAY_MONTH_RE}\))", re.I)
# A day header's date and age copied without its colon ("about the 6 December 2026 (today) events",
# "on 1 December 2026 (five days ago)"): said as the age alone, as a person says it.
_HEADER_DAY = re.compile(rf"\b(?:on |the )?{WRITTEN_DATE_RE} \(({RELATIVE_RE})\)", re.I)
# "That sounds like a bit scary": the small model's slip between "sounds a bit scary" and "sounds
# like a bit of a worry" (heard in every demo). "like a bit of…" is left as it is.
_LIKE_A_BIT = re.compile(r"\b(sounds?|sounded|seems?|seemed|looks?|looked|feels?|felt)\s+like\s+(?=a\s+bit\s+(?!of\b)[a-z])",
                         re.I)


def spoken_form(piece: str) -> str:
    """A reply's piece as it is said: without notes headers, a bullet copied from the prompt, or a
    list's number ("1. Rest the knee" is said "Rest the knee"), or the date a note put in brackets,
    or a header's date before its age ("on 1 December 2026 (five days ago)" said "five days ago");
    and "sounds like a bit scary" said "sounds a bit scary"."""
    said = _NOTE_DATE.sub("", _HEADER_DAY.sub(r"\1", _BULLET.sub("", _NOTES_HEADER.sub("", piece).strip()))).strip()
    return _LIKE_A_BIT.sub(r"\1 ", said)


def split_complete(buffer: str) -> tuple[list[str], str]:
    """Complete sentences at the front of buffer, and the unfinished rest."""
    sentences: list[str] = []
    start = 0
    for end in sentence_ends(buffer):
        candidate = buffer[start:end].strip()
        if len(candidate) < MIN_CHARS:
            continue
        sentences.append(candidate)
        start = end
    # a newline is a hard break too (lists, paragraphs)
    rest = buffer[start:]
    if "\n" in rest:
        *done, rest = rest.split("\n")
        sentences.extend(s.strip() for s in done if s.strip())
    return sentences, rest


def _pause_break(buffer: str) -> int | None:
    """Where the first piece may end in buffer: before a connective word after at least
    CONNECTIVE_MIN_WORDS words, before a preposition after PREPOSITION_MIN_WORDS, or after
    FIRST_PIECE_MAX_WORDS whatever comes; never just after a word that leans on the next. Only
    words written out whole (a space after them) count."""
    words = list(re.finditer(r"\S+", buffer))
    for n, m in enumerate(words[:-1]):  # the last word may still be growing
        word = m.group().lower()
        if n and words[n - 1].group().lower() in LEANING_WORDS:
            continue
        connective = n >= CONNECTIVE_MIN_WORDS and word in _CONNECTIVES
        preposition = n >= PREPOSITION_MIN_WORDS and word in _PREPOSITIONS
        if connective or preposition or n >= FIRST_PIECE_MAX_WORDS:
            return m.start()
    return None


def lead_in(piece: str) -> bool:
    """A piece of a word or two, which says nothing yet of what it leads into."""
    return len(re.findall(r"[\w']+", piece)) <= LEAD_IN_WORDS


def _ended(piece: str) -> bool:
    return piece.rstrip("\"')]")[-1:] in ".!?…"


def sentences_from_tokens(tokens: Generator[str, None, None], first_clause_words: int = 0, max_sentences: int = 0,
                          cut_short: Callable[[], bool] = lambda: False,
                          judged_now: Callable[[str], bool] = lambda words: False) -> Generator[str, None, None]:
    """Yield each sentence as soon as it is complete; the remainder at the end.

    first_clause_words > 0: the very first piece may end at a comma once it has that many words,
    or at a pause (`_pause_break`: before "and", "because", "who"..., before "by", "with"... in a
    longer piece, or after FIRST_PIECE_MAX_WORDS), so the first sound can start before the whole
    first sentence is generated.
    max_sentences > 0: the tokens are closed after that many whole sentences (a spoken reply of
    five points is a minute nobody asked for). cut_short(), asked when the tokens end: they were
    cut at the token limit, so an unended remainder after a whole sentence is half a sentence,
    and is left out. judged_now(words), asked of the first piece's whole words as they come
    (first_clause_words > 0): they are a piece already, to be judged before the rest is generated
    (a start that says the person's words back is begun again however it goes on).
    """
    ended = 0
    for piece in _pieces(tokens, first_clause_words, judged_now):
        if _ended(piece):
            ended += 1
        elif ended and cut_short():
            continue  # only the remainder is unended and still unsaid when cut_short holds
        yield piece
        if max_sentences and ended >= max_sentences:
            tokens.close()  # the model stops generating
            return


def _pieces(tokens: Iterable[str], first_clause_words: int,
            judged_now: Callable[[str], bool] = lambda words: False) -> Generator[str, None, None]:
    buffer = ""
    first = first_clause_words > 0
    for token in tokens:
        # a typographic apostrophe is a plain one: kept from "I can't", the model wrote "I can’t",
        # which every word check (and the copy check with them) read as three other words
        buffer += token.replace("\u2019", "'")
        if first:
            # the very first piece goes out as soon as it is a clause or a sentence, however short
            # ("Sure!"): saying something early matters more than even phrasing
            end = next(sentence_ends(buffer), None)
            head, sep, tail = buffer.partition(", ")
            if sep and len(head.split()) >= first_clause_words and (end is None or end > len(head)):
                yield head + ","
                buffer, first = tail, lead_in(head)
                continue
            if end is not None:
                yield buffer[:end].strip()
                buffer, first = buffer[end:], False
                continue
            cut = _pause_break(buffer)
            whole = buffer[:buffer.rstrip().rfind(" ") + 1]  # the last word may still be growing
            if cut is None and whole.strip() and judged_now(whole.strip()):
                cut = len(whole)
            if cut is not None:
                yield buffer[:cut].strip()
                buffer, first = buffer[cut:], False
                continue
        done, buffer = split_complete(buffer)
        if done:
            first = False
        yield from done
    tail = buffer.strip()
    if tail:
        yield tail

