"""Which feeling a good or bad turn implies, from how the situation stands for the speaker.

Appraisal theory: the same bad news is worry while its outcome is still to come or unknown,
frustration where something keeps going wrong or someone will not put it right, tiredness where it
is effort and lost sleep, and sadness where it is a loss that has happened; good news is relief where
a feared harm did not come, excitement where the good thing is still to come, and happiness
otherwise. memory/implied.py hears whether a turn is good or bad news (the text embedder against
described situations, which follows the topic more than how it stands); the words below say how it
stands. Pure functions.
"""

from __future__ import annotations

import re
from enum import Enum

_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"


class Standing(Enum):
    """How the situation a turn tells of stands for the speaker."""
    AVERTED = "averted"        # a harm feared did not come ("the scan came back clear", "after all")
    DRAINING = "draining"      # effort without rest ("up since four", "a double shift")
    REPEATED = "repeated"      # it keeps going wrong, or someone will not put it right ("again", "still
                               # hasn't"): what others do; "I keep thinking about him" is no cue
    PENDING = "pending"        # still to come, or not yet known ("tomorrow", "might", "waiting for")
    LOSS = "loss"              # someone has died ("passed away", "the funeral"): sadness, whatever else


_CUES: tuple[tuple[Standing, re.Pattern], ...] = tuple((standing, re.compile(pattern, re.I)) for standing, pattern in (
    (Standing.AVERTED, r"\b(after all(?=\s*[.,;!?]|$)|turned out (to be )?(fine|ok|okay|nothing|harmless|benign)|"
                       r"nothing (serious|wrong)|not serious|all clear|came back (clear|normal|negative|fine)|"
                       r"benign|harmless|safe(ly)?|alive|unharmed|in time|won'?t have to|no longer (need|have)|"
                       r"went well|got away with|(?:can|could|will|may) (?:come|go) (?:back )?home|(?:is|are|was|were) "
                       r"(?:allowed|let|sent) home|discharged|(?:back )?home from (?:the )?hospital)\b"),
    (Standing.DRAINING, r"\b(sleep|slept|sleepless|awake|up (since|all night|at \w+|every)|(night|double|long|late) "
                        r"shifts?|late nights?|all night|eyes open|no energy|on my feet|done in|\w+ hours (of|a|every|"
                        r"straight)|hours? of sleep|all day|non-?stop|without a break)\b"),
    (Standing.REPEATED, r"\b(again|still (hasn'?t|haven'?t|isn'?t|won'?t|can'?t|doesn'?t|not|no)|keeps|for the "
                        r"(second|third|fourth|fifth|\w+th) time|\w+ times (today|this week|this month|now)|"
                        r"(week|day|month|year)s? running|in a row|won'?t|refuses?|refused|nobody will|no one will|"
                        r"can'?t (come|fix|get) (until|before)|never (turns?|shows?|came|answers?|fix))\b"),
    (Standing.PENDING, r"\b(tomorrow|tonight|next (week|month|year|weekend|" + _WEEKDAY + r")|this (weekend|evening)|"
                       r"soon|any day|due (any|next|in|on|this)|in \w+ (days|weeks)|\w+ more (days|sleeps|weeks)|"
                       r"(days|weeks|months|sleeps) away|"
                       r"counting the days|might|may|in case|waiting (for|on)|results?|rumou?r|not sure|"
                       r"don'?t know (how|if|whether|what)|hasn'?t (answered|called|come|been seen|replied)|"
                       r"(is|are|has been|have been) in (hospital|intensive care)|about to|appointment)\b"),
    (Standing.LOSS, r"\b(?<!nearly )(?<!almost )(died|passed away|funeral|buried|burial|memorial(?! day)|"
                    r"cremat(ed|ion)|bereave(d|ment)|(be|been|was|were) put (down|to sleep)|put (him|her) (down|"
                    r"to sleep))\b"),
))

GOOD = ("happy", "excited", "relieved")  # the rest of memory/implied.py's kinds are bad news


def standing(text: str, ahead: bool = False) -> list[Standing]:
    """Pure. The ways the words say the situation stands, in the order of _CUES. `ahead`: a date
    they name is still to come ("my first gig on Friday night", memory/dates.py), so it is PENDING
    whatever the words."""
    return [s for s, pattern in _CUES if pattern.search(text) or s is Standing.PENDING and ahead]


def lean(text: str, cues: list[Standing] | None = None) -> int:
    """Pure. Which way the words say it went, whatever it was about: +1 where a feared harm was
    averted, -1 where it keeps going wrong, wears the speaker out or someone has died, 0 where they do
    not say (what is still to come may be hoped for or feared). `cues`: standing(text), where already
    read."""
    cues = standing(text) if cues is None else cues
    if Standing.AVERTED in cues:
        return 1
    return -1 if {Standing.DRAINING, Standing.REPEATED, Standing.LOSS} & set(cues) else 0


def appraised(label: str, text: str, cues: list[Standing] | None = None) -> str:
    """Pure. The feeling a turn implies, given the one the described situations suggest (`label`,
    a kind of memory/implied.py) and how the words say the situation stands: a feared harm averted is relief
    whatever the topic suggested; otherwise the valence stays and the standing picks the feeling
    within it. Without any cue the feeling is taken as it was heard. `cues`: standing(text), where
    already read."""
    cues = standing(text) if cues is None else cues
    if Standing.AVERTED in cues:
        return "relieved"
    if Standing.LOSS in cues:  # before the rest: "died in his sleep" is no lost sleep
        return "sad"
    if label in GOOD:  # excitement looks forward: a good thing that has come is happiness
        return "excited" if Standing.PENDING in cues else "happy" if label == "excited" else label
    for cue, feeling in ((Standing.DRAINING, "tired"), (Standing.REPEATED, "frustrated"),
                         (Standing.PENDING, "worried")):
        if cue in cues:
            return feeling
    return label
