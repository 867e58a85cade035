"""Who is who in a reply: the person is "you", Hearth is "I", and what is theirs stays theirs.

The grammar of perspective, as pure functions on words: where a reply talks about the person by
name ("Dana remembers", "Dana's dog"), claims their things ("my dog is Max" when the dog is
theirs) or tells what they did as Hearth's own ("I live in Bristol"). The repair of those slips
before a sentence is voiced is assistant/reply/retold.py's (`repaired`). `assistant.reply.general_checks` and
`assistant.reply.checks` hold the checks a reply is judged by; this module is the part of them that
knows persons. Who does and has what in the person's words is read in `assistant.reply.doings`, whose
name is whose in `assistant.reply.names`.
"""

from __future__ import annotations

import re

from assistant.reply.names import claims_their_name, names_itself, their_name_for_another, third_person_slips
from memory.enrolment import enrolment_intent
from memory.extract import named_relations
from memory.lexicon import KIND_WORDS
from assistant.reply.doings import (DOES, HEARTHS_STATES, I_CLAUSE, I_DOES, I_MODAL, MY_THING, ONE_DOES, OWN_VERBS,
                                    SOMEONE, WE_CLAUSE, doing, done_by_them, done_plainly, i_runs, pairs_after,
                                    their_things)
from memory.ranking import content_words
from text.phrases import past_tense
from text.questions import asks, asks_who, who_does


def claims_their_things(reply: str, things: set[str]) -> list[str]:
    """"my dog" in a reply when the dog is the person's: Hearth has no dog."""
    found = []
    for m in MY_THING.finditer(reply):
        words = m.group(1).lower().split()
        if any(w in things for w in words):
            found.append(m.group())
    return found


_SELF_QUESTION = re.compile(r"\b(?:am|do|did|was|have|had|will|should|can)\s+i\b[^?]*\?|\bmy\b[^?]*\?", re.I)
_I_WAS = re.compile(r"\bI(?:'m| am| was)\s+([a-z']+)", re.I)

# something of the person's, in the past (Hearth has no walks; "I hope Max…", "I noted…" are its own)
_I_DID = re.compile(r"\bI(?:['’]ve| have| had|['’]d)?\s+(?:just\s+|also\s+|really\s+|finally\s+)?"
                    r"(had|went|took|got|saw|met|made|ran|gave|brought|[a-z]+ed)\b([^.,;:!?]*)", re.I)


def did_with_theirs(reply: str, said: list[str]) -> list[str]:
    """What the reply says Hearth did with one of the person's own ("my dog Max" → Max), as if it
    had been there: the person's experience, told as Hearth's."""
    things = their_things(said)
    found = []
    for m in _I_DID.finditer(reply):
        verb = m.group(1).lower()
        # ("had" and "got" are Hearth's as auxiliaries, "I had to", "I got your note"; here they are what was done)
        if verb in OWN_VERBS - {"had", "got"} or {verb.removesuffix("ed"), verb.removesuffix("d")} & HEARTHS_STATES:
            continue
        words = re.findall(r"[a-z']+", m.group(2).lower())
        # (named as "your dog", the thing is given to the person: "I got a note about your dog")
        if any(w in things and (i == 0 or words[i - 1] != "your") for i, w in enumerate(words)):
            found.append(m.group(0).strip())
    return found


def speaks_as_them(reply: str, said: list[str]) -> list[str]:
    """"I live in Bristol" answering "Which city do I live in?": the reply claims, as Hearth's own,
    something the person said of themselves ("live", "training", "planted" ~ "plant")."""
    theirs = done_by_them(said)
    theirs |= {w[:4] for text in said for w in re.findall(r"\b(?:am|do|did|have|was) i\s+([a-z']+)", text.lower())}
    theirs |= {w[:4] for text in said for w in re.findall(r"\bdid i\s+\w+\s+([a-z']+)", text.lower())}
    ours = {m.group(1).lower()[:4] for text in said for m in WE_CLAUSE.finditer(text)}
    ours |= {w[:4] for text in said for w in re.findall(r"\b(?:did|do|have|were) we\s+([a-z']+)", text.lower())}
    asked_of_them = any(_SELF_QUESTION.search(text) for text in said)
    found = []
    for m in (*I_CLAUSE.finditer(reply), *I_MODAL.finditer(reply)):
        verb = m.group(1).lower()
        if verb not in OWN_VERBS and len(verb) > 2 and verb[:4] in theirs:
            found.append(m.group(0))
    for m in WE_CLAUSE.finditer(reply):
        verb = m.group(1).lower()
        if verb not in OWN_VERBS and len(verb) > 2 and verb[:4] in ours:
            found.append(m.group(0))
    theirs_word_for_word = {run for text in said for run in i_runs(text)}
    found += [text for run, text in i_runs(reply).items() if run in theirs_word_for_word and text not in found]
    if asked_of_them:  # "What did I do before that?" → "I was at the library": where they were, not Hearth
        found += [m.group(0) for m in _I_WAS.finditer(reply) if m.group(1).lower() not in OWN_VERBS]
    found += [text for text in did_with_theirs(reply, said) if text not in found]
    # "I have an appointment on 10 December" to "What is happening on Thursday?", their note read as
    # "I have an empty appointment on Thursday…" (live): a thing they have, claimed as Hearth's
    had = {w for text in said for m in _I_HAVE.finditer(text) for w in content_words(m.group(1))}
    found += [m.group(0) for m in _I_HAVE.finditer(reply)
              if content_words(m.group(1)) & had and m.group(0) not in found]
    return found


_I_HAVE = re.compile(r"\bI(?: have|['’]ve)(?: got)?\s+(?:an?|the|some|my|two|three)\s+((?:[a-z'-]+\s+){0,2}[a-z'-]+)",
                     re.I)


# "you're coming to visit": what the reply says the person does
_YOU_DO = re.compile(r"\byou(?:['’]re| are| were| have| had|['’]ve| will| will be|['’]ll|['’]ll be)?\s+"
                     r"(?:been\s+|really\s+|just\s+|also\s+|finally\s+|still\s+)?([a-z']+)", re.I)
# someone else of theirs who does something: "my sister", a name past the first word, she or he
_ANOTHER = re.compile(r"\b(?:[Mm]y\s+[a-z]+|she|he|[Ss]he['’]s|[Hh]e['’]s)\b|(?<=\w )[A-Z][a-z]+")
# what is done: the verb after "is", "was", "has"…, "she is coming", "he has started"
_DONE = re.compile(r"\b(?:is|are|was|were|has|had|have|will|been|['’]s|['’]re)\s+(?:just\s+|really\s+|also\s+|"
                   r"finally\s+|still\s+|now\s+)?([a-z']+)")
_TOGETHER = re.compile(r"\b(?:we|us|our|and\s+I|and\s+me|me\s+and|with\s+me)\b", re.I)


def gives_them_anothers(reply: str, heard: str) -> list[str]:
    """What another of theirs does, told them as their own doing: "I'm glad you're coming to visit."
    to "My sister is coming to visit on Saturday." (live). A verb they said, not of themselves (no "I"
    does it) and done by someone else they told of, and nothing they do with them."""
    own_name = enrolment_intent(heard)  # "Hi, I'm Omar": no one else
    if not any(m.group(0) != own_name for m in _ANOTHER.finditer(heard)) or _TOGETHER.search(heard) or asks(heard):
        return []
    theirs = done_by_them([heard])
    said = {w[:4] for w in _DONE.findall(heard.lower()) + done_plainly(heard) if len(w) > 3}
    found = [m.group(0) for m in _YOU_DO.finditer(reply)
             if len(m.group(1)) > 3 and m.group(1).lower() not in OWN_VERBS
             and m.group(1).lower()[:4] in said - theirs]
    # or two words of what they do, after a word of its own: "You are free to come home next week." to
    # "The doctors say she can come home next week." (live)
    done = pairs_after(SOMEONE, heard) - pairs_after(I_CLAUSE, heard)
    return found + [m.group(0) for m in _YOU_DO.finditer(reply)
                    if m.group(0) not in found and pairs_after(_YOU_DO, m.group(0) + reply[m.end():]) & done]


def claims_anothers(reply: str, said: list[str]) -> list[str]:
    """What another of theirs did, claimed as Hearth's own doing: "I moved to Lisbon a few years
    ago." to "Hi, I'm Sam, my sister Nora just moved to Lisbon." (live; Whisper wrote "nor"). A verb
    in the past said within a few words after someone of theirs ("my sister", "she"), and not of
    the person themselves. `said`: what the person said."""
    theirs = done_by_them(said)
    others = {w[:4] for text in said for m in SOMEONE.finditer(text)
              for w in re.findall(r"[a-z']+", text[m.end():].lower())[:4] if len(w) > 3 and past_tense(w)}
    return [m.group(0).strip() for m in _I_DID.finditer(reply)
            if m.group(1).lower() not in OWN_VERBS and m.group(1).lower()[:4] in others - theirs]


_YOUR_ONE_DOES = re.compile(r"\b[Yy]our\s+[a-z]+\s+(?:is|was|will|has been|['’]s)" + DOES)


def gives_another_theirs(reply: str, said: list[str]) -> list[str]:
    """What the person does, told as the doing of another of theirs: "Your grandmother is going to
    visit…" where they said "I am going to visit her" (live). A verb of theirs ("going to visit":
    the visit) that no one else was said to do. `said`: what they said, and the notes in their words
    (retold.first_person)."""
    theirs = {doing(m)[:4] for text in said for m in I_DOES.finditer(text)}
    others = {doing(m)[:4] for text in said for m in ONE_DOES.finditer(text)}
    return [m.group(0) for m in _YOUR_ONE_DOES.finditer(reply)
            if len(doing(m)) > 3 and doing(m).lower() not in OWN_VERBS and doing(m)[:4] in theirs - others]


_YOU_ARE_THEIRS = re.compile(r"\byou(?:['’]re| are)\s+(?:now\s+|still\s+)?(?:the|your|my)\s+(?:new\s+|little\s+)?"
                             r"([a-z]+)\b(?![’'-])", re.I)
_I_AM_ONE = re.compile(r"\bi(?:['’]m| am)\s+(?:now\s+|still\s+)?(?:a|an|the|their|his|her)\s+"
                       r"(?:new\s+|proud\s+)?([a-z]+)", re.I)


def makes_them_theirs(reply: str, said: list[str]) -> list[str]:
    """The person told as one of theirs, a pet or a relation they spoke of: "You are the new
    kitten." to "The kids decided to rename the kitten." (replies benchmark), or by the name they
    gave one: "You are Max." to "…because Max has been limping", Max their dog (latency benchmark,
    the demo misheard). Not what they said they are themselves ("I'm a mum of two")."""
    told = {w for text in said for w in re.findall(r"[a-z]+", text.lower())}
    own = {m.group(1).lower() for text in said for m in _I_AM_ONE.finditer(text)}
    named = {name for text in said for name in named_relations(text)}
    return [m.group(0) for m in _YOU_ARE_THEIRS.finditer(reply)
            if m.group(1).lower() in KIND_WORDS and m.group(1).lower() in told - own] \
        + [m.group(0) for m in _YOU_ARE_NAMED.finditer(reply) if m.group(1) in named]


# What someone else has, as the person tells it ("he loved his garden"), and what a reply gives them
# as theirs ("your garden", "you … have a beautiful garden").
_ANOTHERS_THING = re.compile(r"\b(?:his|her|their)\s+((?:[a-z]+\s+)?[a-z]+)", re.I)
_GIVEN_THEM = re.compile(r"\byour\s+((?:[a-z]+\s+)?[a-z]+)|\byou\b[^.!?]{0,30}?\bhave\s+(?:got\s+)?"
                         r"(?:an?|such\s+an?)\s+((?:[a-z]+\s+)?[a-z]+)", re.I)


def hands_them_anothers_thing(reply: str, said: list[str]) -> list[str]:
    """What another of theirs has, given them: "You are very lucky to have a beautiful garden." to
    "He was 94 and he loved his garden.", of a granddad who had died (live). Not what they call
    their own too ("my garden")."""
    others = {w for text in said for m in _ANOTHERS_THING.finditer(text) for w in content_words(m.group(1))}
    others -= their_things(said)
    return [m.group(0) for m in _GIVEN_THEM.finditer(reply)
            if set((m.group(1) or m.group(2)).lower().split()) & others]


# An age: a number, in figures or words ("94", "ninety four", "forty-one")
_AGE = r"(?:\d+|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?:[- ][a-z]+)?)\b"
_ABOUT = r"(?:almost\s+|nearly\s+|only\s+|just\s+)?"
_WAS = r"(?:was|is|were|turned|turns|will\s+be|['’]s)\s+"
_ANOTHERS_AGE = re.compile(r"\b(?:[Hh]e|[Ss]he|[Tt]hey|[Mm]y\s+[a-z]+|(?!It|That|This|There|What|Which)[A-Z][a-z]+)\s+"
                           + _WAS + _ABOUT + _AGE)
_I_AM = r"\bI(?:['’]m| am| was| turned| turn| will be"  # (left open: an age given Hearth takes "I'll be" too)
_OWN_AGE = re.compile(_I_AM + r")\s+" + _ABOUT + _AGE)
_YOUR_AGE = re.compile(r"\byou(?:['’]re| are| were)\s+(?:(?:very|so|quite|really|still|only|getting|now)\s+)*"
                       r"(?:old|young|elderly|aged|" + _AGE + ")", re.I)


def hands_them_anothers_age(reply: str, said: list[str]) -> list[str]:
    """An age told of another of theirs, given them: "You are very old." to "My granddad passed away
    on Tuesday, he was 94." (live). Not where they told their own."""
    if not any(_ANOTHERS_AGE.search(text) for text in said) or any(_OWN_AGE.search(text) for text in said):
        return []
    return [m.group(0) for m in _YOUR_AGE.finditer(reply)]


# Hearth telling an age of its own: "I will be 40." after "My birthday is on the fourteenth of March,
# I'll be forty." (replies benchmark): their age, said back as Hearth's. Not a share ("I'm 100% sure").
_ITS_AGE = re.compile(_I_AM + r"|['’]ll be)\s+" + _ABOUT + _AGE + r"(?!\s*(?:%|per\s*cent|percent))")


def tells_its_age(reply: str) -> list[str]:
    """Pure. An age the reply gives Hearth, which has none: the person's own, told back as Hearth's."""
    return [m.group(0) for m in _ITS_AGE.finditer(reply)]


_YOU_ARE_NAMED = re.compile(r"\b[Yy]ou(?:['’]re| are)\s+([A-Z][a-z]+)\b(?![’'-])")


# someone or something of theirs: "my mum", or someone asked about by name past the question's
# first word ("What does Mia do now?", answered "I am now a nurse in York.")
_OF_THEIRS = re.compile(r"\b[Mm]y\s+[A-Za-z]+|(?<=\w )[A-Z][a-z]+")


def speaks_as_theirs(reply: str, asked: str) -> list[str]:
    """To a question about someone or something of theirs and not about themselves ("How is my mum
    doing now?", "What does Mia do now?"), an "I" that does what Hearth does not ("I'm feeling
    better now."): a small model takes the part of whom it was asked about, and made "you" it would
    tell the person they are recovering. Hearth's own "I'm glad", "I think", "I don't know" are not that.
    So too, asked who in their life does something, not of Hearth ("Who is coming to visit me?"),
    Hearth as the one who does it ("I am coming to visit you.", live)."""
    of_themselves = re.search(r"\bi\b|\bi['’]", asked, re.I)
    if not (_OF_THEIRS.search(asked) and not of_themselves or asks_who(asked) and not _OF_HEARTH.search(asked)):
        return []
    found = [m.group(0) for m in I_CLAUSE.finditer(reply)
             if m.group(1).lower() not in OWN_VERBS and len(m.group(1)) > 2]
    # nor, asked who does it to them, the person ("You are coming to visit me on Saturday.", live)
    does = who_does(asked)
    if does and not of_themselves:
        found += [m.group(0) for m in _YOU_DO.finditer(reply) if m.group(1).lower()[:4] == does.lower()[:4]]
    return found


_NOT_HAVE = re.compile(r"\bi\s+(?:don't|do\s+not|didn't|did\s+not|haven't|have\s+not)\s+(?:got\s+)?"
                       r"(?:have\s+)?(a|an|any|the)\s+([a-z]+)", re.I)
_OF_THEMSELVES = re.compile(r"\b(?:i|i['’]\w+|my|me)\b", re.I)
_OF_HEARTH = re.compile(r"\b(?:you|your|you['’]\w+)\b", re.I)


def disowns(reply: str, heard: str) -> bool:
    """Pure. Hearth says it has not got what the person just called theirs: "I don't have a wife, but…"
    to "My wife is having surgery…" (heard on the replies benchmark), or, told of their own doings and
    asked nothing of Hearth, the thing they spoke of: "I don't have the slides yet." to "…I haven't
    finished the slides" (live). A small model answers their "my" or their "I" as if it were its own."""
    theirs = their_things([heard])
    if _OF_THEMSELVES.search(heard) and not _OF_HEARTH.search(heard):
        told = {w.removesuffix("s") for w in content_words(heard)} | theirs
        return any(m.group(2).lower().removesuffix("s") in told for m in _NOT_HAVE.finditer(reply))
    return any(m.group(1).lower() != "the" and m.group(2).lower() in theirs for m in _NOT_HAVE.finditer(reply))


def perspective_errors(reply: str, person: str, things: set[str], said: list[str] = ()) -> list[str]:
    """Every slip of perspective: about the person by name, their things as Hearth's, what they did
    (or another of theirs did) told as Hearth's own doing, their own name given to one of theirs, or
    taken as Hearth's, or any name but its own, or an age given Hearth; the person told as one of
    theirs, or what another of theirs does or has (`said` ends with what they just said) told as
    their own."""
    said = list(said)
    slips = (third_person_slips(reply, person) + claims_their_things(reply, things) + speaks_as_them(reply, said)
             + their_name_for_another(reply, person) + claims_their_name(reply, {person})
             + makes_them_theirs(reply, said) + (gives_them_anothers(reply, said[-1]) if said else [])
             + hands_them_anothers_thing(reply, said[-2:]) + hands_them_anothers_age(reply, said[-2:])
             + claims_anothers(reply, said) + names_itself(reply) + tells_its_age(reply))
    return list(dict.fromkeys(slips))  # their name taken as Hearth's is also a name not its own: once
