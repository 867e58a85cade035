"""Language models behind one small interface: llama.cpp on a local GGUF (models/llm_local.py), or
an OpenAI-compatible server (models/llm_server.py)."""

from __future__ import annotations

from typing import Callable, ContextManager, Generator, Protocol, Sequence

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}

# A prefill evaluates this many prompt tokens at a time and looks between two batches whether it
# should stop (about 0.1-0.2 s each here): a reply never waits long for a speculative evaluation.
# With repeatable replies, every prompt is evaluated in batches of this many tokens, each begun at
# a multiple of it (LlamaCppChat._keep_whole_batches).
EVAL_BATCH = 32


class ChatModel(Protocol):
    name: str
    # For the last stream(): prompt tokens found in the model's cache, and tokens evaluated before
    # its first piece ((0, 0) where unknown, as for a remote server). Shows when a cache missed.
    last_prompt_tokens: tuple[int, int]
    # The last stream() ended because it reached max_tokens, not because the model finished: its
    # last sentence may be cut off mid-way (False where unknown).
    cut_at_limit: bool

    def stream(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.7,
               avoid: str = "", never_open_with: tuple[str, ...] = (),
               schema: dict | None = None) -> Generator[str, None, None]:
        """Yield the reply's text piece by piece as it is generated. `schema`: a JSON schema the
        answer is held to (llama.cpp's grammar; a server's response_format), for judgements the
        memory writer reads back. `avoid`: replies begun and thrown
        away, one per line; the new one may not begin with their first tokens (where the model allows).
        `never_open_with`: openings the reply may not begin with, word for word (where the model
        allows); it may begin with their first words otherwise ("You were…" past "You're right").
        A generator: close() stops the generation."""

    def complete(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.0,
                 schema: dict | None = None) -> str: ...

    def prefill(self, messages: list[Message], stop: Callable[[], bool] | None = None) -> bool:
        """Optional: evaluate a prompt ahead of time (a no-op where the model is remote), giving up
        as soon as stop() says so. True when all of it was evaluated."""

    def next_word_odds(self, text: str, words: Sequence[str]) -> list[float]:
        """Optional (llama.cpp only): the log-probability of each word coming next after `text`, read
        as plain text (the memory writer's check of which way a feeling goes, memory/implied.py)."""

    def sentence_vector(self, text: str):
        """Optional (llama.cpp only): the model's hidden states over the text, averaged and
        L2-normalised, a numpy vector (the memory writer reads a feeling from it, memory/feelings.py)."""

    def cache_kept(self) -> ContextManager[None]:
        """The model's cache of the next reply's prompt is as it was once the block is done, where
        the model keeps one here (llama.cpp); a context that does nothing elsewhere."""
