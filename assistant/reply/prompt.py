"""The prompt: a short system prompt for a warm, brief, spoken style, then recent turns."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from memory.dates import WRITTEN_DATE_RE
from memory.ranking import content_words, estimate_tokens, repeats, word_set

from assistant.reply.names import UNNAMED
from assistant.reply.retold import first_person

SYSTEM_PROMPT = (
    "You are Hearth, a warm voice assistant talking with {person}. Your words are spoken aloud, so reply in one "
    "or two short sentences, speaking to {person} as \"you\". Use what {person} told you before to answer. "
    "If the answer is not in it, say you don't know."
)

NOTES_INTRO = "What I told you before:"  # the line before the memory notes in the person's message

# A worked example of each kind of turn, between the system prompt and the history: a question the
# notes answer (said to "you"), one they do not (admitted), a remark answered in Hearth's own
# words, and a worry met with sympathy (without it the model answered one with a bare clause, "It's
# been a bit worrying", or with advice). A 0.5B model follows a shown reply far better than a
# described one: on hand-made cases it stopped answering "I don't know what your dog is called"
# with the dog's name in its notes. The examples are about nobody Hearth knows, and stay put, so
# llama.cpp keeps them cached with the system prompt.
EXAMPLES = (
    (f"{NOTES_INTRO}\n- My neighbour Tom plays the trumpet at night.\n- I had pasta for lunch.\n\n"
     "Who plays the trumpet?", "Your neighbour Tom does, at night."),
    (f"{NOTES_INTRO}\n- My neighbour Tom plays the trumpet at night.\n\nWhat's my favourite film?",
     "I don't know, you haven't told me your favourite film yet."),
    ("I had a long day at work today.", "That sounds tiring. Do you want to talk about it?"),
    ("I'm worried because my cat hasn't eaten since yesterday.",
     "Oh no, that is worrying. I hope your cat eats again soon."),
)
# What the examples' person said and noted: never a reply's words (a 0.5B model now and then answered
# "What did I do before that?" with "I had a long day at work today."). The examples' replies are the
# pattern to follow, so they are not in it.
EXAMPLE_WORDS = tuple(dict.fromkeys(line.removeprefix("- ") for user, _ in EXAMPLES for line in user.splitlines()
                                    if line.strip() and line != NOTES_INTRO))
# The words of the examples' notes: a reply that uses one nobody in the conversation said is answering
# from the examples ("Is there anything I shouldn't eat?" was answered "You should not eat pasta.").
EXAMPLE_PROPS = frozenset(word for user, _ in EXAMPLES for line in user.splitlines() if line.startswith("- ")
                          for word in content_words(line))


@dataclass
class History:
    """The session's recent turns, newest last. Only what was actually spoken is kept.

    The history is the cached prefix of every prompt, so it changes at its start as rarely as
    possible: when it outgrows max_turns, the older half goes at once (a window sliding by one turn
    would make llama.cpp evaluate the whole history again on every turn). Replies are kept to
    their first words; what matters for the next turn is the gist. A small model copies what it
    sees itself say, so a turn whose reply only parrots the person is left out, and a reply that
    (nearly) repeats an earlier one takes that earlier turn out with it: in hour-long soaks one
    parroted reply came back 510 times, and a repeat kept once froze the history and came back 262.
    """

    max_turns: int = 6
    max_reply_words: int = 40
    turns: list[tuple[str, str]] = field(default_factory=list)  # (user text, assistant text)

    def add(self, user: str, assistant: str) -> None:
        if parrots(assistant, user):
            return
        words = assistant.split()
        if len(words) > self.max_reply_words:
            assistant = " ".join(words[: self.max_reply_words]) + "…"
        others = [turn for turn in self.turns if not same_reply(assistant, turn[1])]
        if len(others) < len(self.turns):  # a repeat: neither it nor what it copied stays in view
            self.turns = others
            return
        self.turns.append((user, assistant))
        if len(self.turns) > self.max_turns:
            del self.turns[: len(self.turns) - max(1, self.max_turns // 2)]


def parrots(reply: str, user: str, share: float = 0.9) -> bool:
    """Whether a reply says nothing of its own: nearly all its words are the person's words (and
    it is not much shorter than what they said)."""
    heard = word_set(user)
    return repeats(reply, [heard], share) and len(word_set(reply)) >= 0.6 * len(heard)


def same_reply(reply: str, earlier: str, share: float = 0.8) -> bool:
    """Whether two replies are nearly the same words ("Thank you for sharing that information!" and
    "Thank you for that information!")."""
    a, b = word_set(reply), word_set(earlier)
    return bool(a) and len(a & b) >= share * max(len(a), len(b))


def build_messages(user_text: str, history: History, memory_block: str = "", speaker: str | None = None) -> list[dict]:
    """Ordered so llama.cpp can reuse its cache: what changes least comes first.

    The system prompt, the worked examples and the history are a prefix shared with the previous
    turn's prompt; the memory notes, which change every turn, come last, in the person's message
    just before what they said, so only they and the new words need evaluating. (Small models use notes there far
    more reliably than in a system message.) The notes are in the person's own words
    (`in_my_words`).
    """
    messages = [{"role": "system", "content": SYSTEM_PROMPT.format(person=speaker or UNNAMED)}]
    for user, assistant in (*EXAMPLES, *history.turns):
        messages.append({"role": "user", "content": user})
        messages.append({"role": "assistant", "content": assistant})
    notes = in_my_words(memory_block, speaker)
    content = f"{NOTES_INTRO}\n{notes}\n\n{user_text}" if notes else user_text
    messages.append({"role": "user", "content": content})
    return messages


def in_my_words(block: str, name: str | None) -> str:
    """The memory notes as the person would say them in their own message: "Dana's dog" → "my
    dog", "Dana is worried" → "I am worried". Written about them in the third person, the notes
    were read back so ("Dana remembers Max"); in their own words, the model answers them as "you",
    as it answers anything the person says."""
    # (the cause after "because" before the names are turned: after the colon "My daughter" had a capital)
    return "\n".join("- " + first_person(_FEELING_CAUSE.sub(r"\1 because ", on_its_date(_SCAFFOLD.sub("", line[2:]))),
                                         name or "")
                     if line.startswith("- ") else line for line in block.splitlines())


# A day named relative to when the note was said, with the date the notes put after it: "I started a
# new job today (12 January 2026)" read months later was answered "You started a new job today".
_DAY_SAID = re.compile(r"\b(?:(since|until|till|from|before|after|by) )?(?:today|tonight|this morning|this afternoon|"
                       r"this evening|yesterday|last night|tomorrow|the day (?:before yesterday|after tomorrow)|"
                       r"(?:on |last |this |next |coming )?"
                       rf"(?:mon|tues|wednes|thurs|fri|satur|sun)day) \(({WRITTEN_DATE_RE})\)", re.I)


def on_its_date(note: str) -> str:
    """A note's day said relative to when it was said ("today (12 January 2026)") as its date alone
    ("on 12 January 2026"): the note is read on another day."""
    return _DAY_SAID.sub(lambda m: f"{m[1] or 'on'} {m[2]}", note)


# The labels an integrative memory's text carried in stores written before memory/update.render
# wrote plain sentences ("Earlier: 1 December 2026: …. Now: …."): the small model read "Earlier:
# <date>:" as a header and answered "you haven't told me" past the fact after it. The sentences
# alone say the same.
_SCAFFOLD = re.compile(r"\b(?:Earlier|Now)(?: \([^)]*\))?:\s*(?:\d{1,2} [A-Z][a-z]+ \d{4}:\s*)?")


# A feeling's note ("Dana feels worried about Max: Max is limping"): said as a sentence, its cause
# after "because" (the colon's layout was read back as it stood).
_FEELING_CAUSE = re.compile(r"^((?:I feel|Feels|I|\w+ feels) [\w-]+ about [^:]{1,60}): ")


def carry_notes(previous: str, fresh: str, limit_tokens: int, past: Sequence[str] = ()) -> str:
    """This turn's memory notes: the previous prompt's notes as they were, then the fresh recall's
    lines they lack (each under its day's header again). `past`: facts the fresh recall found put in
    the past by a later memory (memory/superseded.py); a carried line that says one of them goes, as
    it would read as true now beside what replaced it.

    llama.cpp has the previous notes cached (evaluated with the last prompt and again between
    turns), so keeping them costs nothing, while notes that differ from their first line on cost
    one to two seconds to evaluate on a 2-core CPU. A conversation mostly stays on its topic, so
    the old lines are seldom wrong, only less to the point. When the carried notes would pass
    limit_tokens, the fresh notes alone start again; no fresh notes, none at all.
    """
    if not previous or not fresh:
        return fresh
    if past:
        past_words = [word_set(fact) for fact in past]
        previous = without_lines(previous, lambda line: repeats(line[2:], past_words))
        if not previous:
            return fresh
    kept = [word_set(line) for line in previous.splitlines() if line.startswith("- ")]
    added: list[str] = []
    header, header_added = "", False
    for line in fresh.splitlines():
        if not line.startswith("- "):
            header, header_added = line, False
            continue
        if repeats(line, kept):  # already there, maybe cut differently for this question
            continue
        if header and not header_added:
            added.append(header)
            header_added = True
        added.append(line)
        kept.append(word_set(line))
    if not added:
        return previous
    carried = previous + "\n" + "\n".join(added)
    return carried if estimate_tokens(carried) <= limit_tokens else fresh


def without_lines(notes: str, drop: Callable[[str], bool]) -> str:
    """Notes without the lines `drop` picks, and without a day's header left with no line under it."""
    out: list[str] = []
    for line in notes.splitlines():
        if line.startswith("- "):
            if not drop(line):
                out.append(line)
            continue
        if out and not out[-1].startswith("- "):
            out.pop()  # the header before had no line left
        out.append(line)
    if out and not out[-1].startswith("- "):
        out.pop()
    return "\n".join(out)


def renewed_notes(carried: str, fresh: str, budget_tokens: int) -> str:
    """Between turns: the notes the next prompt carries on from. Once the carried notes outgrow one
    recall's budget, the last recall's own notes (the most to the point now) take their place. They
    are evaluated while nobody waits, instead of the carried notes reaching their cap and starting
    afresh in the middle of a turn, where their whole length is evaluated before the first word."""
    return fresh if fresh and estimate_tokens(carried) > budget_tokens else carried
