"""The openings a reply is kept from at its first token (models.llm_local bans them as they would
begin), so that a stock phrase nothing the person said earned costs no second try; and the same
phrases where a later piece says them. Pure: the person's words in, phrases out. How a start that
did get made is judged is assistant/reply/checks.py's.
"""

from __future__ import annotations

import re

from assistant.reply.knowing import NOT_KNOWING_OPENINGS
from assistant.reply.troubles import DISMISSALS, told_of_trouble
from text.questions import asks
from text.words import opens_with_greeting


_THANKED = re.compile(r"\bthank|\bthanks\b|\bcheers\b|\bappreciate", re.I)
_ASKED_TO_AGREE = re.compile(r"\bi (?:think|believe|guess|reckon|suppose|feel like)\b|\bright\?|\bisn't it\b|"
                             r"\bdon't you think\b|\bwouldn't you\b|\bagree\b", re.I)


_DEGREES = ("", "very ", "so ", "quite ", "totally ", "completely ")
_VERDICTS = ("right", "correct", "wrong", "mistaken")  # of an opinion: none was offered


_TO_HEARTH = re.compile(r"\byou\b", re.I)  # said to Hearth, of Hearth: a kindness of theirs may be for it
# What may be called a good idea: a plan, a wish, a suggestion or a question of what to do
_PROPOSED = re.compile(r"\b(?:i(?:'m| am) (?:thinking|going to|planning|hoping)|i (?:think i'll|might|want to|plan|"
                       r"would like|hope to)|i'll|i will|i'd like|we (?:could|should|might|will)|we'll|let's|maybe|"
                       r"perhaps|should i|shall i|what if|how about|plan|idea|going to|thinking of|decided)\b", re.I)


def unearned_openings(heard: str) -> tuple[str, ...]:
    """Stock openings a small model reaches for whatever was said, and that answer something the
    person did not say: "You're welcome" to no thanks (to "I just got back from a walk"), "You're
    right" to no opinion (to "I'm worried, Max is limping"), "I don't know" to no question, "That's
    normal" to a worry. The model is kept from them from its first token (models.llm_local), which
    costs no second try."""
    thanked, asked = _THANKED.search(heard), _ASKED_TO_AGREE.search(heard)
    # praise of the question answers none of it ("That's a good question!", and nothing after it)
    openings: list[str] = ["That's a good question", "That is a good question", "Good question", "Great question",
                           "What a great question"]
    openings += [] if thanked else ["You are welcome", "You are very welcome"]
    # kindness is thanked for what they did for Hearth or offered it: "You are very kind and supportive."
    # to a daughter's first morning at school (live)
    openings += [] if thanked or _TO_HEARTH.search(heard) else [
        "You are very kind", "You are so kind", "That is very kind of you", "That is so kind of you",
        "How kind of you"]
    # heard on replies runs: "You are very right." to a deadline moved, "You are wrong." to a car that
    # passed its MOT; live: "You are very correct." to a late granddad's garden
    openings += [] if asked else [f"You are {degree}{verdict}" for degree in _DEGREES for verdict in _VERDICTS] + [
        "You are absolutely", "That's right", "That is right", "That's correct", "That is correct", "Exactly"]
    # not knowing answers a question only: to "I'm allergic to peanuts" the worked example of not
    # knowing was followed ("I don't know, you haven't told me…"); banned here, it costs no second try
    openings += [] if asks(heard) else list(NOT_KNOWING_OPENINGS)
    openings += list(DISMISSALS) if told_of_trouble(heard) else []
    # an idea praised where none was put forward: "That sounds like a good idea." to a daughter's first
    # morning at school (live)
    openings += [] if _PROPOSED.search(heard) else [
        f"{lead} {quality} {what}" for lead in ("That sounds like a", "That is a") for quality in ("good", "great")
        for what in ("idea", "plan", "choice", "decision")] + ["Good idea", "Great idea"]
    # a greeting answers only a greeting: the demo's second turn, a worry, was first answered "Hi, Dana.",
    # the reply before it said again, and begun again (latency benchmark)
    openings += [] if opens_with_greeting(heard) else ["Hi", "Hello", "Hey"]
    # once it has said "You're" (or "You've") the model goes on with a stock phrase all the same
    # ("You're doing great!", "You've been doing great!", "You're not worried, Max!"): the
    # contractions are kept from it, "You were…" is not
    return tuple(openings + ([] if thanked or asked else ["You're", "You've"]))


_SPELLED_OUT = ((re.compile(r"\b(\w+)'re\b", re.I), r"\1 are"), (re.compile(r"\b(\w+)'ve\b", re.I), r"\1 have"),
                (re.compile(r"\b(\w+)n't\b", re.I), r"\1 not"), (re.compile(r"\bI'm\b", re.I), "I am"))


def _spelled_out(text: str) -> str:
    text = text.replace("\u2019", "'")
    for pattern, full in _SPELLED_OUT:
        text = pattern.sub(full, text)
    return re.sub(r"\s+", " ", text).strip().lower()


def stock_phrase(piece: str, heard: str) -> bool:
    """A later piece that is one of the stock openings nothing they said earned (unearned_openings,
    of two words or more, contractions spelled out): "That's great! You're welcome. Have a nice day!"
    to keys to a new flat, with no thanks (heard live)."""
    said = _spelled_out(piece)
    return any(said.startswith(_spelled_out(o)) for o in unearned_openings(heard) if len(o.split()) > 1)
