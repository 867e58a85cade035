"""Emotion in a turn: a label from a small lexicon, its valence and arousal, and its cause.

Pure functions. The lexicon maps word stems to a label; the cause is the clause after 'because',
'about', 'since', 'that' or the emotion word itself, or else the turn's main event.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from text.words import split_sentences

from .noting import informative

# label: (valence in [-1, 1], arousal in [0, 1], stems as regular expressions). A finer feeling is
# named with the basic one it is a kind of ("lonely and sad"): asked what worries them, or whether
# they were sad, a person means those too, and a note says both as naturally.
EMOTIONS: dict[str, tuple[float, float, tuple[str, ...]]] = {
    "worried": (-0.6, 0.6, (r"worr(y|ied|ies|ying)", r"concerned")),
    "nervous": (-0.5, 0.7, (r"nervous", r"jittery", r"dread(ing|ed)?")),
    "anxious": (-0.6, 0.7, (r"anxious", r"anxiety", r"on edge", r"freak(ing|ed) out", r"panick(ing|ed)")),
    "scared": (-0.7, 0.8, (r"scared", r"afraid", r"terrified", r"frightened")),
    "stressed and anxious": (-0.6, 0.7, (r"stress(ed|ful|ing)?", r"overwhelm(ed|ing)", r"swamped")),
    "relieved": (0.6, 0.3, (r"relie(f|ved)", r"feel like a new person", r"weight off")),
    "excited": (0.8, 0.9, (r"excit(ed|ing)", r"thrilled", r"can'?t wait", r"looking forward", r"psyched", r"stoked",
                           r"pumped", r"buzzing")),
    # (loving something is being happy with it: "I love it" was noted "Tom feels loving because…";
    # "loves" is someone else's: "My dog Max loves the beach" says nothing of how the speaker feels)
    "happy": (0.8, 0.5, (r"happy", r"glad", r"delighted", r"joy(ful)?", r"good news", r"adorable", r"amazing",
                         r"awesome", r"wonderful", r"fantastic", r"\blove[d]?\b", r"pleased", r"chuffed",
                         r"over the moon", r"on cloud nine", r"can'?t stop smiling", r"made my day")),
    "proud": (0.8, 0.6, (r"proud",)),
    "glad and grateful": (0.7, 0.3, (r"grateful", r"thankful", r"appreciat(e|ive)")),
    # "down" only as a feeling: "the ceiling won't have to come down" says nothing of one
    "sad": (-0.7, 0.3, (r"sad", r"(?:feel(?:ing|s)?|felt|so|a bit|really|pretty|quite|I'?m|I am|I was) down",
                        r"heartbroken", r"miss(ing)? (him|her|them)", r"devastated", r"unhappy",
                        r"upset", r"I (?:really |so |still )?miss\b", r"missing(?= (?:my|our|home|you)\b)",
                        r"get(?:s|ting)? me down", r"breaks? my heart", r"broke my heart", r"bummed", r"in tears")),
    # alone is no feeling ("I live alone"); feeling alone is
    "lonely and sad": (-0.6, 0.3, (r"lonely", r"(?:feel(?:ing|s)?|felt) (?:so |very |a bit )?alone")),
    "angry": (-0.7, 0.8, (r"angry", r"furious", r"mad at", r"fuming", r"livid", r"infuriat(ed|ing)")),
    "frustrated": (-0.6, 0.7, (r"frustrat(ed|ing)", r"annoy(ed|ing|s)?", r"irritat(ed|ing)", r"fed up",
                               r"sick (?:of|and tired)", r"had enough", r"end of my tether",
                               r"drives? me (?:mad|crazy|nuts|up the wall)", r"doing my head in")),
    "disappointed and down": (-0.5, 0.4, (r"disappoint(ed|ing)", r"let down", r"gutted")),
    "guilty": (-0.4, 0.4, (r"guilt(y)?", r"ashamed")),
    "tired": (-0.4, 0.1, (r"exhaust(ed|ing)", r"tired", r"worn out", r"drained", r"knackered", r"worn down",
                          r"wiped out", r"running on empty", r"dead on my feet", r"wear(?:s|ing)? me (?:out|down)",
                          r"(?:I'?m|I am|feel(?:ing)?|felt) (?:absolutely |completely |totally )?done in",
                          r"(?:I'?m|I am|feel(?:ing)?|felt) (?:absolutely |completely |totally )?shattered")),
    "hopeful": (0.5, 0.4, (r"hopeful", r"optimistic")),
    "calm": (0.4, 0.1, (r"calm", r"peaceful", r"relaxed", r"content")),
}
_NEGATION = re.compile(r"\b(not|never|no longer|n't)\s+(\w+\s+)?$", re.I)
_PATTERNS = [(label, re.compile(r"\b(" + "|".join(stems) + r")", re.I)) for label, (_, _, stems) in EMOTIONS.items()]
# Words that lead a feeling's cause; but for "because", the cause is said with its word: "worried
# about Max", "annoyed with Tom", "tired after the move", "relieved that the scan was clear" (as
# "because Max" it read wrong); one led by nothing, or by "because", is said after "because"
_LEADS = r"because of|about|since|that|as|for|of|to|by|with|when|after"
_CAUSE_LEAD = re.compile(rf"^\W*(?:{_LEADS}|because)\b\s*", re.I)
_THING_LEAD = re.compile(rf"^(?:{_LEADS})\s", re.I)
_PRONOUN_ONLY = re.compile(r"^\W*(it|that|this|them|him|her|so|too|really|though)?\W*$", re.I)
# Words that say nothing of what happened: a cause made of these alone ("It was an", "Hah, yeah!")
# is no cause
_EMPTY_WORDS = frozenset("""a an the and or but of to in on at for with it its it's this that so was were is are am be
been i i'm me my we our you your he she they just really very quite too oh hah haha yeah yes yep wow well""".split())
# A sentence that only agrees ("Yep, Mel!", "Absolutely!"): no event, so never a feeling's cause
_AGREEING = re.compile(r"^\W*(yep|yup|yeah|yes|sure|absolutely|totally|definitely|exactly|of course)\b\W*(\w+\W*)?$", re.I)
_FILLER = re.compile(r"^\W*(good news|bad news|well|so|oh|hey|hi|guess what|honestly|anyway|wow|yay|ugh|"
                     r"can you believe it|you know what|believe it or not|you won't believe it)\b[\W]*", re.I)


@dataclass(frozen=True)
class Affect:
    label: str
    valence: float
    arousal: float
    cause: str | None
    stated: bool  # said in words, or only implied
    heard: str = ""  # not in the words at all: how the voice suggested it ("quieter and slower than usual")


def _says_something(text: str) -> bool:
    return any(w not in _EMPTY_WORDS for w in re.findall(r"[a-z']+", text.lower()))


# Labels written before a finer feeling was named with its basic one, as stored memories still hold them
_FORMER_LABELS = {"stressed": "stressed and anxious", "lonely": "lonely and sad", "grateful": "glad and grateful",
                  "disappointed": "disappointed and down"}


def valence_of(label: str | None) -> float:
    label = _FORMER_LABELS.get(label, label)
    return EMOTIONS[label][0] if label in EMOTIONS else 0.0


def clamp_valence(value) -> float:
    return max(-1.0, min(1.0, float(value or 0.0)))


_IMPLIED = ("good news", "amazing", "awesome", "wonderful", "fantastic", "adorable", "feel like a new person")
# How a feeling is introduced ("and I'm really", "it makes me", "I have been really": "Tom has" was
# noted as a cause, live): left off the clause before a
# feeling word, which may then name its cause. Not text.words.HANGING_WORDS: taking those off too
# ("the", "my", "with") lost LoCoMo evidence (56.9% -> 55.8% on the dev split).
_TRAILING = re.compile(r"(\s*\b(and|but|so|i|really|very|a bit|quite|honestly|i'?m|i am|i feel|i felt|feel|felt|"
                       r"it was|it's|it is|that was|he's|she's|they're|we're|was|were|is|are|been|makes me|made me|"
                       r"got|get|getting|totally|super|just|have|has|had|i've|we've)\b\s*)+$", re.I)


# Someone else's feeling, told of: "She was nervous", "my son is so excited", "Sam felt awful" say how
# they felt, not how the speaker does ("It's so frustrating" is the speaker's own)
_BE = r"(?:\s+(?:was|is|were|are|seemed|seems|looked|looks|felt|feels|got|gets)|['’]s)"
_ANOTHERS = re.compile(r"(?:(?:\b(?i:she|he|they)|\b(?i:my|our|his|her)\s+[a-z]+)" + _BE + "?"
                       r"|\b(?!It\b|That\b|This\b|There\b|What\b|How\b)[A-Z][a-z]+" + _BE + ")"
                       r"(?:\s+(?:so|really|very|a bit|quite|pretty|a little|super|rather|absolutely|just))*\s+$")
# "…, but she loved it": a feeling said after "but" is the one the speaker ends on
_CONTRAST = re.compile(r"\bbut\b", re.I)


def _stated(text: str) -> tuple[list[tuple[str, re.Match]], list[tuple[str, re.Match]]]:
    """Each label's matches that are neither negated nor someone else's feeling, stated (the first
    only) and implied apart."""
    stated, implied = [], []
    for label, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            before = text[:m.start()]
            if _NEGATION.search(before[-30:]) or _ANOTHERS.search(before[-40:]):
                continue
            if m.group(0).lower() in _IMPLIED:
                implied.append((label, m))
            else:
                stated.append((label, m))
                break
    return stated, implied


def _at(found: tuple[str, re.Match]) -> int:
    return found[1].start()


def find_emotion(text: str) -> tuple[str, re.Match] | None:
    """The first stated emotion in the text (not negated, the speaker's own), with its match, unless
    one that goes the other way follows a "but" ("nervous at first, but I loved it"); implied ones
    only when none is stated."""
    stated, implied = _stated(text)
    first = min(stated, key=_at, default=None)
    if first is None:
        return min(implied, key=_at, default=None)
    turn = max((c.start() for c in _CONTRAST.finditer(text)), default=-1)  # the last "but"
    later = [found for found in stated if _at(found) > turn > _at(first)
             and valence_of(found[0]) * valence_of(first[0]) < 0]
    return min(later, key=_at, default=first)


def main_event(text: str) -> str:
    """The turn's first informative sentence (memory/noting.informative: no question, no small talk such
    as "Yeah, it's true!" or "Thanks!", which were noted as causes), fillers left out and sentences
    that only state a feeling skipped."""
    for sentence in informative(text):
        sentence = _FILLER.sub("", sentence).strip()
        if not sentence or _AGREEING.match(sentence) or not _says_something(sentence):
            continue
        found = find_emotion(sentence)
        if found and not _clause_before(sentence, found[1].start()):
            continue
        return sentence.rstrip(".!?")
    return ""


def _sentence_around(text: str, pos: int) -> tuple[str, int]:
    start = 0
    for s in split_sentences(text):
        at = text.find(s, start)
        if at <= pos < at + len(s) + 1:
            return s, pos - at
        start = at + len(s) if at >= 0 else start
    return text, pos


def _clause_before(sentence: str, pos: int) -> str:
    before = _TRAILING.sub("", sentence[:pos]).strip(" ,;-")
    before = _FILLER.sub("", before).strip(" ,;-")
    if not before:
        return ""
    piece = re.split(r"[,;]\s*|\s+but\s+|\s+and\s+(?=it\b|I\b|that\b)", before)[-1].strip()
    piece = re.sub(r"^(but|and|so|then)\s+", "", piece, flags=re.I)
    if len(piece.split()) < 3:
        piece = before
    return piece if len(piece.split()) >= 2 and _says_something(piece) else ""


# ...and what wears one out, gets one down, drives one mad is the subject before: "because of" it
_SUBJECT_IS_CAUSE = re.compile(r"wear|get|break|broke|drive|doing|made", re.I)
_OBJECT_IS_CAUSE = re.compile(r"lov|dread|I (?:really |so |still )?miss|missing|sick (?:of|and tired)", re.I)


def find_cause(text: str, match: re.Match) -> str | None:
    """Why: the clause after the emotion word, else the clause before it in its sentence, else the main event."""
    after = text[match.end():]
    sentence_end = re.search(r"[.!?](\s|$)", after)
    after = after[:sentence_end.start()] if sentence_end else after
    after = re.sub(r"^(ed|ing|y|ied|ful|s)?\b\s*(of myself|of me|me|too|really|so much)?\s*", "", after, flags=re.I)
    lead = _CAUSE_LEAD.match(after)
    # what one loves, misses or dreads is why: "I love dancing with my friends", "I'm dreading the meeting"
    of_object = bool(_OBJECT_IS_CAUSE.match(match.group(0)))
    clause_after = re.match(r"\s*(I|I'll|I'm|we|my|he|she|they)\b", after)
    cause = after[lead.end():] if lead else (after if of_object or clause_after else "")
    cause = re.split(r"[,;]\s*(?:but|and)?\s*|\s+but\s+", cause)[0].strip().rstrip(".!?")
    says = bool(cause) and not _PRONOUN_ONLY.match(cause) and _says_something(cause)
    led = f"{lead.group(0).strip(' ,').lower()} " if lead else "about " if of_object else ""
    led = led if _THING_LEAD.match(led) else ""  # else a clause, said after "because"
    if says and len(cause.split()) >= 2:
        return led + cause
    sentence, pos = _sentence_around(text, match.start())
    before = _clause_before(sentence, pos)
    if before and _SUBJECT_IS_CAUSE.match(match.group(0)):
        return "because of " + re.sub(r"^(?:The|A|An|My|Our|This|That)\b", lambda m: m.group(0).lower(), before)
    if before:
        return before
    # a single word after "about", "for"…, where nothing else says more: "I'm worried about Max"
    return main_event(text) or (led + cause if says and lead else None)



def with_cause(cause: str | None) -> str:
    """What follows "Dana feels worried" in a note: "about Max" for a thing said with its word
    (find_cause keeps it), "because Max has been limping" for what happened."""
    if not cause:
        return ""
    cause = cause.rstrip(". ")
    return f" {cause}" if _THING_LEAD.match(cause) else f" because {cause}"


def detect_affect(text: str) -> Affect | None:
    """The emotion a turn states, with valence, arousal and cause; None when none is stated."""
    found = find_emotion(text)
    if not found:
        return None
    label, match = found
    valence, arousal, _ = EMOTIONS[label]
    return Affect(label, valence, arousal, find_cause(text, match), match.group(0).lower() not in _IMPLIED)


def heard_affect(departures: dict[str, float], how: str, text: str) -> Affect | None:
    """The feeling a voice suggests where the words state none, from how it departed from the
    person's usual (audio/voice_cues.departures; `how`: those in words): quieter, and slower or
    lower, sounds tired; louder, and faster or higher, excited. Loudness must take part: a slower or
    lower voice alone is as often thought as feeling. Its cause is the turn's main event."""
    loudness = departures.get("loudness_db", 0.0)  # (only clear departures are there at all)
    rate, pitch = departures.get("rate", 0.0), departures.get("pitch_st", 0.0)
    if loudness < 0 and (rate < 0 or pitch < 0):
        label = "tired"
    elif loudness > 0 and (rate > 0 or pitch > 0):
        label = "excited"
    else:
        return None
    valence, arousal, _ = EMOTIONS[label]
    return Affect(label, valence, arousal, main_event(text) or None, stated=False, heard=how)


def compatibility(query_valence: float | None, memory_valence: float) -> float:
    """How well a memory's affect fits the query's mood, in [0, 1]; 0.5 when either is neutral."""
    if query_valence is None or query_valence == 0 or memory_valence == 0:
        return 0.5
    return 1.0 - abs(query_valence - memory_valence) / 2.0
