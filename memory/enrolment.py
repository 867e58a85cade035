"""Enrolment by voice, as pure functions: "my name is Priya" → "Shall I remember your voice as Priya?" → "yes".

No I/O: the turn loop drives the dialog and SpeakerBook.claim() does the writing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .extract import ordinary_word

# -- voice enrolment: pure ---------------------------------------------------------------------

_NOT_NAMES = {
    "a", "an", "the", "not", "so", "very", "really", "just", "here", "there", "back", "home", "fine", "good", "ok",
    "okay", "sorry", "sure", "done", "ready", "tired", "busy", "happy", "sad", "hungry", "going", "trying", "doing",
    "getting", "looking", "feeling", "thinking", "still", "also", "too", "new", "it", "that", "this", "what", "who",
    "hearth", "great", "nice", "cool", "weird", "bad", "awesome", "amazing", "interesting", "me", "you", "him", "her",
    "them", "us", "your", "my", "his", "our", "their", "yes", "no", "yeah", "nope", "hello", "hi", "hey", "thanks",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march",
    "april", "may", "june", "july", "august", "september", "october", "november", "december", "today", "tomorrow",
    "yesterday", "english", "american", "british", "afraid", "glad", "excited", "worried", "sick", "late", "early",
    "alone", "almost", "about", "actually", "pretty", "quite", "kind", "sort", "all", "in", "on", "at", "off", "out",
    "up", "down", "from", "with", "for", "of", "to", "and", "or", "but", "because", "if", "when", "how", "why",
    "where", "gonna", "going", "called", "named", "being", "having", "probably", "definitely", "only", "one",
    "someone", "somebody", "nobody", "anybody", "everyone", "exhausted", "confused", "stuck", "lost", "later",
    "soon", "sometime", "maybe", "anytime", "whenever", "crazy", "old-fashioned", "lazy", "names", "name", "like",
    "uh", "um", "er", "erm", "well", "actually", "afraid", "calling", "speaking", "sorry", "unknown", "nothing",
    "anything", "everything", "something", "mister", "miss",
}
_STOP_AFTER = {"and", "but", "from", "here", "by", "by the way", "nice", "i", "i'm", "please", "again", "now",
               "speaking", "calling", "the", "with", "at", "in", "of", "to", "who", "what", "it's", "its",
               "remember", "so", "too", "then", "thanks", "thank"}
_WORD = r"[A-Za-z][A-Za-z'\-]*"
_NAME = rf"({_WORD}(?:\s+{_WORD}){{0,2}})"
_FILL = r"[,\s]+(?:(?:uh|um|er|erm|actually|well)[,\s]+)*"
_LEAD = r"(?:^|[.,!?;]\s*|\b(?:hi|hello|hey|oh|well|yes|yeah|no|so|and)\b[,!.]?\s+)"
# (pattern, needs a capital letter, needs the name to end the clause)
_MY_NAME_IS = (re.compile(rf"\bmy name(?:'s| is){_FILL}{_NAME}", re.I), False, False)
_THE_NAME_IS = (re.compile(rf"\bthe name(?:'s| is){_FILL}{_NAME}", re.I), False, True)
_CALL_ME = (re.compile(rf"\bcall me{_FILL}{_NAME}", re.I), False, True)
_I_AM = (re.compile(rf"(?i:{_LEAD})(?i:i)(?:'m| am){_FILL}{_NAME}"), True, True)
_THIS_IS = (re.compile(rf"(?i:{_LEAD})(?i:this is|it's|it is){_FILL}{_NAME}"), True, True)
_PATTERNS = [_MY_NAME_IS, _THE_NAME_IS, _CALL_ME, _I_AM, _THIS_IS]
_CLAUSE_END = re.compile(r"^(?:$|[.,!?;:]|(?:and|here|from|speaking|again|please|by the way|nice to|"
                         r"by the way)\b)", re.I)


def _name_at(match: re.Match, full: str, capital: bool, ends: bool) -> str | None:
    kept: list[str] = []
    for w in match.group(1).split():
        low = w.lower()
        if low in _STOP_AFTER or low in _NOT_NAMES or (capital and not w[0].isupper()):
            break
        if not w[0].isupper() and ordinary_word(w):
            # Whisper writes a name with its capital: "my name is period" was "Priya" misheard (live)
            break
        kept.append(w)
    if not kept or len(kept[0]) < 2:
        return None
    text = " ".join(kept)
    if ends and not _CLAUSE_END.match(full[match.start(1) + len(text):].strip()):
        return None  # "I'm Going Home", "call me Later today"
    return " ".join(w if any(c.isupper() for c in w) else w.capitalize() for w in kept)


def enrolment_intent(text: str) -> str | None:
    """The name someone gives for themselves ("my name is Priya", "I'm Priya", "call me Priya",
    "this is Priya"), title-cased, or None. Ambiguous phrases ("I'm tired", "this is great") are None."""
    return _name_given(text, _PATTERNS)


# The person Hearth already hears every day gives their name as "my name is Dana", "call me Dana" or,
# greeting, "Hi, I'm Dana"; a bare "I'm Canadian" or "it's Max" (their dog) names no one new.
_OWN_NAME_PATTERNS = [
    _MY_NAME_IS, _THE_NAME_IS, _CALL_ME,
    # (Hearth greeted by any word: its name is often misheard, "Hi Har, I'm Priya", live)
    (re.compile(rf"\b(?i:hi|hello|hey)\b(?:[,!.]?\s+(?:(?i:hearth|there)|[A-Z][\w'’-]*))?[,!.]?\s+(?i:i)(?:'m| am)"
                rf"{_FILL}{_NAME}"), True, True),
]


def own_name_given(text: str) -> str | None:
    """The name the speaker says is theirs ("my name is Dana", "Hi, I'm Dana", "call me Dana"), or
    None; stricter than enrolment_intent, whose answer a stranger confirms."""
    return _name_given(text, _OWN_NAME_PATTERNS)


def words_given_as_name(text: str) -> set[str]:
    """The first word after "my name is" or "call me" as heard, whether or not it reads as a name
    ("my name is period", "Priya" misheard): the word is still the one they gave for themselves."""
    full = " ".join(text.replace("\u2019", "'").split())
    return {m.group(1).split()[0] for pattern, _, _ in (_MY_NAME_IS, _CALL_ME) for m in pattern.finditer(full)}


def _name_given(text: str, patterns: list) -> str | None:
    if not text or not text.strip():
        return None
    full = " ".join(text.replace("\u2019", "'").split())
    for pattern, capital, ends in patterns:
        for m in pattern.finditer(full):
            name = _name_at(m, full, capital, ends)
            if name:
                return name
    return None


# What a stranger is told when they ask what only their own memories could answer.
NOT_MET = "I don't think we've met, so I don't know that. If you tell me your name, I can remember your voice."

_YES = re.compile(r"^(?:yes|yeah|yep|yup|sure|ok|okay|please|please do|go ahead|correct|right|that's right|"
                  r"that is right|absolutely|of course|definitely|do it|remember it|yes please|sounds good)\b", re.I)
_NO = re.compile(r"^(?:no|nope|nah|don't|do not|no thanks|no thank you|never mind|nevermind|not now|cancel|stop|"
                 r"forget it|wrong|that's wrong|that's not right|not really)\b", re.I)


def _lead(text: str) -> str:
    t = re.sub(r"^[^A-Za-z]+", "", " ".join(text.split())).lower()
    return re.sub(r"^(?:uh|um|er|oh|well|hmm)[,.!]?\s+", "", t)


def is_yes(text: str) -> bool:
    return bool(_YES.match(_lead(text))) and not is_no(text)


def is_no(text: str) -> bool:
    return bool(_NO.match(_lead(text)))


@dataclass(frozen=True)
class DialogStep:
    """What the dialog made of one utterance.

    handled: the dialog answered it (speak `say`, do not send the turn to the language model);
    enrol: on a confirmed "yes", the name to give this voice (call SpeakerBook.claim).
    """
    handled: bool = False
    say: str | None = None
    enrol: str | None = None


IGNORED = DialogStep()


class EnrolmentDialog:
    """Unknown speaker says their name -> "Shall I remember your voice as Priya?" -> yes / no.

    Drive it with every transcribed turn: `step(text, known, name_taken)`. `known` is whether the
    voice was recognised as a named person (a provisional person counts as unknown). `name_taken`
    tells whether the name already belongs to somebody else. The question is asked once; an
    unrelated answer drops it and the turn goes on to the language model as usual.
    """

    IDLE, CONFIRMING = "idle", "confirming"

    def __init__(self) -> None:
        self.state = self.IDLE
        self.pending: str | None = None

    def reset(self) -> None:
        self.state, self.pending = self.IDLE, None

    def step(self, text: str, known: bool, name_taken: Callable[[str], bool] = lambda name: False) -> DialogStep:
        if self.state == self.CONFIRMING:
            name = self.pending
            corrected = enrolment_intent(text)
            if corrected and corrected != name:
                return self._ask(corrected, name_taken)
            if is_no(text):
                self.reset()
                return DialogStep(True, "All right, I won't remember your voice.")
            if is_yes(text) or corrected == name:
                self.reset()
                return DialogStep(True, f"Nice to meet you, {name}. I'll remember your voice.", enrol=name)
            self.reset()
            return IGNORED
        if known:
            return IGNORED
        name = enrolment_intent(text)
        if name is None:
            return IGNORED
        return self._ask(name, name_taken)

    def _ask(self, name: str, name_taken: Callable[[str], bool]) -> DialogStep:
        if name_taken(name):
            self.reset()
            return DialogStep(True, f"I already know someone called {name}, and your voice doesn't sound like "
                                    f"theirs. If it is you, they can merge the two with `hearth people merge`.")
        self.state, self.pending = self.CONFIRMING, name
        return DialogStep(True, f"Shall I remember your voice as {name}?")
