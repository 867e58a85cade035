"""How a reply meets a trouble the person tells: pure checks on a reply's start.

Told a worry or a sorrow, a reply does not wave it away ("That's normal"), does not pass it by with
neither sympathy nor anything of what they said, and does not cheer it ("That's great to hear!").
Used by bad_start (assistant/reply/checks.py) and by the reply guard.
"""

from __future__ import annotations

import re
from typing import Callable

from memory.affect import detect_affect
from memory.appraisal import Standing, lean, standing
from memory.ranking import content_words, stems, word_set
from text.questions import asks

# A worry or a sorrow told is not waved away ("That's normal. It's important to be patient" to "I'm a
# bit worried, Max has been limping").
DISMISSALS = ("That's normal", "That is normal", "It's normal", "It is normal")


def told_of_trouble(heard: str) -> bool:
    """Their words state a feeling that is not good (memory.affect's lexicon)."""
    felt = detect_affect(heard)
    return bool(felt and felt.valence < 0)


# ("It's great that you're feeling stressed." to "I have been really stressed at work", live)
_CHEERS = re.compile(r"^\W*(?:(?:that's|that is|it's|it is|how|what)\s+(?:so\s+|really\s+|a\s+)?"
                     r"(?:great|wonderful|fantastic|amazing|awesome|lovely|exciting|good news)|"
                     r"(?:great|wonderful|fantastic|amazing|awesome|congratulations|congrats|yay|hooray)\b)"
                     r"|\b(?:great|glad|good|happy|nice) to hear\b"
                     # their luck ("You are very lucky!" to a late granddad's garden, live), but for a good
                     # thing in a hard time ("You're lucky to have her.")
                     r"|\byou(?:['’]re| are)\s+(?:so\s+|very\s+|really\s+)?lucky\b(?!\s+to\s+have)"
                     r"|\b(?:lucky you|how lucky)\b", re.I)
# Hearth's own gladness: a cheer only where the words say the news is bad ("I'm glad you got back." to a
# grandmother's funeral, heard live; to a day on the allotment, read as sad, it was a fair reply)
_GLAD = re.compile(r"^\W*(?:i['’]m|i am)\s+(?:so\s+|really\s+|very\s+)?(?:glad|happy)\b", re.I)
# "That sounds like a good plan." to a deadline moved again (heard live): a cheer where the words say the
# news is bad, not where only the feeling read into them does (to a daughter's exam on Saturday, read
# as worry, it was a fair reply)
SOUNDS = r"^\W*(?:that\s+|it\s+)?(?:sounds|seems|looks)\s+"  # how a reply opens on how what they told sounds
_SOUNDS_GOOD = re.compile(SOUNDS + r"(?:like\s+)?(?:a\s+|an\s+)?(?:really\s+|very\s+)?(?:good|great|nice|lovely|"
                          r"wonderful|fun|exciting|brilliant|perfect|amazing|fantastic|awesome|incredible)\b", re.I)


# A turn that speaks of what the one before spoke of: "She was 94.", "It was in the church."
_REFERS_BACK = re.compile(r"^\W*(?:he|she|it|they|his|her|its|their|him|them)\b", re.I)


def goes_on(heard: str) -> bool:
    """Pure. Whether words open by pointing back at what was said before (a pronoun first)."""
    return bool(_REFERS_BACK.match(heard))


def bad_in_words(heard: str) -> bool:
    """Pure. Their words say it is bad: a feeling named, or something that keeps going wrong, wears
    them out or is a death (memory.appraisal.lean)."""
    return told_of_trouble(heard) or lean(heard) < 0


def goes_on_from(heard: str, before: str, says: Callable[[str], bool]) -> bool:
    """Pure. Words that point back (`goes_on`) at `before` (what they said the turn before), of which
    `says` holds: the one way a turn is read with the one before it."""
    return bool(before) and goes_on(heard) and says(before)


def goes_on_with_bad_news(heard: str, before: str) -> bool:
    """Pure. Words that name no feeling of their own and go on with `before`, which said something
    bad: "He loved his garden." after "My granddad passed away on Tuesday." is still the death's,
    however the garden reads alone."""
    return detect_affect(heard) is None and goes_on_from(heard, before, bad_in_words)


def cheers_bad_news(start: str, heard: str, bad_news: Callable[[str], bool] = told_of_trouble,
                    before: str = "") -> bool:
    """Told something bad, a start that cheers it ("That's great to hear!" to "My grandad passed
    away on Tuesday.", heard live). `bad_news(heard)`: whether what they told is bad for them; asked
    only of a cheer, as it may cost an embedding (the reply path's reads the feeling the words
    imply, memory/implied.py). "That sounds like a good plan" is a cheer only where their words say
    it is bad (`bad_in_words`); so is "I'm glad…". Words with no feeling of their own that go on with
    `before` (what they said the turn before) are read with it: "That sounds great!" to "He was 94
    and he loved his garden." after "My granddad passed away on Tuesday." (heard live)."""
    if asks(heard):
        return False
    cheers = bool(_CHEERS.search(start))
    if not (cheers or _SOUNDS_GOOD.search(start) or _GLAD.search(start)):
        return False
    # "That's good to hear." to the same words (live): the reading of their own, a garden loved, is no news
    if bad_in_words(heard) or goes_on_with_bad_news(heard, before):
        return True
    return cheers and bad_news(heard)


def tells_a_death(heard: str, before: str = "") -> bool:
    """Pure. Their words say someone has died, or go on with words that did (memory.appraisal)."""
    return _says_a_death(heard) or goes_on_from(heard, before, _says_a_death)


def _says_a_death(words: str) -> bool:
    return Standing.LOSS in standing(words)


# A hope that someone lives or mends: "…and that your friend is still alive." to "My friend passed
# away on Tuesday." (live, twice). Feeling better is the mourner's to hope for, and is left alone.
_LIVES_ON = re.compile(r"\b(?:still\s+)?alive\b|\brecover(?:s|y|ing|ed)?\b|\bget(?:s|ting)?\s+(?:better|well)\b"
                       r"|\bpull(?:s|ing)?\s+through\b", re.I)


def hopes_for_the_dead(piece: str, heard: str, before: str = "") -> bool:
    """Pure. Told of a death (`tells_a_death`), a piece that hopes or says someone is alive, recovers
    or gets better."""
    return bool(_LIVES_ON.search(piece)) and tells_a_death(heard, before)


def waves_away(start: str, heard: str) -> bool:
    """A trouble told answered with a dismissal. Kept from a reply's first token (unearned_openings),
    one still comes after a lead-in: "You know, it's normal to feel a bit worried" (heard live)."""
    return any(start.lower().startswith(d.lower()) for d in DISMISSALS) and told_of_trouble(heard)


# Words with which a reply takes up a trouble told: a feeling, sympathy, how hard it is, how it sounds.
_SYMPATHY = re.compile(r"\b(?:sorry|scar(?:y|ed|ing)|worr\w*|afraid|hard|tough|difficult|sad\w*|awful|terrible|"
                       r"poor|upset\w*|stress\w*|concern\w*|frustrat\w*|understand\w*|shame|pity|oh no|hope\w*|"
                       r"sounds?|must be|talk about it)\b", re.I)


def ignores_trouble(start: str, heard: str, bad_news: Callable[[str], bool] = told_of_trouble) -> bool:
    """A trouble told answered with neither sympathy nor anything of what they told ("You know,
    it's always good to be prepared for unexpected situations." to a worry about Max's limp; "That's
    a bit strange." to a night the neighbour's dog kept them awake). `bad_news` as for
    cheers_bad_news, asked last."""
    if asks(heard) or _SYMPATHY.search(start) or stems(content_words(start)) & stems(word_set(heard)):
        return False
    return bad_news(heard)


# Advice as the first thing said to a trouble ("You should talk to your mom about it." to a mother in
# hospital with a broken hip, and a worry): people meet a trouble before they mend it.
_ADVICE = re.compile(r"^\W*(?:you\s+(?:should|need\s+to|must|have\s+to|might\s+want\s+to|could\s+try)|"
                     r"try\s+to|make\s+sure|don['’]t\s+worry|it['’]s\s+(?:important|best|a\s+good\s+idea)\s+to)\b", re.I)


def advises_first(start: str, heard: str, bad_news: Callable[[str], bool] = told_of_trouble) -> bool:
    """A trouble told, not asked about, met first with advice and no sympathy. `bad_news` as for
    cheers_bad_news, asked last."""
    return bool(_ADVICE.search(start)) and not _SYMPATHY.search(start) and not asks(heard) and bad_news(heard)
