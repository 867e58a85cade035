"""Who does and has what in the person's own words: the things they call theirs ("my dog Max"), what
they say they did ("I planted…"), and what another of theirs does ("my sister just moved…").

Pure readings of what a person said, and the patterns that read a reply the same way. The checks that
compare a reply with them are `assistant.reply.perspective`'s.
"""

from __future__ import annotations

import re

from memory.ranking import content_words
from text.phrases import past_tense, readings
from text.words import TIME_WORDS

# Nouns a person calls theirs in what they say ("my dog", "my sister's wedding").
MY_THING = re.compile(r"\bmy\s+((?:[a-z]+\s+)?[a-z]+)", re.I)
_STOP_AFTER_MY = {"own", "best", "first", "last", "new", "old", "little", "big", "dear", "whole", "other",
                  "favourite", "favorite", "mind", "god", "goodness", "name"}


def their_things(said: list[str], person: str = "") -> set[str]:
    """The words the person has called theirs ("my dog Max" → "dog", "max"), from what they said,
    and, given their name, what notes about them call theirs ("Dana's dog")."""
    things = {w for text in said for m in MY_THING.finditer(text) for w in m.group(1).lower().split()}
    if person:
        owned = re.compile(rf"\b{re.escape(person)}['’]s\s+((?:[a-z]+\s+)?[a-z]+)", re.I)
        things |= {w for text in said for m in owned.finditer(text) for w in m.group(1).lower().split()}
    return things - _STOP_AFTER_MY


# What Hearth may say of itself in anyone's words: "I hope Max feels better", "I'm sorry to hear"
HEARTHS_STATES = {"hope", "think", "know", "remember", "believe", "see", "hear", "understand", "love", "like",
                  "guess", "bet", "wish", "mean", "wonder", "recall", "sorry", "glad", "happy", "afraid", "sure"}
# The words an "I" takes before the verb that says what it did: "I just", "I can't", "I have"
_AUXILIARIES = {"just", "really", "also", "not", "so", "do", "don't", "have", "had", "am", "was", "can", "can't",
                "could", "would", "will", "won't", "must", "should"}
# "I <verb>" that is Hearth's own: what it knows, feels or can do, not what the person did ("I got your note")
OWN_VERBS = HEARTHS_STATES | _AUXILIARIES | {"didn't", "here", "may", "might", "'m", "'ve", "'d", "'ll", "got",
                                              "noted"}
I_CLAUSE = re.compile(r"\bI(?:'m|'ve|'d| am| was| have| had)?\s+(?:been\s+|really\s+|just\s+|also\s+|to\s+)?"
                      r"([a-z']+)", re.I)


# "We painted the kitchen": what they did together with someone, said as Hearth's own doing too
WE_CLAUSE = re.compile(r"\bwe(?:['’]re|['’]ve|['’]d| are| were| have| had)?\s+(?:been\s+|really\s+|just\s+|also\s+|"
                       r"finally\s+|to\s+)?([a-z']+)", re.I)
# "I will have to stop training", "I can't drive yet": the verb a modal is said with
I_MODAL = re.compile(r"\bI(?:['’]ll| will| would| can| could| should| must| might|['’]d)(?:n['’]t| not)?\s+"
                     r"(?:have\s+to\s+|be\s+able\s+to\s+|need\s+to\s+)?([a-z']+)", re.I)


# "I just got back from a long walk": their own words about themselves, said back as Hearth's, whatever
# the verb ("got" is Hearth's too: "I got your note"); "I" and the three words after it
_I_RUN = re.compile(r"\bI(?:'m|'ve|'d|'ll)?(?:[\s,]+[a-z']+){3}", re.I)
_BEFORE_VERB = _AUXILIARIES | {"been", "did", "didn't", "still"}  # passed over to find a run's verb


def done_by_them(said: list[str]) -> set[str]:
    """What the person says they do or did themselves, by the first four letters of its verb
    ("I planted…", "I will have to stop…")."""
    return {m.group(1).lower()[:4] for text in said for pattern in (I_CLAUSE, I_MODAL)
            for m in pattern.finditer(text)}


def i_runs(text: str) -> dict[tuple[str, ...], str]:
    """Each "I" and its three words, where they tell of more than Hearth's own state of mind, by
    their lower-cased words."""
    runs = {}
    for m in _I_RUN.finditer(text):
        words = tuple(re.findall(r"[a-z']+", m.group(0).lower()))
        verb = next((w for w in words[1:] if w not in _BEFORE_VERB), "")
        forms = {verb, verb.removesuffix("ing"), verb.removesuffix("s"), verb.removesuffix("d")}
        if not forms & HEARTHS_STATES and content_words(" ".join(words[1:])) - OWN_VERBS:
            runs[words] = m.group(0)
    return runs


# "I've had a great walk with Max", "I took Max to the vet": an "I" that did something with someone or


_PASSED_OVER = {"just", "really", "also", "finally", "still", "now", "only", "already"}
_NOT_DONE = {"is", "was", "has", "does", "says"}  # a verb that says what is, not what they did


def done_plainly(heard: str) -> list[str]:
    """The verb said right after another of theirs, with no "is" or "has" before it: "started" of
    "my daughter Sam just started school" (told "you're starting school", live)."""
    verbs = []
    for m in SOMEONE.finditer(heard):
        words = re.findall(r"[A-Za-z']+", heard[m.end():])[:4]
        if words and words[0][:1].isupper():  # the one named: "my daughter Sam"
            words = words[1:]
        verb = next((w.lower() for w in words if w.lower() not in _PASSED_OVER), "")
        if past_tense(verb) or verb.endswith("s") and "VERB" in readings(verb) and verb not in _NOT_DONE:
            verbs.append(verb)
    return verbs


def pairs_after(subject: re.Pattern, text: str) -> set[tuple[str, str]]:
    """A verb and the content word after it, in the few words after each `subject` in the text: what
    it is said to do ("come home" of "she can come home next week"); not times."""
    pairs = set()
    for m in subject.finditer(text):
        words = re.findall(r"[a-z']+", text[m.end():].lower())[:5]
        pairs |= {(a, b) for a, b in zip(words, words[1:])
                  if {a, b} <= content_words(f"{a} {b}") and not {a, b} & TIME_WORDS and "VERB" in readings(a)}
    return pairs


SOMEONE = re.compile(r"\b(?:[Mm]y|[Oo]ur)\s+[a-z]+\b|\b(?:[Ss]he|[Hh]e)\b")  # someone of theirs who does it


def doing(m: re.Match) -> str:
    """The verb a match found, past a "going to": "visit" of "going to visit"."""
    verb, then = m.group("verb").lower(), m.group("then")
    return then.lower() if verb == "going" and then else verb


DOES = r"\s+(?:just\s+|also\s+|still\s+|be\s+)?(?P<verb>[a-z']+)(?:\s+to\s+(?P<then>[a-z']+))?"
I_DOES = re.compile(r"\bI(?:['’]m| am| was| will|['’]ll| have been|['’]ve been)?" + DOES, re.I)
ONE_DOES = re.compile(r"\b(?:is|are|was|were|will|has been|have been)" + DOES, re.I)
