"""What a reply claims to know: that it was never told (which answers only a question, and never
what the notes hold), and what nobody told it (a number or a name no one said, a word of the worked
examples' notes). Pure."""

from __future__ import annotations

import re

from memory.extract import CUE_PATTERNS, named_relations
from memory.lexicon import ASSISTANT_NAMES, KIND_WORDS, RELATION_GROUP
from memory.ranking import content_words, stems, word_set
from text.phrases import readings
from text.questions import asks
from text.words import NUMBER_WORDS, TIME_WORDS, as_digits

_NOT_TOLD = re.compile(
    r"\bi (?:do not|don't|can't|cannot) (?:know|remember|recall|say)\b"
    r"|\byou (?:haven't|have not|didn't|did not|never) (?:told|tell|mentioned|mention|said)\b"
    r"|^\W*you (?:don't|do not) know\b"  # (its "I don't know" turned to "you" by a slip)
    r"|\bi (?:don't|do not) have (?:an? |any |that |enough |the |more )?(?:specific |clear )?"
    r"(?:information|record|note|details?|answer)", re.I)
# The starts of not knowing that _NOT_TOLD reads, as a reply would begin them: kept from the first
# token of a reply to something told (assistant/reply/openings.py). ("I don't have information", "I
# don't have enough information to answer this question.": each was a try begun again, latency benchmark)
NOT_KNOWING_OPENINGS = ("I don't know", "I do not know", "I don't have any", "I don't have enough",
                        "I don't have information", "I don't have the information", "I don't have that information",
                        "I don't have specific")
_UNSURE = re.compile(r"\bi'm not sure\b|\bi am not sure\b", re.I)


def denies(piece: str) -> bool:
    """The piece says it does not know ("I don't know", "you haven't told me…", "I'm not sure")."""
    return bool(_NOT_TOLD.search(piece) or _UNSURE.search(piece))


def not_told(piece: str) -> bool:
    """The piece says it was never told ("I don't know", "I don't have any information"), which
    answers only a question; "I'm not sure what you mean" may answer anything."""
    return bool(_NOT_TOLD.search(piece))


_NOT_TOLD_BY_THEM = re.compile(
    r"\byou (?:haven't|have not|didn't|did not|never) (?:told|tell|mentioned|mention|said)\b", re.I)


_SAYS_NOTHING = {"yet", "me", "anything", "about", "name", "that", "this", "it"}  # "…told me its name yet"


def blames_them_for_not_telling(piece: str, asked: str) -> bool:
    """Asked something, a piece that says they never told something else, none of whose words
    their question said ("I don't know, you haven't told me your plans yet." to "Do you think it
    will rain tomorrow?", heard live); "…you haven't told me what's happening tomorrow" to "What is
    happening tomorrow?" says what they asked is theirs to tell, and may be. Words count by their
    first four letters."""
    said = _NOT_TOLD_BY_THEM.search(piece)
    if not said or not asks(asked):
        return False
    named = stems({re.sub(r"['’]s$", "", w) for w in content_words(piece[said.end():])} - _SAYS_NOTHING)
    return bool(named) and not named & stems(content_words(asked))



def denies_what_is_known(piece: str, asked: str, known: str) -> bool:
    """Whether a piece says it does not know while what the person told Hearth (`known`: the notes
    and what they said before) speaks of what they ask about, a word of the question in it ("I
    don't know, you haven't told me your dog's name" to "What is my dog called?" with "my dog Max"
    in the notes). A small model takes the prompt's worked example of not knowing over its notes;
    the first-token odds between the two were measured at 0.04 nats on the demo's question, so
    another machine's rounding decided it. Where the notes hold the subject but not the answer
    ("How old is my dog?"), the next try gives no number and no number can be made up, and a
    reply that finds nothing to say ends as "I don't know" all the same (NOT_TOLD_REPLY). Words
    count by their first four letters, as the same word is not always heard the same."""
    # by their first four letters: Whisper heard "my grand had passed away", then "my granddad"
    if not denies(piece):
        return False
    if stems(content_words(asked)) & stems(content_words(known)):
        return True
    # or asked of a whole schema that what they told is of: "you haven't told me your family yet" to
    # "What do you know about my family?" after "My daughter Lily starts school next week" (live). Not
    # asked of one of its kind: a daughter's name is not told by telling of a wife.
    for cue in CUE_PATTERNS.values():
        named = cue.search(asked)
        if named and named.group(1).lower() not in KIND_WORDS and cue.search(known):
            return True
    return False


def _numbers(text: str) -> set[str]:
    words = re.findall(r"[a-z]+|\d+", text.lower())
    return {as_digits(w) for w in words if w.isdigit() or (w in NUMBER_WORDS and w not in ("zero", "one"))}


def invents_numbers(sentence: str, conversation: str) -> bool:
    """Whether a sentence gives a number that nothing in the conversation or the notes holds
    ("How old is my dog?" → "Max is 10 years old." with no age ever said): made up, where a
    question about the person can only be answered from what they said."""
    return bool(_numbers(sentence) - _numbers(conversation))


# A capitalised word past a sentence's first: a name, a day, a month, a place.
_NAMED = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+")


def invents_names(sentence: str, conversation: str) -> bool:
    """Whether a sentence names someone or something nothing in the conversation or the notes names
    ("What is my dog called?" → "Your dog is called Max." with no dog ever named, heard live): made
    up, where a question about the person can only be answered from what they said."""
    known = word_set(conversation) | {name.lower() for name in ASSISTANT_NAMES}
    return any(m.group().lower() not in known for m in _NAMED.finditer(sentence))


def tells_untold(sentence: str, known: str, asked: str) -> bool:
    """Whether a sentence tells what nobody told (`known`: the notes and what the person said before
    `asked`; `asked`: their question): a thing it names that no one spoke of ("You're doing your
    homework today." to "What am I doing tomorrow?"), or, a whole sentence, no word anyone said ("It's
    a busy day." to "What is happening on Thursday?" with nothing noted of Thursday; heard live):
    made up, where a question about the person can only be answered from what they said. A word of
    the question alone ("doing") does not make a thing named told. Not knowing, a question back,
    "Yes!" tell nothing; a first clause alone is judged only by the things it names ("You are still
    working" may go on to "…on your pottery class."), or by what it says something is ("…is very
    supportive"). Words count by their lemmas, or their first
    five letters ("grandma" is "grandmother"; "homework" is not "home")."""
    if denies(sentence) or sentence.rstrip().endswith("?"):
        return False
    words = {w for w in content_words(sentence) - _SAYS_NOTHING_NEW if not _CONTRACTED.match(w)}
    told = _forms({w for w in content_words(f"{known} {asked}") if not _CONTRACTED.match(w)})
    untold = {w for w in words if not _forms({w}) & told}
    if any(set(readings(w)) == {"NOUN"} for w in untold):
        return True
    # what one is, that no one said: "Your family is very supportive." to "What do you know about my
    # family?" with a daughter's school noted (live); not a verb's form ("You are still working…")
    if any(_is_said_to_be(w, sentence) for w in untold):
        return True
    return bool(words) and untold == words and bool(_ENDS_TELLING.search(sentence))


def _is_said_to_be(word: str, sentence: str) -> bool:
    """The sentence says something is `word`, an adjective that is no verb's form."""
    kinds = readings(word)
    return "ADJ" in kinds and "VERB" not in kinds and bool(
        re.search(rf"\b(?:is|are|was|were)\s+{_DEGREE}{re.escape(word)}\b", sentence, re.I))


def _forms(words: set[str]) -> set[str]:
    """Each word as itself, its lemmas, and its first five letters where it is longer."""
    return {f for w in words for f in (w, *(lemma for lemmas in readings(w).values() for lemma in lemmas),
                                       *([w[:5] + "…"] if len(w) > 5 else []))}


_CONTRACTED = re.compile(r"^(?:i|you|we|they|he|she|it|that|there|what|let)['’]\w+$")  # "I'm": no matter
_DEGREE = r"(?:(?:very|so|really|quite|always|still|such)\s+)*(?:an?\s+)?"
_ENDS_TELLING = re.compile(r"[.!]['\"”’)\s]*$")
# times hold nothing told either: the notes' own header says "today"
_SAYS_NOTHING_NEW = TIME_WORDS | {"sure", "okay", "sorry", "know", "yes", "well", "good", "great", "glad", "right",
                                  "thanks"}


def borrows(sentence: str, props: frozenset[str], conversation: str) -> bool:
    """Whether a sentence takes a word from the prompt's worked examples (`props`: the words of their
    notes) that nothing in this conversation has said: the model answering from the examples' notes
    ("You should not eat pasta." when only an example noted pasta for lunch). A word said in another
    form ("Lily plays the piano." to "What instrument does Lily play?") is said."""
    said = stems(content_words(conversation))
    return any(word[:4] not in said for word in content_words(sentence) & props)


# "your wife is Sam", "your dog is called Sam", "your dog Sam", "Sam is your dog"
_GIVEN_NAME = re.compile(r"\b(?i:your)\s+(?:(?!is\b|was\b)[a-z]+\s+)?(?P<kind>(?!is\b|was\b)[a-z]+)"
                         r"(?:\s+(?:is|was)|['’]s\s+name\s+is)?(?:\s+(?:called|named))?\s+(?P<name>[A-Z][a-z]+)\b"
                         r"|\b(?P<name2>[A-Z][a-z]+)\s+is\s+your\s+(?P<kind2>[a-z]+)\b")


def names_another(sentence: str, conversation: str) -> bool:
    """Whether a sentence gives someone of theirs the name they gave another of theirs: "Your wife
    is Sam." with "my brother Sam" told (on a replies run, asked the name of a wife never spoken
    of), "Your dog Sam is named Sam." with "my daughter Sam" told (asked of a dog, live). A small
    model reaches for a name in its prompt when it has none to give."""
    known = named_relations(conversation)
    for m in _GIVEN_NAME.finditer(sentence):
        kind, name = (m.group("kind"), m.group("name")) if m.group("name") else (m.group("kind2"), m.group("name2"))
        kinds = known.get(name)
        kind = kind.lower()
        if kinds and kind in KIND_WORDS and kind not in kinds and not kinds & RELATION_GROUP.get(kind, set()):
            return True
    return False


# "Your daughter Sam is called Sam.": the name said twice, once where the answer begins
_NAMED_TWICE = re.compile(r"\b([Yy]our\s+(?:[a-z]+\s+){1,2})([A-Z][a-z]+)\s+((?:is|was)\s+(?:called|named)\s+)\2\b")


def named_once(piece: str) -> str:
    """The piece with a name said as its own name told once: "Your daughter Sam is called Sam." ->
    "Your daughter is called Sam." (a small model's answer to "What is my daughter called?", live)."""
    return _NAMED_TWICE.sub(r"\1\3\2", piece)
