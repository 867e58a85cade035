"""One language model, two kinds of work: replies come first, background rewrites yield to them.

A reply announces itself with `reply_started()` as soon as its job starts (before transcription), and
holds the model with `foreground()` while generating. While the person is speaking a reply is
about to be wanted, so the loop says so with `listening(True)`. Background work (memory rewrites)
waits until no reply is wanted and nobody is speaking, and a background generation already running
stops at its next token when either begins: a memory rewrite never delays a reply by more than one
token, nor takes the CPU from the partial transcripts and prompt evaluation made while someone talks.
Prompt evaluation ahead of time (`try_foreground`, then a prefill) stops between two batches once
a reply has begun or a partial transcription is running (`ahead_should_stop`): it is there to save
the reply time, not to cost it, and beside Whisper on two cores both ran at half speed or worse.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator


class Preempted(Exception):
    """Background generation stopped because a reply needed the model."""


class _Count:
    """How many of one kind of work are under way; each change wakes whoever waits on the gate."""

    def __init__(self, state: threading.Condition) -> None:
        self.n = 0
        self._state = state

    @contextmanager
    def held(self) -> Iterator[None]:
        self.add(1)
        try:
            yield
        finally:
            self.add(-1)

    def add(self, n: int) -> None:
        with self._state:
            self.n += n
            self._state.notify_all()


class LlmGate:
    def __init__(self) -> None:
        self._model = threading.Lock()
        self._state = threading.Condition()
        self._wanted = _Count(self._state)  # replies under way
        self._ahead = _Count(self._state)  # prompt evaluations ahead of a reply
        self._transcribing = _Count(self._state)  # partial transcriptions while the person speaks
        self._listening = False

    def wanted(self):
        """A reply is under way: background work stands aside until it ends."""
        return self._wanted.held()

    def reply_started(self) -> None:
        """wanted() for a reply that passes from thread to thread: reply_ended() once, when it ends."""
        self._wanted.add(1)

    def reply_ended(self) -> None:
        self._wanted.add(-1)

    @contextmanager
    def foreground(self) -> Iterator[None]:
        with self.wanted(), self._model:
            yield

    @contextmanager
    def try_foreground(self) -> Iterator[bool]:
        """The model if it is free right now (yields True), else nothing (yields False): for
        speculative work that is only worth doing when it costs a reply no wait. Background work
        stands aside meanwhile; a reply does not, so such work should stop at `ahead_should_stop`."""
        with self._ahead.held():
            got = self._model.acquire(blocking=False)
            try:
                yield got
            finally:
                if got:
                    self._model.release()

    def listening(self, speaking: bool) -> None:
        """The person is speaking (True) or has stopped (False); called by the loop every frame."""
        if speaking == self._listening:
            return
        with self._state:
            self._listening = speaking
            self._state.notify_all()

    def transcribing(self):
        """A partial transcription is running: work ahead of a reply gives it the cores."""
        return self._transcribing.held()

    @property
    def ahead_should_stop(self) -> bool:
        """Work ahead of a reply (a prefill) should stop: a reply has begun, or a transcription is
        running whose words the next prefill will want anyway."""
        return self._wanted.n > 0 or self._transcribing.n > 0

    @property
    def reply_waiting(self) -> bool:
        return self._wanted.n > 0 or self._ahead.n > 0 or self._listening

    @contextmanager
    def background(self, timeout: float | None = None) -> Iterator[None]:
        """Hold the model for background work once no reply wants it."""
        while True:
            with self._state:
                if not self._state.wait_for(lambda: not self.reply_waiting, timeout):
                    raise Preempted
            self._model.acquire()
            if not self.reply_waiting:
                break
            self._model.release()  # a reply arrived in between: let it go first
        try:
            yield
        finally:
            self._model.release()


class BackgroundChat:
    """A ChatModel for background work: generation yields to replies, token by token."""

    def __init__(self, llm, gate: LlmGate, wait_seconds: float = 30.0) -> None:
        self._llm, self._gate = llm, gate
        self.name = llm.name
        # A room that never goes quiet must not hold memory writing up for ever: after this long
        # the rewrite gives up (Preempted) and the update falls back to its deterministic form.
        self.wait_seconds = wait_seconds

    def next_word_odds(self, text: str, words) -> list[float] | None:
        """The model's odds of each word coming next (ChatModel.next_word_odds), None where the model
        gives none (a server). One short evaluation, between replies."""
        odds = getattr(self._llm, "next_word_odds", None)
        if odds is None:
            return None
        with self._gate.background(timeout=self.wait_seconds), self._llm.cache_kept():
            return odds(text, words)

    def sentence_vector(self, text: str):
        """The model's sentence vector of the text (ChatModel.sentence_vector), None where the model
        gives none (a server). Between replies: it takes the cores a reply would."""
        vector = getattr(self._llm, "sentence_vector", None)
        if vector is None:
            return None
        with self._gate.background(timeout=self.wait_seconds):
            return vector(text)

    def complete(self, messages, max_tokens: int = 160, temperature: float = 0.0, schema: dict | None = None) -> str:
        # the next reply's cached prompt is put back afterwards, where the model can (llama.cpp)
        with self._gate.background(timeout=self.wait_seconds), self._llm.cache_kept():
            # the prompt first, a batch at a time: a long one would otherwise hold a reply up for seconds
            if not self._llm.prefill(messages, stop=lambda: self._gate.reply_waiting):
                raise Preempted
            pieces = []
            stream = self._llm.stream(messages, max_tokens=max_tokens, temperature=temperature,
                                      **({"schema": schema} if schema else {}))
            try:
                for piece in stream:
                    if self._gate.reply_waiting:
                        raise Preempted
                    pieces.append(piece)
            finally:
                stream.close()
            return "".join(pieces)
