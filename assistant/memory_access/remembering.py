"""Memory as the turn loop uses it: recall on the critical path, remembering off it.

The raw turns are committed at once, on the reply thread (a few milliseconds), so a turn whose
reply was spoken is never lost; deriving memory from it (entities, the integrative rewrite with
the language model, feelings) runs on a writer thread afterwards.
"""

from __future__ import annotations

import logging
import queue
import threading
from datetime import datetime
from typing import Callable, Sequence

from memory import MemoryStore, PersonMemory, open_store
from memory.emergence import answer_set
from memory.enrolment import own_name_given
from memory.noting import note_name
from models.gate import BackgroundChat, LlmGate

from assistant.config import Config
from assistant.memory_access.commands import Answer, MemoryRequests

log = logging.getLogger(__name__)


class LoopMemory:
    """One person's memory for one session of the loop (satisfies assistant.memory_access.routing.TurnMemory)."""

    def __init__(self, store: MemoryStore, person_id: int, llm=None, llm_gate: LlmGate | None = None,
                 clock: Callable[[], datetime] = datetime.now, budget_tokens: int = 200,
                 learns_name: bool = False, cluster_coherence: float | None = None) -> None:
        """learns_name: the person is the desk's own, known by no name Hearth was given; the name they
        say is theirs ("Hi, I'm Dana") becomes their name."""
        self.learns_name = learns_name
        chat = BackgroundChat(llm, llm_gate or LlmGate()) if llm is not None else None
        self.store = store
        store.load_in_background(person_id)  # ready before the first recall, which would wait for it
        self.person = PersonMemory(store, person_id, llm=chat, clock=clock, budget_tokens=budget_tokens,
                                   cluster_coherence=cluster_coherence)
        self.clock = clock
        self._lock = threading.Lock()
        self._answered: tuple[str, Answer] | None = None  # the last utterance answered as a request of memory
        self._awaiting: Callable[[str], Answer | None] | None = None  # a request's question, for the next one
        self._request_turns: set[int] = set()  # committed turns that were requests: they teach nothing new
        self.requests = MemoryRequests(self.person, self._request_turns)
        # what the writer does, in order: derive memory from a turn, or act on a request
        self._work: queue.Queue[tuple[int, Callable[[], object]] | None] = queue.Queue()
        self._writer = threading.Thread(target=self._write, name="memory-writer", daemon=True)
        self._writer.start()

    @property
    def person_name(self) -> str | None:
        """The name to address the person by, if Hearth knows it."""
        return self.person.name or None

    def prepare(self, partial_text: str) -> None:
        self.person.prepare(partial_text)

    def recall(self, text: str, like: str = "") -> tuple[str, list[dict]]:
        return self.person.recall(text, like)

    def last_words(self) -> str:
        return self.store.last_user_words(self.person.person_id)

    def request_reply(self, text: str) -> str | None:
        """What to say when the person asks about or changes their memory ("What do you remember
        about me?", "Forget that"), or answers what such a request asked; None for anything else.
        Nothing changes until the turn is committed."""
        with self._lock:
            answer = self.requests.answer(text, self._awaiting)
            self._answered = (text, answer) if answer is not None else None
        return answer.say if answer is not None else None

    def begin_turn(self, user_text: str, recalled: Sequence[dict] = ()) -> tuple[str, int, datetime]:
        """Commit what the person said (called when the reply starts to play); a request of memory
        answered is acted on now, after whatever the writer has still to write. `recalled`: the
        memories this turn's recall put in the prompt (recall's list), logged for clusters to emerge
        from unless the turn asked about memory itself."""
        now = self.clock()
        p = self.person
        turn_id = self.store.add_turn(p.person_id, p.session_id, "user", user_text, now)
        if self.learns_name and (name := own_name_given(user_text)) and name != p.name:
            # before the writer derives this turn, so its note already calls them by it
            self._work.put((turn_id, lambda: self._take_name(name)))
        with self._lock:
            answered, self._answered = self._answered, None
            answer = answered[1] if answered is not None and answered[0] == user_text else None
            self._awaiting = answer.then if answer is not None else None
            if answer is not None:
                self._request_turns.add(turn_id)
        if answer is not None and answer.act is not None:
            act = answer.act
            self._work.put((turn_id, lambda: act(turn_id, now)))
        entities = answer_set(recalled)
        if answer is None and entities:
            self._work.put((turn_id, lambda: p.note_recall(user_text, entities)))
        return user_text, turn_id, now

    def _take_name(self, name: str) -> None:
        """The person's name is now `name`, unless someone else has it (they stay as they were)."""
        pid = self.person.person_id
        if any(other != pid for other, _ in self.store.people_named(name)):
            log.info("not renaming the desk's person: someone else is called that")
            return
        self.store.name_person(pid, name)
        self.person.name = note_name(name)

    def finish_turn(self, turn: tuple[str, int, datetime], reply_text: str, audio=None) -> None:
        """Commit what was heard of the reply, then, in the background, how the turn was said (from
        its audio, where it was heard) and the memory derived from it."""
        p = self.person
        if reply_text.strip():
            self.store.add_turn(p.person_id, p.session_id, "assistant", reply_text, self.clock())
        text, turn_id, now = turn
        with self._lock:
            request = turn_id in self._request_turns
        if audio is not None:
            self._work.put((turn_id, lambda: self.person.hear_voice(text, turn_id, audio)))
        if not request:
            self._work.put((turn_id, lambda: self.person.derive(text, turn_id, now)))

    def remember(self, user_text: str, reply_text: str) -> None:
        """Both at once, for text turns (benchmarks, seeding)."""
        self.finish_turn(self.begin_turn(user_text), reply_text)

    def _write(self) -> None:
        while (item := self._work.get()) is not None:
            turn_id, work = item
            try:
                work()
            except Exception as exc:  # the raw turn is safe; a failed derivation must not stop the loop
                # the message may quote what was said: the traceback only at debug level
                log.error("writing memory from turn %s failed (%s)", turn_id, type(exc).__name__)
                log.debug("writing memory from turn %s failed", turn_id, exc_info=True)
            finally:
                self._work.task_done()

    def flush(self) -> None:
        """Wait until every turn so far has been turned into memory."""
        self._work.join()

    def end_session(self) -> None:
        self.flush()
        self.person.end_session()
        self._work.put(None)
        self._writer.join(timeout=30)


def person_id_for(store: MemoryStore, name: str) -> int:
    """The person with this name, created if new."""
    found = store.find_person(name)
    return found if found is not None else store.add_person(name)


def names_no_one(config: Config) -> bool:
    """config.person is the placeholder ("me"): the desk's person is known by no name until they give it."""
    return not note_name(config.person)


def desk_person_id(store: MemoryStore, config: Config) -> int:
    """The desk's own person: the one config.person names, or, while that names no one, the one
    person Hearth knows by the name they gave, if any (memory/schema.py, version 6)."""
    return store.desk_owner(config.person) if names_no_one(config) else person_id_for(store, config.person)


def open_memory_store(config: Config, engines) -> MemoryStore | None:
    """The user's memory database, or None when memory is off."""
    if not config.memory or engines.embedder is None:
        return None
    return open_store(config.data_path, engines.embedder)


def session_memory(store: MemoryStore | None, config: Config, engines, person: str | None = None,
                   clock: Callable[[], datetime] = datetime.now) -> LoopMemory | None:
    """A new session of one person's memory, or None without a store."""
    if store is None:
        return None
    pid = person_id_for(store, person) if person else desk_person_id(store, config)
    return LoopMemory(store, pid, llm=engines.llm,
                      llm_gate=engines.llm_gate, clock=clock, budget_tokens=config.memory_budget_tokens,
                      learns_name=not person and names_no_one(config),
                      cluster_coherence=config.cluster_coherence if config.clusters else None)
