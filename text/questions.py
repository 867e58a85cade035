"""What an utterance asks, read from its words alone. Pure: shared by who-is-speaking (a stranger is
told they have not met) and the reply (only what the person said can answer it; "I don't know"
answers only a question)."""

from __future__ import annotations

import re

from text.words import split_sentences

# What only the person's own memories could answer: what they said or did, their things, who they are.
# What is on for them on a day ("What is happening on Thursday?", "Anything on tomorrow?", "What do I have
# on Friday?"): their plans, not the world's.
_A_DAY = (r"(?:today|tonight|tomorrow|this (?:week|weekend|morning|afternoon|evening)|next \w+|"
          r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)")
_ABOUT_THEMSELVES = re.compile(r"\b(?:remember|remind me|told you|(?:did|have|had|was|were|am) i\b|who i am)"
                               r"|^\W*(?:what|who|where|when|which|how old|how many)\b[^?.!]*\bmy\b"
                               r"|^\W*(?:what(?:'s| is| was)|anything)\s+(?:on|happening|planned|going on)\b"
                               rf"[^?.!]*\b{_A_DAY}\b"
                               rf"|\bdo i have\b[^?.!]*\b{_A_DAY}\b", re.I)


def asks_about_themselves(text: str) -> bool:
    """Whether an utterance asks what Hearth remembers of the speaker ("What was I worried about?",
    "What is my dog called?", "Do you remember me?"): a stranger is told they have not met."""
    return bool(_ABOUT_THEMSELVES.search(" ".join(text.replace("\u2019", "'").split())))


# A question without its mark (Whisper leaves one off now and then): it opens as one, or asks to be told.
_ASKS = re.compile(r"^\W*(?:what(?!\s+an?\b)|who|whom|whose|where|when|which|why|how|is|are|am|was|were|do|does|did|can|could|"
                   r"will|would|should|shall|have|has|had)\b|\b(?:tell me|remind me|do you know|any idea)\b", re.I)


def asks(text: str) -> bool:
    """Whether an utterance asks anything ("Where does Ines live?", "Tell me a joke"), as opposed to
    telling ("I'm allergic to peanuts."): any of its sentences ends in a question mark or opens as
    a question."""
    sentences = split_sentences(" ".join(text.replace("\u2019", "'").split()))
    return any(s.endswith("?") or _ASKS.search(s) for s in sentences)


# A question word and its verb ("When is…", "What's…", "Where do…"): a question, mark or none. A
# question word before a clause of its own is no question ("When I was young, I lived in Leeds").
_WH_QUESTION = re.compile(r"^\W*(?:what|who|whom|whose|where|when|which|why|how)(?:['’]s\b|\s+(?:is|are|was|were|am|"
                          r"do|does|did|can|could|will|would|should|shall|has|have|had|much|many|long|old|often)\b)",
                          re.I)


def is_question(sentence: str) -> bool:
    """Whether one sentence is a question, for what memory writes down: it ends in a question mark,
    or opens with a question word and its verb (Whisper leaves the mark off now and then, and a
    question written down as a fact became what was "true now" of the thing asked about). Stricter
    than `asks`: "Had a long day at work." opens like a question and is news."""
    return sentence.rstrip().endswith("?") or bool(_WH_QUESTION.search(sentence))


# Who in their life does something: "Who is coming to visit me?", "Who called me?". One reading of a
# "who" question for the reply's checks, which let its answer be told in the question's words.
_WHO = re.compile(r"^\W*who\b", re.I)
_WHO_DOES = re.compile(r"^\W*who(?:\s+(?:is|was|will|has|had|are|were)|['’]s)?\s+(?!my\b|your\b|the\b|a\b)"
                       r"([a-z]{4,})", re.I)
_WHO_TO_THEM = re.compile(r"^\W*who\b.*?\b([a-z]{3,})\s+(me|my)\b", re.I)


def asks_who(text: str) -> bool:
    """Whether an utterance asks who ("Who is coming to visit me?", "Who's Sam?")."""
    return bool(_WHO.match(text))


def who_does(text: str) -> str | None:
    """The verb of a question of who does something ("coming" in "Who is coming to visit me?",
    "called" in "Who called me?"); None for any other utterance, or "Who is my doctor?"."""
    m = _WHO_DOES.match(text)
    return m.group(1) if m else None


def done_to_them(text: str) -> tuple[str, str] | None:
    """Asked who does something to them, the verb and the word for them: ("helping", "me") of "Who
    is helping me practise?", ("took", "my") of "Who took my keys?"; None otherwise."""
    m = _WHO_TO_THEM.match(text)
    return (m.group(1), m.group(2).lower()) if m else None
