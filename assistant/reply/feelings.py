"""How a reply speaks of the person's feelings and of how they are doing: a feeling they did not
tell handed to them, one set on another thing told before, praise they did not earn. Pure checks on
the reply's words against theirs; `assistant.reply.checks` holds them with the rest.
"""

from __future__ import annotations

import re

from memory.affect import detect_affect
from memory.ranking import content_words, stems, word_forms, word_set
from text.questions import asks

_YOU_FEEL = re.compile(r"^\W*(?:you are|you're|you feel)\s+"
                       r"(?:(?:very|so|really|quite|a bit|a little|feeling)\s+)*([a-z]+)", re.I)
# what they are going through, up to where the clause says why or what about
_YOU_HAVE_FEELING = re.compile(r"^\W*you(?:\s+|(?=['’]))(are|have|feel|seem|['’]re|['’]ve)\b([^,.;:!?]*?)"
                               r"(?=\s+(?:because|about|after|since|that|when|with|of your|over)\b|[,.;:!?]|$)", re.I)
# not knowing, said of them
_YOU_UNSURE = re.compile(r"^\W*you(?:\s+are|['’]re|\s+seem)\s+(?:still\s+)?"
                         r"(?:not\s+(?:sure|certain)|unsure|uncertain|confused)\b", re.I)
# a wish that they get better, anywhere in the reply: for an illness or a hurt they told of
_GET_BETTER = re.compile(r"\bhope\s+(?:you(?:['’]re|\s+are)?\s+)?(?:feel(?:ing)?\s+|get(?:ting)?\s+)?better\b"
                         r"|\bget\s+well\s+soon\b", re.I)
_UNWELL = re.compile(r"\b(?:ill|sick|unwell|poorly|cold|flu|covid|fever|cough\w*|hurt\w*|pain\w*|ache\w*|sore|"
                     r"injur\w*|broke|fell|fall|hospital|surgery|operation|headache|migraine|recover\w*|"
                     r"better|symptoms?|infection|virus|tired|exhausted)\b", re.I)
# gladness of how they are, anywhere in the reply: a recovery, or a feeling, nobody told of ("I'm glad
# you're feeling well and excited about the job." to a report due on Friday, live)
_GLAD_YOU_ARE = re.compile(r"\bglad\b[^.!?]*\byou(?:'re| are)\s+(?:feeling\s+|getting\s+)?([a-z]+)", re.I)
_WELL = re.compile(r"^(?:better|well|recover\w*)$", re.I)


def tells_their_feeling(piece: str, heard: str) -> bool:
    """Told something, "You are very sorry," (or "You feel happy") with a feeling they did not
    state (a word of the emotion lexicon, or "sorry", not among what they said by its stem), or
    "I'm glad you're feeling better" with nothing said of getting better: a small model hands the
    person the feeling its notes or its own sympathy hold ("You are very sorry," to a cancelled
    train, and "You are very busy, but I'm glad you're feeling better." to a son starting school,
    both heard live). "You must be thrilled!" guesses, as people do, and is left be. Asked "Am I…?",
    it is the answer."""
    if asks(heard):
        return False
    theirs = stems(word_set(heard))
    if _YOU_UNSURE.match(piece) and not theirs & {"sure", "unsu", "cert", "unce", "conf", "know"}:
        return True  # "You are not sure what happened to her." to a visit cancelled (live)
    glad = _GLAD_YOU_ARE.search(piece)
    if glad and (_WELL.match(glad.group(1)) or detect_affect(f"I'm {glad.group(1)}") is not None) \
            and glad.group(1)[:4].lower() not in theirs:
        return True
    if _GET_BETTER.search(piece) and not _UNWELL.search(heard):
        return True  # "I hope you're feeling better soon." to "I am really nervous about it." (live)
    said = _YOU_FEEL.match(piece)
    if said:
        word = said.group(1).lower()
        if word == "sorry" or detect_affect(f"I'm {word}") is not None:
            return word[:4] not in theirs
    # a feeling said of them in other words: "You are experiencing a lot of stress." to a flooded
    # kitchen (heard live)
    opening = _YOU_HAVE_FEELING.match(piece)
    verb = opening and {"are": "am", "'re": "am", "’re": "am", "'ve": "have", "’ve": "have"}.get(
        opening.group(1).lower(), opening.group(1))
    felt = detect_affect(f"I {verb}{opening.group(2)}") if opening else None
    return felt is not None and not any(word[:4] in theirs for word in felt.label.split(" and "))


_FELT_ABOUT = re.compile(r"\b([a-z]+)(?:\s+to\s+hear)?\s+(?:about|over|regarding|because\s+of)\s+([^,.;:!?]+)", re.I)


def feels_about_another(piece: str, heard: str, known: str) -> bool:
    """To a feeling the person just told, a piece that sets a feeling on another thing they spoke of
    before (`known`: the notes, their earlier turns, the earlier replies), with nothing of what they
    just said in what it is about: "You are definitely nervous about the guitar." to "My daughter
    starts school next week and I'm a bit nervous", a turn after the guitar (heard live)."""
    if asks(heard):
        return False
    now, before = word_forms(word_set(heard)), word_forms(content_words(known))
    for m in _FELT_ABOUT.finditer(piece):
        word = m.group(1).lower()
        if word not in ("sorry", "glad") and detect_affect(f"I'm {word}") is None:
            continue
        about = word_forms(content_words(m.group(2)))
        if about and not about & now and about & before:
            return True
    return False


# Praise of how the person is doing, which they did not tell: "Hi Dana! You're doing well." to "I
# just got back from a long walk" (heard live), "You've been doing great!" (the demo's first reply).
_HOW_THEY_DO = re.compile(r"\byou(?:'re| are|'ve been| have been)\s+(?:all\s+|really\s+|so\s+)?doing\s+"
                          r"(?:so\s+|really\s+|very\s+|a\s+)?(?:well|great|good|fine|amazing|wonderful|fantastic)\b",
                          re.I)
# "You are very well, Priya." to a wife's surgery tomorrow (heard live); asked "Am I…?", an answer
_ARE_WELL = re.compile(r"^\W*you(?:'re| are)\s+(?:very\s+|so\s+|really\s+)?(?:well|fine)\b", re.I)
_TOLD_HOW = re.compile(r"\b(?:i'm|i am|i've been|i have been)\s+(?:\w+\s+)?doing\b|\bhow\b", re.I)


def praises_untold(start: str, heard: str) -> bool:
    """The reply tells the person how well they are doing when they said nothing of it."""
    return bool(_HOW_THEY_DO.search(start)) and not _TOLD_HOW.search(heard) \
        or bool(_ARE_WELL.match(start)) and not asks(heard)
