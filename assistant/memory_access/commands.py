"""Hearth's answer when a person asks about or changes their own memory by voice, and what it does
to the store (memory/commands.py reads the request from the words).

Answering costs no language model: what is said is made from the request and the person's own
memories. What it does is applied only once the turn is committed (the reply has started to
play): a speculative turn that is dropped changes nothing. A request whose target is unclear
("Forget that", "That's wrong" with nothing after it) asks first, and the next utterance answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from memory import MemoryStore, PersonMemory
from memory.commands import Correct, Forget, ForgetToday, ForgetWhat, Recap, memory_command, what_to_forget
from memory.enrolment import is_no, is_yes
from text.phrases import can_head

from assistant.reply.retold import second_person, their_words_as_yours

RECAP_ITEMS = 3  # what a recap says: the newest memory of each of this many things
Act = Callable[[int, datetime], None]  # applied with the committed turn's id and time


@dataclass(frozen=True)
class Answer:
    say: str
    act: Act | None = None  # what it does to the store, once the turn is committed
    then: Callable[[str], "Answer | None"] | None = None  # how the next utterance is taken (a question asked)


FORGOTTEN = "Okay, I've forgotten it."
KEPT = Answer("Okay, I'll keep it.")


def yes_or_no(yes: Callable[[], Answer], no: Callable[[], Answer]) -> Callable[[str], Answer | None]:
    """How the answer to a yes-or-no question Hearth asked is taken: `yes()` or `no()`, or None for an
    answer that is neither (it goes on as a turn of its own)."""
    def taken(text: str) -> Answer | None:
        if is_yes(text):
            return yes()
        return no() if is_no(text) else None
    return taken


_DATE_NOTE = re.compile(r"\s*\([^)]*\d{4}\)")  # "(29 November 2026)": for the notes, not for saying
_NOT_THINGS = {"my", "the", "a", "an", "what", "i", "said", "told", "you", "about", "everything", "all", "of", "me",
               "that", "it", "this", "our", "his", "her", "their", "to", "and"}
_NEW_NAME = re.compile(r"\b(?:called|named|name\s+is|name's)\s+([A-Z][\w'-]*)", re.I)


def as_said_to_them(text: str, name: str) -> str:
    """A note about the person ("Dana's dog Max has been limping") said to them ("your dog Max…")."""
    text = _DATE_NOTE.sub("", text).strip().rstrip(".")
    # (no name: the notes are in the person's own words, "I walked my dog", memory/noting.note_name;
    # so are a named person's written before they gave their name)
    out = their_words_as_yours(text)
    out = second_person(out, name, set()) if name else out
    return out[:1].upper() + out[1:]


def to_them(words: str) -> str:
    """The person's words said back to them, inside a sentence: "my sister" → "your sister"."""
    out = their_words_as_yours(words.rstrip(".!?"))
    return out[:1].lower() + out[1:] if out[:1] != "I" else out


def _version_before(history: list, turn_id: int):
    """The newest version of an item (history: newest first) that the turn had no part in; None: every
    version has it (the item was made by it)."""
    return next((v for v in history if turn_id not in v.provenance), None)


MIN_CUT_WORD = 4  # a word heard cut short is made whole from this many letters ("gran" is too little)


def _things(phrase: str) -> list[str]:
    return [w for w in re.findall(r"[a-z']+", phrase.lower()) if w not in _NOT_THINGS]


def _names(entity) -> list[str]:
    """The words a remembered thing goes by: its name first, then its aliases' words."""
    return [entity.name.lower(), *(w for a in entity.aliases for w in _things(a))]


class MemoryRequests:
    """The requests of one person's memory (a PersonMemory), answered and acted on."""

    def __init__(self, person: PersonMemory, request_turns: set[int] = frozenset()) -> None:
        """request_turns: the turns that were requests (kept up to date by the caller): "Forget
        that" means what was said before them."""
        self.person = person
        self.request_turns = request_turns

    @property
    def store(self) -> MemoryStore:
        return self.person.store

    def answer(self, text: str, awaiting: Callable[[str], Answer | None] | None = None) -> Answer | None:
        """What to say to this utterance, if it is a request of memory (or answers one's question)."""
        if awaiting is not None and (answer := awaiting(text)) is not None:
            return answer
        command = memory_command(text)
        if isinstance(command, Recap):
            return Answer(self.recap())
        if isinstance(command, ForgetToday):
            return Answer("Okay, I've forgotten everything you told me today.", self._forget_today)
        if isinstance(command, Forget):
            return self._forget(command.about)
        if isinstance(command, ForgetWhat):
            return self._forget_what(command.heard)
        if isinstance(command, Correct):
            return self._correct(command.statement)
        return None

    # -- recap ----------------------------------------------------------------------------
    def recap(self) -> str:
        """The newest memory of each of the few things most lately talked of, said to the person in
        the order they were told: "He was 94…" said before "Your granddad passed away…" (live) had
        no one to be about."""
        said, seen = [], set()
        for _, entity_id, _, _, version in self.store.items_of_person(self.person.person_id):
            key = entity_id if entity_id is not None else ("item", version.item_id)
            if key in seen:
                continue
            seen.add(key)
            said.append(as_said_to_them(version.current or version.text, self.person.name))
            if len(said) == RECAP_ITEMS:
                break
        if not said:
            return "I don't remember anything about you yet."
        return "Here is what I remember. " + " ".join(f"{s}." for s in reversed(said))

    # -- forgetting -----------------------------------------------------------------------
    def _forget(self, about: str) -> Answer:
        if not about:
            told = self._last_told()
            if told is None:
                return Answer("You haven't told me anything yet.")
            turn_id, last = told

            forgotten = Answer(FORGOTTEN, lambda _tid, _now: self._forget_items_of_turn(turn_id))
            return Answer(f"Shall I forget that {to_them(last)}?", then=yes_or_no(lambda: forgotten, lambda: KEPT))
        things = to_them(about)
        if not self._entities_about(about) and not self._items_mentioning(about):
            wholes = self._said_whole(about)
            if not wholes:
                return Answer(f"I don't remember anything about {things}.")

            def confirmed(text: str) -> Answer | None:
                # a yes to the one thing asked about, or the name of one of those asked about
                chosen = wholes if len(wholes) == 1 and is_yes(text) else \
                    [w for w in wholes if (set(_things(w)) - set(_things(about))) & set(_things(text))]
                if len(chosen) == 1:
                    return Answer(FORGOTTEN, lambda _tid, _now: self._forget_about(chosen[0]))
                return KEPT if is_no(text) else None

            if len(wholes) == 1:
                return Answer(f"Shall I forget what you told me about {to_them(wholes[0])}?", then=confirmed)
            return Answer(f"Do you mean {' or '.join(to_them(w) for w in wholes)}?", then=confirmed)
        return Answer(f"Okay, I've forgotten what you told me about {things}.",
                      lambda _tid, _now: self._forget_about(about))

    def _forget_what(self, heard: str) -> Answer:
        """A forget not heard plainly: the one remembered thing its words name is asked about, else
        what to forget is asked; nothing is forgotten before the person says."""
        named = self._entities_about(heard)
        if len(named) != 1:
            return Answer("What should I forget?", then=self._forget_answered)
        word = next(n for n in _names(named[0]) if n in _things(heard))
        mine = re.search(rf"\b(?:my|our)\s+{re.escape(word)}\b", heard, re.I)
        about = mine.group(0) if mine else named[0].name

        confirmed = yes_or_no(lambda: Answer(FORGOTTEN, lambda _tid, _now: self._forget_about(about)),
                              lambda: Answer("What should I forget?", then=self._forget_answered))
        return Answer(f"Shall I forget what you told me about {to_them(about)}?", then=confirmed)

    def _forget_answered(self, text: str) -> Answer | None:
        """The answer to "What should I forget?": a thing ("my sister", "about my sister"), "that"
        (the last thing told), or nothing after all."""
        about = what_to_forget(text)
        if about is None or is_no(text):
            return Answer("Okay, I'll keep it all.")
        return self._forget(about if _things(about) else "")

    def _said_whole(self, about: str) -> list[str]:
        """`about` with a word heard cut short made whole ("my grand" → "my grandad"), once for each
        thing remembered (at most three) with a name that begins with it; none where nothing does."""
        entities = self.store.entities(self.person.person_id)
        for word in (w for w in _things(about) if len(w) >= MIN_CUT_WORD):
            # each thing by the first of its names that the word begins ("grandma" for Rose, "my grandma")
            begun = [next((n for n in _names(e) if n.startswith(word) and n != word), None) for e in entities]
            begun = [n for n in begun if n]
            if begun:
                return [re.sub(rf"\b{re.escape(word)}\b", n, about, count=1, flags=re.I) for n in begun[:3]]
        return []

    def _entities_about(self, about: str) -> list:
        wanted = set(_things(about))
        return [e for e in self.store.entities(self.person.person_id) if wanted & set(_names(e))]

    def _items_mentioning(self, about: str) -> list[int]:
        """The memories whose words name the thing, whatever they are filed under ("the car" in "The
        garage said the car needs a new clutch", filed under the garage: asked live to forget the
        car, Hearth said it remembered nothing about it)."""
        return [item_id for item_id, _, _, _, version in self.store.items_of_person(self.person.person_id)
                if self._mentions(about, version.current or version.text)]

    @staticmethod
    def _mentions(about: str, text: str) -> bool:
        """Whether the text names a thing `about` names (a noun of it: "what happened at work
        yesterday" names work, not every memory of yesterday)."""
        nouns = [w for w in _things(about) if can_head(w)]
        return any(re.search(rf"\b{re.escape(w)}s?\b", text, re.I) for w in nouns)

    def _forget_about(self, about: str) -> None:
        pid = self.person.person_id
        entities = self._entities_about(about)
        ids = {e.id for e in entities}
        names = [e.name for e in entities]
        mentioning = set(self._items_mentioning(about))
        with self.store.transaction():
            for item_id, entity_id, _, _, version in self.store.items_of_person(pid):
                text = version.current or version.text
                if entity_id in ids or item_id in mentioning or any(re.search(rf"\b{re.escape(n)}\b", text)
                                                                    for n in names):
                    self.store.forget_item(pid, item_id)
            for node in self.store.persona(pid):
                if node["entity_id"] in ids or self._mentions(about, node["text"]):
                    self.store.forget_persona(pid, node["id"])
        self.person.recaller.invalidate()

    def _forget_today(self, _turn_id: int, now: datetime) -> None:
        pid, today = self.person.person_id, now.date().isoformat()
        with self.store.transaction():
            for item_id, _, _, created, _ in self.store.items_of_person(pid):
                if created[:10] == today:
                    self.store.forget_item(pid, item_id)
            for node in self.store.persona(pid):
                if node["created"][:10] == today:
                    self.store.forget_persona(pid, node["id"])
        self.person.recaller.invalidate()

    def _last_told(self) -> tuple[int, str] | None:
        """The last thing the person said that was not a request of memory: (turn id, words)."""
        turns = [t for t in self.store.turns(self.person.person_id, self.person.session_id)
                 if t["role"] == "user" and t["id"] not in self.request_turns]
        return (turns[-1]["id"], turns[-1]["text"]) if turns else None

    def _forget_items_of_turn(self, turn_id: int) -> None:
        """Forget what one turn made: the memories it is in, and the feelings gathered from it (a
        feeling whose cause it told would say it again). A summary that integrated the turn goes back
        to its version before it: what the earlier turns told stays."""
        pid = self.person.person_id
        before = {item_id: _version_before(self.store.history(item_id), turn_id)
                  for item_id, _, _, _, version in self.store.items_of_person(pid) if turn_id in version.provenance}
        kept = [item_id for item_id, version in before.items() if version is not None]
        vectors = self.person.embedder.embed([before[i].text for i in kept]) if kept else []
        with self.store.transaction():
            for item_id in before.keys() - set(kept):
                self.store.forget_item(pid, item_id)
            for item_id, vector in zip(kept, vectors):
                self.store.take_back(pid, item_id, before[item_id], vector)
            for node in self.store.persona(pid):
                if turn_id in node["evidence"]:
                    self.store.forget_persona(pid, node["id"])
        self.person.recaller.invalidate()

    # -- correcting -----------------------------------------------------------------------
    def _correct(self, statement: str) -> Answer:
        if not statement:
            return Answer("What should it be instead?", then=lambda text: self._correct(text))
        new_name = _NEW_NAME.search(statement)
        if new_name and new_name.group(1)[0].islower():
            # Whisper writes a name with its capital: a word without one is likely misheard ("my
            # dog is called next", for "Rex", heard live), so it is asked about before anything is renamed
            named = statement[:new_name.start(1)] + new_name.group(1).capitalize() + statement[new_name.end(1):]

            confirmed = yes_or_no(lambda: self._correct(named),
                                  lambda: Answer("What should it be instead?", then=self._correct))
            return Answer(f"Did you say {to_them(statement)}?", then=confirmed)
        return Answer(f"Thanks, I've put that right: {to_them(statement)}.",
                      lambda turn_id, now: self._apply_correction(statement, turn_id, now))

    def _apply_correction(self, statement: str, turn_id: int, now: datetime) -> None:
        """A new name for something the person has ("my dog is called Rex") renames it and writes a
        new version of each memory that named it; anything else is remembered as the turn it is,
        whose update writes what is true now over what was."""
        new_name = _NEW_NAME.search(statement)
        target = self._entities_about(_NEW_NAME.sub("", statement)) if new_name else []
        if new_name and len(target) == 1 and target[0].name != new_name.group(1):
            self._rename(target[0], new_name.group(1), turn_id, now)
            return
        self.person.derive(statement, turn_id, now)

    def _rename(self, entity, name: str, turn_id: int, now: datetime) -> None:
        pid, old = self.person.person_id, entity.name
        word = re.compile(rf"\b{re.escape(old)}\b")
        changed = []
        for item_id, _, _, _, version in self.store.items_of_person(pid):
            if word.search(version.text) or word.search(version.current or ""):
                new = {"text": word.sub(name, version.text), "history": version.history,
                       "current": word.sub(name, version.current or ""), "said_at": now,
                       "happens_at": version.happens_at, "emotion": version.emotion, "cause": version.cause,
                       "provenance": [*version.provenance, turn_id], "method": "correction"}
                changed.append((item_id, new))
        nodes = [dict(n, text=word.sub(name, n["text"]), cause=word.sub(name, n["cause"] or "") or None)
                 for n in self.store.persona(pid) if word.search(n["text"])]
        vectors = self.person.embedder.embed([new["text"] for _, new in changed] + [n["text"] for n in nodes]) \
            if changed or nodes else []
        with self.store.transaction():
            self.store.rename_entity(entity.id, name, now)
            for (item_id, new), vec in zip(changed, vectors):
                self.store.update_item(item_id, new, vec, now)
            for node, vec in zip(nodes, vectors[len(changed):]):
                self.store.upsert_persona(pid, node["kind"], node["entity_id"], node, vec, now, node["id"])
        self.person.recaller.invalidate()

