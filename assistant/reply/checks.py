"""Whether a reply's start should be begun again before anything of it is voiced: pure checks on
its words, no scenario lists, only grammar.

A start that fails a general check (`assistant.reply.general_checks`: a refusal, the notes' layout),
that says the person's words back, contradicts them, reads a note out in place of a reply, says
it does not know what it was told, opens as nothing they said earned, or speaks as someone of
theirs, is begun again (`bad_start`); the reply path repairs what it can of perspective before a
sentence is voiced (`assistant.reply.perspective`, where the checks that know persons live); how
a reply meets a trouble told is `assistant.reply.troubles`; how it speaks of their feelings,
`assistant.reply.feelings`; what a reply claims to know, or makes up, is `assistant.reply.knowing`;
the stock openings it is kept from at its first token are `assistant.reply.openings`.
"""

from __future__ import annotations

import re
from typing import Callable

from memory.enrolment import enrolment_intent
from memory.lexicon import ASSISTANT_NAMES
from memory.ranking import content_words, repeats, stems, word_forms, word_set, words_in_order
from assistant.reply.feelings import feels_about_another, praises_untold, tells_their_feeling
from assistant.reply.general_checks import has_layout, is_refusal, parrots
from assistant.reply.knowing import blames_them_for_not_telling, denies_what_is_known, not_told
from assistant.reply.names import takes_their_introduction
from assistant.reply.perspective import (disowns, gives_them_anothers, hands_them_anothers_age,
                                         hands_them_anothers_thing, makes_them_theirs, speaks_as_theirs)
from assistant.reply.retold import new_words
from assistant.reply.sentences import lead_in
from assistant.reply.troubles import (SOUNDS, advises_first, cheers_bad_news, ignores_trouble,
                                      told_of_trouble, waves_away)
from text.questions import asks, asks_who

# A first piece that may open a refusal ("I'm sorry, but I can't…") or a kind reply ("I'm sorry to
# hear that"): the next piece decides.
_OPENS_EITHER = re.compile(r"^\W*(?:i'm sorry|i am sorry|sorry|i apologi[sz]e|unfortunately)\W*$", re.I)
# Sympathy cut before what it is for ("I'm sorry to hear", then "that you're feeling nervous about
# driving test." of a thing told before, heard live): the next piece says what it is about
_SORRY_TO_HEAR = re.compile(r"^\W*(?:i'm |i am )?(?:so |very |really )?sorry to hear(?: that| about)?[\s,]*$", re.I)
SAYS_BACK_MIN_WORDS = 3  # fewer content words than this is a short acknowledgement, not a copy
_NARRATES = re.compile(r"\b(?:just said|told you before|you told me before|i told you)\b", re.I)


# "It sounds like …" said before their own words adds nothing of its own to them
_SOUNDS_LIKE = SOUNDS + r"(?:like|as if|as though)\s+"
_FRAME = re.compile(_SOUNDS_LIKE, re.I)


def says_back(piece: str, heard: str) -> bool:
    """Every content word of the piece is the person's: their sentence said back to them ("You've
    just come back from a run in the park" to "I've just come back from a run in the park"), framed
    or not ("It sounds like your wife is having surgery on her heart tomorrow.", heard on the replies
    benchmark)."""
    words = content_words(_FRAME.sub("", piece, count=1))
    return len(words) >= SAYS_BACK_MIN_WORDS and not new_words(words, heard)


OPENING_RUN_WORDS = 3  # of which two carry meaning: "Mr. John Dashwood", not "It is a"


def _words(text: str) -> list[str]:
    """In order, a possessive as its word ("Dashwood's" is "dashwood")."""
    return [w.removesuffix("'s") for w in words_in_order(text)]


def opens_with_their_words(piece: str, heard: str) -> bool:
    """Told something, a reply that opens with a run of their words as they said them ("Mr.
    Quilter is the apostle…" to "Mr. Quilter is the apostle of the middle classes…", "4 queen of
    clothes is a classic British dress." to "4 queen of clothes", on the latency benchmark): it
    says them back however it goes on, so the start is begun again as soon as the run shows (the
    first piece is cut there: reply/sentences.py). OPENING_RUN_WORDS words at least, two of them
    carrying meaning. Asked, an answer in the question's words ("The capital of France is…") is an
    answer."""
    if asks(heard):
        return False
    said, theirs = _words(piece), f" {' '.join(_words(heard))} "
    run = 0
    while run < len(said) and f" {' '.join(said[:run + 1])} " in theirs:
        run += 1
    return run >= OPENING_RUN_WORDS and len(content_words(" ".join(said[:run]))) >= 2


# "You can try to …", "Maybe you should …": advice, whatever it goes on to say
_ADVICE_OPENING = re.compile(r"^\W*(?:maybe\s+|perhaps\s+)?(?:you\s+(?:can|could|should|might|may)(?:\s+(?:try|want)"
                             r")?(?:\s+to)?|try\s+to)\s+", re.I)


def advises_back(piece: str, heard: str) -> bool:
    """Told something, advice made of their own words with no more than one of its own: "You can try
    to schedule your appointment for the next Tuesday." to "My dentist appointment got moved to next
    Tuesday."; "You can try to finish the slides before the conference." to the slides not finished
    (both live). Advice that brings something of its own ("You could ask for an earlier slot") is
    advice. A word is theirs in any ending ("finish", "finished")."""
    opening = _ADVICE_OPENING.match(piece)
    if not opening or asks(heard):
        return False
    words = content_words(piece[opening.end():])
    theirs = stems(word_set(heard))
    return len(words) >= 2 and len({w for w in new_words(words, heard) if w[:4] not in theirs}) <= 1


_YOU_ARE = re.compile(r"^\W*(?:you are|you're|you were|you've been|you have been|you've just|you just)\b"
                      rf"|{_SOUNDS_LIKE}you\b", re.I)
_WHEN_SAID = {"today", "now", "just", "again", "earlier"}  # words that place what they told, and add nothing


def tells_them_back(piece: str, heard: str) -> bool:
    """Told something, "You are …" (or "You were …", "It sounds like you …") with only their own
    words: fewer than says_back needs, but no reply ("You are Dana." to "Hi Hearth, I'm Dana. I just
    got back from a walk", "You are Priya again." to "Hi, it's Priya again", both heard live; "You
    were walking with Max today." to the walk, the demo's; "It sounds like you sold the house" to
    "We sold the house for more than we asked."). A word is theirs in any ending ("walk", "walking").
    Asked "Am I…?", it is the answer."""
    opening = _YOU_ARE.match(piece)
    words = content_words(piece[opening.end():]) if opening else set()
    theirs = stems(word_set(heard))
    new = {w for w in new_words(words, heard) - _WHEN_SAID if w[:4] not in theirs}
    return bool(words) and not new and not asks(heard)


_NEGATION = re.compile(r"\b(?:not|never|no|do(?:es)?n't|didn't)\b|n't\b", re.I)  # "don't love" -> "love"


def negates(piece: str, heard: str) -> bool:
    """The person's own words said back with a "not" they did not say ("You are not allergic to
    peanuts." to "I'm allergic to peanuts."; "I don't have a driving test yet." to "I passed my
    driving test this morning!", heard live): what they just told is contradicted. Every word but
    the "not" is theirs, or of the words that carry meaning two at least are and one at most is not."""
    if not _NEGATION.search(piece) or _NEGATION.search(heard):
        return False
    rest = _NEGATION.sub(" ", piece)
    if len(content_words(piece)) >= 2 and not new_words(word_set(rest), heard):
        return True
    meant = content_words(rest)
    new = new_words(meant, heard)
    return len(meant - new) >= 2 and len(new) <= 1


def recites(piece: str, heard: str, known: str) -> bool:
    """To something the person told rather than asked, a piece made only of what they told before
    (`known`: the notes, their earlier turns), with nothing of what is new in what they just said: a
    note read out in place of a reply ("Your grandad passed away on 24 February." to "I got my
    driving licence this morning!"; "Your daughter started at a new school this week." to "Sam had a
    great week at school, she loves her new teacher")."""
    words = content_words(piece)
    return len(words) >= SAYS_BACK_MIN_WORDS and not asks(heard) and not new_words(words, known)


def answers_another(piece: str, heard: str, known: str) -> bool:
    """To something the person told rather than asked, a piece about another thing they told before
    (two words or more of `known`, the notes and their earlier turns) with nothing of what they just
    said: "I'm sorry to hear that you're feeling nervous about driving test." to "My sister moved to
    Canada last month and I really miss her", heard live, after the test had been told."""
    if asks(heard):
        return False
    words, now = stems(content_words(piece)), stems(word_set(heard))
    return not words & now and len(words & stems(content_words(known))) >= 2


# a feeling and what it is about: "nervous about the guitar", "sorry to hear about your exam"
def undecided_start(piece: str, heard: str = "", known: str = "") -> bool:
    """Whether a reply's first piece cannot be judged alone: an apology that may open a refusal,
    sympathy not yet saying what for ("I'm sorry to hear"), a lead-in of a word or two, or a
    short clause with nothing of its own, only what was just said ("Before that," to "What did I
    do before that?"), which the next piece may turn into a copy that is then left unsaid, the
    clause alone; told something, likewise one with only what they told before (`known`: the
    notes, their earlier turns), which the next piece may turn into a note read out ("You are teaching Mass" to "I quit teaching…", then "at Hillside School."). A
    clause that already says back SAYS_BACK_MIN_WORDS of their words ("You've just come back" to
    "I've just come back from a run") is judged now (bad_start), and so is one that opens with a
    run of their words (opens_with_their_words): waiting for the rest of a sentence read aloud
    cost a whole sentence's generation."""
    if _OPENS_EITHER.match(piece) or _SORRY_TO_HEAR.match(piece):
        return True
    if opens_with_their_words(piece, heard):  # bad_start's, whatever follows
        return False
    words = word_set(piece)
    unended = bool(words) and piece.rstrip()[-1:] not in ".!?…"
    said = content_words(piece)
    if unended and known and said and not asks(heard) and not new_words(said, known):  # as recites judges
        return True
    # a lead-in of a word or two ("You know,", "Yes,") says nothing yet: what follows it may be the
    # person's words back, left unsaid, and "You know," alone voiced (heard live)
    return unended and (lead_in(piece) or not new_words(words, heard) and not says_back(piece, heard))


_GREETS = re.compile(r"^\W*(?:hi|hello|hey|good (?:morning|afternoon|evening)|welcome)\W+(\w+)", re.I)


def greets_itself(start: str, heard: str = "") -> bool:
    """The person's greeting said back to Hearth by its own name ("Hi, hearth!" to "Hi, Hearth, I'm
    Sam.", heard live), or by the name they greeted it with as Whisper heard that ("Hi Harris!" to
    "Hi, Harris, I'm Sam.", heard live): it greets the person, not itself."""
    greeted = _GREETS.match(start)
    if not greeted:
        return False
    name = greeted.group(1).lower()
    addressed = _GREETS.match(heard)
    own = enrolment_intent(heard)
    return name in ASSISTANT_NAMES or bool(addressed and own and addressed.group(1).lower() == name != own.lower())


def said_again(start: str, earlier: list[str]) -> bool:
    """A reply of two words or more said again whole: "You are Dana." to a greeting, then to a worry;
    "Hi, Dana." twice (heard live)."""
    said = words_in_order(start)
    return len(said) >= 2 and any(said == words_in_order(reply) for reply in earlier)


def answers_again(piece: str, heard: str) -> bool:
    """Asked, a piece on what they asked (a word of the question, in any form) that brings what the
    question did not: an answer told before may be told again. "You moved to Leeds" to "Where did I
    say I moved to?", after "I'm glad you moved to Leeds.", was begun again as a copy of that reply
    until only "Leeds" was left (live)."""
    if not asks(heard):
        return False
    mine = content_words(piece)
    return bool(word_forms(mine) & word_forms(content_words(heard))) and bool(new_words(mine, heard))


def copies(piece: str, heard: str, earlier: list[str]) -> bool:
    """A piece that only says back what the person just said, or what an earlier reply said. Asked,
    "…you haven't told me what's happening tomorrow." is no copy of "…you haven't told me your son's
    name yet.": the words of not knowing are the same in every such answer; nor is an answer told
    again (answers_again)."""
    others = () if asks(heard) and (not_told(piece) or answers_again(piece, heard)) else earlier
    return parrots(piece, heard) or any(parrots(piece, reply) for reply in others)


def unsayable(start: str, heard: str, earlier: list[str] = (), known: str = "",
              bad_news: Callable[[str], bool] = told_of_trouble, before: str = "") -> bool:
    """The bad starts that are worse than a plain acknowledgement, so that not even the last try
    (reply/guard.py) voices them: a refusal or the notes' layout; only their words or an earlier
    reply's, or their words with a "not" they did not say; a note read out, another thing they told
    answered, or a feeling set on another thing told before, an earlier reply said again; never
    having been told what was just told, or not having what is theirs, or the name they gave; a
    feeling they did not tell, what another of theirs does told as theirs ("you're coming to visit"),
    they as one of theirs ("You are the new kitten."), what another of theirs has (`before`, `heard`)
    given them ("You are very lucky to have a beautiful garden." to "…he loved his garden", "You are
    very old." to "…he was 94"), or
    praise of how they are doing ("You are doing well," to three night shifts in a row, heard
    live); a cheer of bad news or a trouble waved away; Hearth greeting itself ("Hello, Harris!",
    its name misheard, as the whole of a last try, live).
    The rest of bad_start's are weaker replies than a try could give, not wrong ones."""
    return (is_refusal(start) or has_layout(start) or copies(start, heard, earlier) or negates(start, heard)
            or recites(start, heard, known) or answers_another(start, heard, known)
            or said_again(start, earlier) and not answers_again(start, heard)
            or feels_about_another(start, heard, " ".join([known, *earlier]))
            or not_told(start) and not asks(heard) or disowns(start, heard) or takes_their_introduction(start, heard)
            or tells_their_feeling(start, heard) or gives_them_anothers(start, heard)
            or makes_them_theirs(start, [known, heard])
            or hands_them_anothers_thing(start, [before, heard]) or hands_them_anothers_age(start, [before, heard])
            or praises_untold(start, heard) or cheers_bad_news(start, heard, bad_news, before)
            or waves_away(start, heard)
            or greets_itself(start, heard))


def bad_start(start: str, heard: str, earlier: list[str] = (), known: str = "",
              bad_news: Callable[[str], bool] = told_of_trouble, before: str = "") -> bool:
    """Whether a reply should be begun again before anything of it is voiced: it opens with a
    refusal, with the notes' layout, by narrating what was said ("Dana just said…"), with the
    person's own words back (nothing of its own, or their first words after the subject, whoever
    it is now, or with a "not" they did not say), by reading out a note to something they told
    (`recites`), by saying it does not know what `known` (the notes, what was said before) speaks
    of or when nothing was asked ("I don't know, you haven't told me your speech yet." to "I have
    to give a speech…": the worked example of not knowing, followed where it does not belong), or
    about another thing they told before, with nothing of what they just said, or
    as an earlier reply began, or as the whole of a short one (a small model copies its last answer
    into the next), or, asked about someone of theirs, as that one ("I'm feeling better now." to
    "How is my mum?"), or with praise of how they are doing that they did not tell, or, to a trouble
    told, with neither sympathy nor anything of what they told or with advice before any sympathy,
    or with a feeling they did not tell, or, told bad news (`bad_news`), with a cheer, or by
    greeting Hearth itself, or by saying it has not got what they called theirs, or, asked one
    thing, by saying they never told it another."""
    if unsayable(start, heard, earlier, known, bad_news, before):
        return True
    if _NARRATES.search(start) or greets_itself(start, heard) or says_back(start, heard) \
            or opens_with_their_words(start, heard) \
            or tells_them_back(start, heard) or advises_back(start, heard) \
            or denies_what_is_known(start, heard, known) or blames_them_for_not_telling(start, heard) \
            or asks(heard) and speaks_as_theirs(start, heard) or ignores_trouble(start, heard, bad_news) \
            or advises_first(start, heard, bad_news):
        return True
    said = words_in_order(start)
    if len(said) < 4:
        return False
    # the same words after the subject, whoever it is now ("Omar planted tomatoes in…" for "I planted…");
    # asked who does it, that is the answer ("Sam is helping me…" to "Who is helping me…?", live)
    words = words_in_order(heard)
    if len(words) >= 4 and said[1:4] == words[1:4] and not asks_who(heard):
        return True
    return not answers_again(start, heard) and repeats(start, [word_set(reply) for reply in earlier], share=0.8)
