"""The person's words and the notes told from the other side: their "I" said back as "you", their
name as "you" in a reply or as "I" in their own message, and a reply's slips of perspective
(found by assistant/reply/perspective.py) turned to "you". Pure.
"""

from __future__ import annotations

import re

from memory.noting import PLACEHOLDER_NAMES
from memory.ranking import word_set
from text.questions import done_to_them

from assistant.reply.names import GREETING, name_claims, names_of, own_names
from assistant.reply.doings import MY_THING, their_things
from assistant.reply.perspective import speaks_as_them

# A name's verb after it, turned to "you": the common irregular ones, else the -s dropped.
_YOU_VERB = {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't", "isn't": "aren't",
             "wasn't": "weren't", "hasn't": "haven't", "'s": "'re"}
_NOT_VERBS = {"and", "or", "but", "too", "also", "again", "here", "there", "now", "then"}


_FIRST_TO_SECOND = {"i'm": "you're", "i am": "you are", "i was": "you were", "i've": "you've", "i'd": "you'd",
                    "i'll": "you'll", "i": "you", "my": "your", "me": "you", "mine": "yours", "myself": "yourself",
                    "we're": "you're", "we are": "you are", "we were": "you were", "we've": "you've",
                    "we'd": "you'd", "we'll": "you'll", "we": "you", "our": "your", "us": "you", "ours": "yours",
                    "ourselves": "yourselves"}
# The person's words said back to them: "you've" in a reply is their "I've", "you are" their "I'm"
# (the reverse of _FIRST_TO_SECOND, word by word).
_SECOND_AS_FIRST: dict[str, tuple[str, ...]] = {}
for _first, _second in _FIRST_TO_SECOND.items():
    for _mine, _yours in zip(_first.split(), _second.split()):
        if _mine != _yours:
            _SECOND_AS_FIRST[_yours] = tuple(dict.fromkeys((*_SECOND_AS_FIRST.get(_yours, ()), _mine)))
_CONTRACTED = {"i'm": ("i", "am"), "i've": ("i", "have"), "i'll": ("i", "will"), "i'd": ("i", "would", "had")}


def new_words(words: set[str], heard: str) -> set[str]:
    """Of the piece's words, those the person did not just say, in their voice or turned to "you"."""
    theirs = word_set(heard)
    theirs |= {part for w in theirs for part in _CONTRACTED.get(w, ())}
    return {w for w in words if w not in theirs and not set(_SECOND_AS_FIRST.get(w, ())) & theirs}


def second_person(sentence: str, person: str, things: set[str]) -> str:
    """A sentence about the person by name said to them instead: "Dana's dog" → "your dog",
    "Dana is worried" → "you are worried", "Dana remembers" → "you remember", and "my dog" → "your
    dog" where the dog is theirs. A slip a small model makes often; the words stay its own."""
    out = sentence
    for name in names_of(person):
        out = _name_to(out, name, "you", "your", _YOU_VERB)
    for m in reversed(list(MY_THING.finditer(out))):  # from the end: earlier positions stay put
        if any(w in things for w in m.group(1).lower().split()):
            out = out[:m.start()] + _cased("your", m.group(0)) + out[m.start() + 2:]
    return out


_I_VERB = {"is": "am", "was": "was", "has": "have", "does": "do", "doesn't": "don't", "isn't": "am not",
           "wasn't": "wasn't", "hasn't": "haven't", "'s": "'m"}


def first_person(note: str, person: str) -> str:
    """A note about the person in their own words, as they would say it: "Dana's dog" → "my dog",
    "Dana is worried" → "I am worried". Notes in the person's message read as what they said."""
    return _name_to(note, person, "I", "my", _I_VERB)


def _at_start(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in ".!?:"


def _name_to(text: str, person: str, subject_word: str, possessive_word: str, verbs: dict[str, str]) -> str:
    """The person's name as a subject or possessive turned to another word (a name that addresses
    them stays)."""
    if not person or person.lower() in PLACEHOLDER_NAMES:
        return text

    def cased(word: str, m: re.Match) -> str:
        return word[0].upper() + word[1:] if _at_start(m.string, m.start()) or word == "I" else word

    out = re.sub(rf"\b{re.escape(person)}['’]s\b", lambda m: cased(possessive_word, m), text, flags=re.I)

    def subject(m: re.Match) -> str:
        if GREETING.search(m.string[:m.start()]) or m.group(2).lower() in _NOT_VERBS:
            return m.group(0)
        low = m.group(2).lower()
        verb = verbs.get(low) or (low[:-1] if low.endswith("s") and not low.endswith("ss") else low)
        return cased(subject_word, m) + " " + verb

    return re.sub(rf"\b({re.escape(person)})\s+([A-Za-z']+)", subject, out, flags=re.I)


def repaired(sentence: str, person: str, said: list[str], notes: str = "") -> str:
    """A sentence of a reply with its slips of perspective turned to "you": the person by name,
    their things as Hearth's ("my dog"), and what they did said as Hearth's own ("I live in
    Bristol"), or their name as Hearth's ("My name is Dana"). `said`: what the person said this
    session; `notes`: the memory notes of the prompt. A person known by no name is called by the one
    they gave ("I'm Dana", said or noted)."""
    names = own_names(person, said, notes)
    person = person if person and person.lower() not in PLACEHOLDER_NAMES else min(names, default=person)
    things = their_things([*said, notes], person)
    out = your_name(second_person(sentence, person, things), names)
    # the notes as the person would say them ("Dana went" → "I went"): what they did, in their voice
    if speaks_as_them(out, said + [first_person(notes, person) if person else notes]):
        out = their_words_as_yours(out)
    out = _TOLD_YOURSELF.sub(r"\1 me", done_to_you(out, said[-1] if said else ""))
    return _MID_SENTENCE_YOU.sub(lambda m: m.group(0).lower(), out)


# "…you haven't told you what you have on Friday yet." (live): only Hearth is told
_TOLD_YOURSELF = re.compile(r"\b(you (?:haven't|have not|didn't|did not|never) (?:told|mentioned (?:it )?to|said to))"
                            r"\s+you\b", re.I)


def done_to_you(sentence: str, asked: str) -> str:
    """Asked who does something to them ("Who is helping me practise?"), the answer's "helping me"
    is what is done to them: "Sam is helping you practise." (said "…helping me…", live)."""
    done = done_to_them(asked)
    if done is None:
        return sentence
    verb, their = done
    return re.sub(rf"\b({re.escape(verb)})\s+{their}\b", lambda w: f"{w.group(1)} {'you' if their == 'me' else 'your'}",
                  sentence, flags=re.I)


# "You" capitalised after a word that ends no sentence: copied from a note's cause, written after a
# colon ("…about Oliver: Your son Oliver starts…" became "…because Your son Oliver starts…", live)
_MID_SENTENCE_YOU = re.compile(r"(?<=[a-z,;] )You(?:r|rs|rself)?\b")


_YOUR_NAME = {"my name is": "your name is", "i'm": "you're", "i am": "you are", "i am called": "you are called"}


def your_name(sentence: str, names: set[str]) -> str:
    """The person's name said as theirs where the sentence gave it as Hearth's: "My name is Dana." →
    "Your name is Dana."."""
    def turn(m: re.Match) -> str:
        turned = _YOUR_NAME[" ".join(m.group(1).lower().replace("’", "'").split())]
        return (turned.capitalize() if _at_start(m.string, m.start()) else turned) + m.group(0)[len(m.group(1)):]

    for claim in name_claims(names):
        sentence = claim.sub(turn, sentence)
    return sentence


_FIRST_PERSON = re.compile(r"\b(?:i'm|i am|i was|i've|i'd|i'll|i|my|me|mine|myself|we're|we are|we were|we've|we'd|"
                           r"we'll|we|our|us|ours|ourselves)\b", re.I)


def their_words_as_yours(text: str) -> str:
    """Words in the person's voice said to them: "I have to give a speech" → "you have to give a
    speech" (a reply that told what they did as Hearth's own doing)."""
    def turn(m: re.Match) -> str:
        said = m.group(0)
        new = _FIRST_TO_SECOND[said.lower()]
        return new.capitalize() if _at_start(m.string, m.start()) else new

    return _FIRST_PERSON.sub(turn, text)


def _cased(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word
