"""Hearth's word rules in one place: where a sentence ends, the words that leave a thought
hanging, abbreviations, and numbers written as words. Pure: constants and functions only.

Written here rather than taken from a library: the maintained sentence splitters either need
data downloaded at run time (NLTK's punkt) or are not in the registry, and these rules are small
and tuned to speech and to a streaming reply (a sentence ends only once what follows has begun).
"""

from __future__ import annotations

import re
from typing import Iterator

# Lower case, with their dot: a dot after these does not end a sentence.
ABBREVIATIONS = frozenset({"mr.", "mrs.", "ms.", "dr.", "st.", "mt.", "jr.", "sr.", "vs.", "etc.", "e.g.", "i.e."})

# Words after which a thought is not finished: a speaker who stops after "and", "the", "my" or
# "with" is still going.
HANGING_WORDS = frozenset({
    "and", "but", "or", "so", "because", "then", "if", "when", "that", "which", "who", "while",
    "the", "a", "an", "my", "your", "his", "her", "its", "our", "their", "i", "we", "he", "she", "they",
    "to", "of", "with", "for", "from", "in", "on", "at", "like", "very", "is", "are", "was", "were", "um", "uh",
})
# Those, and words that a sentence may end on ("I like this") but that lean on what follows when
# more does: a spoken reply is not cut after any of them ("some | of the", "read me the | book").
LEANING_WORDS = HANGING_WORDS | {"this", "these", "those", "some", "any", "no", "not", "more", "most", "be"}
# Those of them that a sentence may end on ("than he was.", "I called her.", "Come in.", "I'd love
# to."): followed by a full stop, they end it. Articles, subject pronouns and conjunctions never do,
# whatever mark Whisper put after a cut ("He said that the.").
SENTENCE_FINAL = frozenset({
    "so", "then", "when", "that", "which", "who", "her", "his", "its", "to", "with", "for", "from", "in", "on",
    "at", "like", "is", "are", "was", "were",
})

NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                "fifteen sixteen seventeen eighteen nineteen twenty").split()
_NUMBER_VALUES = {word: n for n, word in enumerate(NUMBER_WORDS)}
_ORDINAL_UNITS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
                  "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth").split()
# The days of a month as said ("the fourteenth of March", "the twenty-first"): word -> day.
DAY_ORDINALS = ({word: n for n, word in enumerate(_ORDINAL_UNITS, 1)} | {"twentieth": 20, "thirtieth": 30}
                | {f"{tens}{sep}{unit}": base + n for tens, base in (("twenty", 20), ("thirty", 30))
                   for n, unit in enumerate(_ORDINAL_UNITS[:9], 1) for sep in ("-", " ") if base + n <= 31})
# As said of a count: "a week ago", "a couple of days", "a few months".
# Words of when, not of what: a reply's "today" or "next week" says nothing of what happened
TIME_WORDS = frozenset({"today", "tonight", "tomorrow", "yesterday", "now", "soon", "day", "week", "weekend", "month",
                        "year", "morning", "afternoon", "evening", "next", "last"})
COUNT_WORDS = _NUMBER_VALUES | {"a": 1, "an": 1, "couple of": 2, "few": 3}

# An end mark, closing quotes or brackets, then whitespace: the next sentence has begun.
_END = re.compile(r"[.!?…]+[\"')\]]*\s")


def sentence_ends(text: str) -> Iterator[int]:
    """Positions just past each end mark that ends a sentence (not an abbreviation's, a decimal's
    or an initial's) and is followed by whitespace."""
    for m in _END.finditer(text):
        words = text[: m.end()].split()
        if words and words[-1].lower() not in ABBREVIATIONS and not _decimal_or_initial(text, m.start()):
            yield m.end()


def _decimal_or_initial(text: str, dot_at: int) -> bool:
    before = text[dot_at - 1] if dot_at > 0 else ""
    after = text[dot_at + 1] if dot_at + 1 < len(text) else ""
    # "J. Smith": a single capital letter before the dot
    if before.isupper() and (dot_at < 2 or not text[dot_at - 2].isalpha()):
        return True
    return before.isdigit() and after.isdigit()


def ends_sentence(text: str) -> bool:
    """The text ends on a mark that ends a sentence ("I went home.", 'He said "no!"'), not on a
    word, a comma or an abbreviation's dot ("…said Mr.")."""
    text = text.rstrip()
    return bool(text) and any(end == len(text) + 1 for end in sentence_ends(text + " "))


def split_sentences(text: str) -> list[str]:
    """The sentences of a whole text; a line break also ends one."""
    found: list[str] = []
    for line in text.splitlines():
        start = 0
        for end in sentence_ends(line + " "):
            found.append(line[start:end].strip())
            start = end
        found.append(line[start:].strip())
    return [s for s in found if s]


def last_word(text: str) -> str:
    """The last word, lower case, without punctuation ("" if none)."""
    words = text.split()
    return re.sub(r"[^\w']", "", words[-1]).lower() if words else ""


def ends_hanging(text: str) -> bool:
    """The words stop on one that leaves the thought unfinished ("and then I..."), not on one that
    ends the sentence it closes ("than he was.")."""
    word = last_word(text)
    trailing_off = text.rstrip().endswith(("...", "…"))
    return word in HANGING_WORDS and not (word in SENTENCE_FINAL and ends_sentence(text) and not trailing_off)


def count_of(word: str) -> int:
    """A count written in digits or words ("3", "three", "a", "couple of")."""
    return int(word) if word.isdigit() else COUNT_WORDS[word.lower()]


def day_of_month(word: str) -> int:
    """A day of the month written in digits or as said ("14", "fourteenth", "twenty-first")."""
    return int(word) if word.isdigit() else DAY_ORDINALS[word.lower()]


def as_digits(word: str) -> str:
    """A number word as digits ("four" → "4"); any other word as it is. Whisper writes a number
    as a word in one pass and as digits in the next, so words are compared in this form."""
    n = _NUMBER_VALUES.get(word.lower())
    return word if n is None else str(n)


def count_phrase(n: int, unit: str) -> str:
    """'one day', 'three weeks', '25 years'."""
    word = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return f"{word} {unit}{'s' if n != 1 else ''}"


# A greeting that opens a turn, and the one it greets: "Hi Hearth, …", "Hey Har, …" (Hearth's name
# misheard, live), "Good morning, …". Whoever is greeted is the one listening: Hearth, however its
# name was heard; never someone the turn tells of.
_GREETING_WORD = r"^\W*(?i:hi|hiya|hey|hello|good (?:morning|afternoon|evening)|morning|evening)"
_GREETING = re.compile(_GREETING_WORD + r"(?:[,!]?\s+(?P<greeted>(?i:there)|[A-Z][\w'’-]*))?\s*[,!.]\s*")
_OPENS_WITH_GREETING = re.compile(_GREETING_WORD + r"\b")


def opens_with_greeting(text: str) -> bool:
    """A greeting word opens the text, however it goes on ("Hello again, can you…")."""
    return bool(_OPENS_WITH_GREETING.match(text))


def opening_greeting(text: str) -> tuple[int, str]:
    """Where a greeting that opens the text ends (0 where none does), and the word for the one it
    greets ("Har" of "Hi Har, I'm Priya"; "" where none is named or it is "there")."""
    m = _GREETING.match(text)
    if m is None:
        return 0, ""
    greeted = m.group("greeted") or ""
    return m.end(), "" if greeted.lower() == "there" else greeted
