"""Keeping llama.cpp's prompt cache useful: evaluate ahead what the next prompt will begin with.

A miss costs one to two seconds on a 2-core CPU (the notes and the history evaluated again), so the
generating stage asks this for three things: the notes to use (carried on from the last reply's, which
the model has cached), a prefill while the person is still speaking, and a prefill between turns and
at start-up of what the next prompt is likely to share. A prefill only starts when the model is
free (the gate's try_foreground) and stops between two batches once a reply has begun or a partial
transcription starts, so it delays either by one batch at most (the next partial's prefill carries
on from what is cached).
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Sequence

from models import ModelError

from assistant.memory_access.routing import TurnMemory
from assistant.reply.prompt import History, build_messages, carry_notes, renewed_notes

log = logging.getLogger(__name__)


class PromptCache:
    def __init__(self, llm, llm_gate, history: History, memory_budget_tokens: int) -> None:
        self.llm = llm
        self.llm_gate = llm_gate
        self.history = history
        self.budget_tokens = memory_budget_tokens  # between turns, carried notes past this are renewed
        self.limit_tokens = 2 * memory_budget_tokens  # carried notes past this start afresh
        self.last_notes = ""  # the memory notes of the last prompt
        self._last_block = ""  # the notes the last recall made, before they were carried
        self._notes_memory = None  # whose memory they came from
        self._lock = threading.Lock()

    def notes(self, memory: TurnMemory | None, block: str, past: Sequence[str] = ()) -> str:
        """The notes for a prompt: carried on from the last prompt's when they were this person's
        (less what the recall found put in the past since: `past`, prompt.carry_notes)."""
        with self._lock:
            if memory is None or memory is not self._notes_memory:
                return block
            return carry_notes(self.last_notes, block, self.limit_tokens, past)

    def use_notes(self, memory: TurnMemory | None, block: str, past: Sequence[str] = ()) -> str:
        """The notes for a reply's prompt, kept as the ones the next prompt carries on."""
        notes = self.notes(memory, block, past)
        with self._lock:
            self.last_notes, self._notes_memory, self._last_block = notes, memory, block
        return notes

    def prefill_partial(self, partial_text: str, memory: TurnMemory | None, block: str) -> None:
        """While the person speaks: the prompt their words so far make, so the final reply only
        evaluates what changed."""
        self._prefill(build_messages(partial_text, self.history, self.notes(memory, block),
                                     memory.person_name if memory is not None else None))

    def prefill_next(self, speaker: str | None) -> None:
        """Between turns: the system prompt, the history with the turn just added, and the last
        notes (a conversation stays on its topic, and carried notes keep their lines in order). A
        reply to something too short for a partial transcript then evaluates little more than its
        words. Notes grown past one recall's budget are renewed here, while nobody waits."""
        with self._lock:
            self.last_notes = renewed_notes(self.last_notes, self._last_block, self.budget_tokens)
            notes = self.last_notes
        self._prefill(build_messages("", self.history, notes, speaker))

    def warm(self, memory_to_expect: Callable[[], TurnMemory | None]) -> None:
        """At start-up: the system prompt and the notes recalled for what the person said last. The
        first reply carries those notes on and evaluates only its new lines. With no notes to
        expect (nobody known yet, or memory off) the system prompt and its examples alone: most of
        a first prompt, a second of evaluation on a 2-core CPU."""
        try:
            memory = memory_to_expect()
            words = memory.last_words() if memory is not None else ""
            block = memory.recall(words)[0] if words else ""
            if not block:
                self._prefill(build_messages("", self.history, "", memory.person_name if memory is not None else None))
                return
            with self._lock:
                if self._notes_memory is not None:  # the first reply got there first
                    return
                self.last_notes, self._notes_memory, self._last_block = block, memory, block
            self._prefill(build_messages("", self.history, block, memory.person_name))
        except ModelError:  # a model that failed to load or answer says so where a turn or the session meets it
            log.debug("warming the prompt failed", exc_info=True)
        except Exception as exc:  # a warm-up is worth having, not worth failing for
            log.error("warming the prompt failed (%s)", type(exc).__name__)
            log.debug("warming the prompt failed", exc_info=True)

    def _prefill(self, messages: list[dict]) -> None:
        with self.llm_gate.try_foreground() as free:
            if free and not self.llm_gate.ahead_should_stop:  # it would only cut the cache short
                self.llm.prefill(messages, stop=lambda: self.llm_gate.ahead_should_stop)
