"""The bundled kind of language model: a GGUF file through llama-cpp-python, the one adapter that
reaches into that library's internals (checked at load against the pinned version)."""

from __future__ import annotations

import ctypes
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Generator, Iterator, Sequence

from . import ModelError
from .internals import require_internals
from .llm import EVAL_BATCH, Message


LLAMA_CPP_PINNED = "0.3.36"  # = pyproject.toml's pin; the internals below are this version's
LLAMA_INTERNALS = ("input_ids", "n_tokens", "_requires_eval", "_sampler", "_ctx.ctx", "eval", "metadata",
                   "chat_format", "chat_handler")
LLAMA_CPP_FUNCTIONS = ("llama_state_seq_get_size", "llama_state_seq_get_data", "llama_state_seq_set_data",
                       "llama_chat_format.Jinja2ChatFormatter", "llama_print_system_info",
                       "llama_cpp.llama_model_default_params")


def check_llama_internals(llm, llama_cpp_module) -> None:
    """ModelError if this llama-cpp-python lacks what LlamaCppChat reaches into (models/internals.py);
    llm None: only what it uses of the module (before a model is loaded)."""
    uses = [("llama_cpp", llama_cpp_module, LLAMA_CPP_FUNCTIONS)] + ([("Llama", llm, LLAMA_INTERNALS)] if llm else [])
    require_internals("llama-cpp-python", LLAMA_CPP_PINNED, "models/llm_local.py", uses)


def built_with_amx(system_info: str) -> bool:
    """Whether llama.cpp's CPU backend was compiled with its Intel AMX kernels (llama_print_system_info)."""
    return "AMX_INT8 = 1" in system_info


@contextmanager
def no_amx_repacking(llama_cpp_module) -> Iterator[None]:
    """Load a model with no weights repacked for llama.cpp's AMX kernels, where it has them.

    A build on a CPU with Intel AMX (make compiles llama.cpp for the CPU it runs on) repacks weights
    for those kernels, which segfaulted at the first evaluation on a Xeon here (in a VM), as they do
    for others on some such CPUs (ggml-org/llama.cpp#20824, closed unfixed). Loading with no extra
    buffer types repacks nothing; on a build without AMX it made no measurable difference to the
    bundled model (a 480-token prompt 2.40 against 2.42 s, a token 109 against 108 ms), so elsewhere
    the library's default stands. llama-cpp-python's Llama takes no such argument: its defaults are
    amended while it loads."""
    if not built_with_amx(llama_cpp_module.llama_print_system_info().decode(errors="replace")):
        yield
        return
    module = llama_cpp_module.llama_cpp
    default = module.llama_model_default_params

    def no_extra_buffers():
        params = default()
        params.use_extra_bufts = False
        return params

    module.llama_model_default_params = no_extra_buffers
    try:
        yield
    finally:
        module.llama_model_default_params = default


class LlamaCppChat:
    """A GGUF file through llama-cpp-python. The prompt prefix stays in llama.cpp's KV cache between calls."""

    def __init__(self, path: Path, context: int = 4096, threads: int = 2, seed: int = 7,
                 repeatable: bool = False) -> None:
        """repeatable: a reply follows from its prompt alone, whatever was evaluated before it
        (_keep_whole_batches), at the cost of evaluating up to EVAL_BATCH - 1 tokens again."""
        from llama_cpp import Llama

        path = Path(path)
        if not path.is_file():
            raise ModelError(f"language model file not found: {path}")
        with open(path, "rb") as f:
            if f.read(4) != b"GGUF":
                raise ModelError(f"not a GGUF model file: {path}")
        import llama_cpp

        check_llama_internals(None, llama_cpp)
        with no_amx_repacking(llama_cpp):
            try:
                self._llm = Llama(model_path=str(path), n_ctx=context, n_threads=threads, n_threads_batch=threads,
                                  n_batch=EVAL_BATCH if repeatable else 512, seed=seed, verbose=False)
            except Exception as exc:
                raise ModelError(f"cannot load the language model {path}: {str(exc).splitlines()[0]}") from None
        check_llama_internals(self._llm, llama_cpp)
        self.name = path.name
        # Every completion samples from this seed, so a reply follows from its prompt alone (not from
        # how many completions came before it, as llama-cpp-python's own seed chain would have it).
        self.seed = seed
        self.last_prompt_tokens = (0, 0)
        self.cut_at_limit = False
        self.repeatable = repeatable
        self._formatter = self._chat_formatter()
        self._path, self._threads = path, threads
        self._vectors = None  # a second context of the same file, for sentence vectors (made on first use)

    def stream(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.7,
               avoid: str = "", never_open_with: tuple[str, ...] = (),
               schema: dict | None = None) -> Generator[str, None, None]:
        self._keep_whole_batches(messages)
        cached = self._llm.input_ids[: self._llm.n_tokens].copy()  # what the KV cache holds now
        # A reply's first token, unspaced, stands only at its start (later words carry a space), so
        # banning it changes how the reply begins and little else. One start thrown away per line.
        first = [self._llm.tokenize(start.strip().encode("utf-8"), add_bos=False)[0]
                 for start in avoid.splitlines() if start.strip()]
        openings = [self._llm.tokenize(o.encode("utf-8"), add_bos=False) for o in never_open_with]
        # (one processor for both: llama-cpp-python drops every processor when given logit_bias too)
        chunks = self._llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=temperature,
                                                  top_p=0.9, repeat_penalty=1.1, seed=self.seed, stream=True,
                                                  logits_processor=_reply_start(first, openings)
                                                  if first or openings else None,
                                                  response_format=_held_to(schema))
        self.cut_at_limit = False
        try:
            for chunk in chunks:
                if cached is not None:  # the prompt is evaluated by the first chunk
                    self.last_prompt_tokens = self._reuse(cached)
                    cached = None
                choice = chunk["choices"][0]
                self.cut_at_limit = choice.get("finish_reason") == "length"
                piece = choice["delta"].get("content")
                if piece:
                    yield piece
        finally:
            chunks.close()
            self._free_sampler()

    def _reuse(self, cached) -> tuple[int, int]:
        """(tokens the prompt shared with the cache, tokens evaluated since); the second includes the
        one or two reply tokens evaluated before the first piece came out."""
        now = self._llm.input_ids[: self._llm.n_tokens]
        shared = _shared_prefix(cached, now)
        return shared, len(now) - shared

    def complete(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.0,
                 schema: dict | None = None) -> str:
        self._keep_whole_batches(messages)
        try:
            out = self._llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=temperature,
                                                   seed=self.seed, response_format=_held_to(schema))
        finally:
            self._free_sampler()
        return out["choices"][0]["message"]["content"] or ""

    def next_word_odds(self, text: str, words: Sequence[str]) -> list[float]:
        """The log-probability of each word (its first token, after a space) coming next after `text`,
        read as plain text, not a chat: how the model would go on."""
        import numpy as np
        from llama_cpp import LogitsProcessorList

        ids = [self._llm.tokenize((" " + w).encode("utf-8"), add_bos=False)[0] for w in words]
        seen: list = []

        def capture(input_ids, scores):
            if not seen:
                seen.append(np.array(scores, dtype=np.float64))
            return scores

        try:
            self._llm.create_completion(prompt=text, max_tokens=1, temperature=0.0, seed=self.seed,
                                        logits_processor=LogitsProcessorList([capture]))
        finally:
            self._free_sampler()
        logits = seen[0]
        top = logits.max()
        log_probs = logits - top - np.log(np.exp(logits - top).sum())
        return [float(log_probs[i]) for i in ids]

    def sentence_vector(self, text: str):
        """The mean of the model's last hidden states over the text's tokens, L2-normalised (float32):
        what the memory writer reads a feeling from (memory/feelings.py). llama.cpp gives hidden states
        only from a context made for them, so a second one of the same file is loaded on first use."""
        import llama_cpp
        import numpy as np
        from llama_cpp import Llama

        if self._vectors is None:
            with no_amx_repacking(llama_cpp):
                try:
                    self._vectors = Llama(model_path=str(self._path), embedding=True, n_ctx=512,
                                          n_threads=self._threads, n_threads_batch=self._threads, verbose=False)
                except Exception as exc:
                    raise ModelError(f"cannot load {self._path} for sentence vectors: "
                                     f"{str(exc).splitlines()[0]}") from None
        # (no pooling set: one vector a token, averaged here, as llama.cpp's mean pooling would)
        tokens = np.asarray(self._vectors.create_embedding(text.strip() or " ")["data"][0]["embedding"],
                            dtype=np.float32)
        vector = tokens.mean(axis=0) if tokens.ndim == 2 else tokens
        return vector / max(float(np.linalg.norm(vector)), 1e-9)

    def _free_sampler(self) -> None:
        """llama-cpp-python makes a sampler for every completion and leaves the last one to Python's
        cyclic garbage collector (it refers to itself), which in a long session runs seldom: with
        the collector held off, twenty short replies left 35 MB of native memory behind."""
        sampler, self._llm._sampler = self._llm._sampler, None
        if sampler is not None:
            sampler.close()

    def prefill(self, messages: list[Message], stop: Callable[[], bool] | None = None) -> bool:
        """Evaluate a prompt now so a later one that starts the same way only evaluates what differs
        (llama-cpp-python keeps the longest common prefix of its last prompt in the KV cache).

        Evaluated a batch at a time, so it stops soon after stop() turns true: what was evaluated by
        then stays in the cache, and the reply that wanted the model does not wait for the rest."""
        if self._formatter is None:  # a chat format this cannot tokenize alike: in one piece
            self._llm.create_chat_completion(messages=messages, max_tokens=1, temperature=0.0)
            return True
        llm = self._llm
        tokens = self._prompt_tokens(messages)
        if self.repeatable:
            self._keep_whole_batches(messages, tokens)
        else:
            same = _shared_prefix(llm.input_ids[: llm.n_tokens], tokens)
            if same == len(tokens) and llm.n_tokens > same:
                same -= 1  # the model's last logits are for a later token: evaluate the prompt's last again
            llm.n_tokens = same  # eval() drops the cache after this
        for start in range(llm.n_tokens, len(tokens), EVAL_BATCH):
            if stop is not None and stop():
                return False
            llm.eval(tokens[start:start + EVAL_BATCH])
        return True

    def _keep_whole_batches(self, messages: list[Message], tokens=None) -> None:
        """Keep of the KV cache only the whole batches the prompt shares with it.

        A token's cached values differ in their last bits with the batch it was evaluated in, and a
        greedy reply can follow those bits: the same conversation got other words when its prompt had
        been evaluated ahead in other pieces (partial transcripts come as the machine's speed allows;
        a test finds what the tests before it left). So every batch begins at a multiple of
        EVAL_BATCH, and the last, unfilled batch of a prompt is never kept for the next one: a reply
        then follows from its prompt alone. It costs re-evaluating at most EVAL_BATCH - 1 tokens,
        except where this very prompt was the last evaluated (a prefill while the person spoke):
        measured on the shared clips, speech end to first audio 617 → 810 ms at p50, so it is a
        setting (repeatable_replies), on for the tests, off by default."""
        if not self.repeatable or self._formatter is None:  # (a chat format this cannot tokenize alike)
            return
        llm = self._llm
        tokens = self._prompt_tokens(messages) if tokens is None else tokens
        shared = _shared_prefix(llm.input_ids[: llm.n_tokens], tokens)
        if shared == len(tokens) == llm.n_tokens and not llm._requires_eval:
            return  # its last batch, and the logits from it, are the prompt's own
        keep = shared // EVAL_BATCH * EVAL_BATCH
        if keep >= len(tokens):
            keep -= EVAL_BATCH  # the first reply token's logits come from the prompt's own last batch
        llm.n_tokens = max(keep, 0)  # llama-cpp-python drops the cache past n_tokens before it evaluates
        llm._requires_eval = True

    @contextmanager
    def cache_kept(self) -> Iterator[None]:
        """Put the KV cache back as it was once the block is done.

        A memory rewrite between two replies evaluates a prompt of its own, which would leave the next
        reply to evaluate its system prompt, history and notes again (one to three seconds here). The
        cache of a few hundred tokens is a few MB and is copied out and back in milliseconds."""
        import llama_cpp

        llm = self._llm
        ctx = llm._ctx.ctx
        size = llama_cpp.llama_state_seq_get_size(ctx, 0)
        state = (ctypes.c_uint8 * size)()
        kept = llama_cpp.llama_state_seq_get_data(ctx, state, size, 0) == size
        tokens = llm.input_ids[: llm.n_tokens].copy()
        try:
            yield
        finally:
            if kept and llama_cpp.llama_state_seq_set_data(ctx, state, size, 0) == size:
                llm.input_ids[: len(tokens)] = tokens
                llm.n_tokens = len(tokens)
            else:  # nothing trustworthy in the cache: the next prompt is evaluated whole
                llm.n_tokens = 0
            llm._requires_eval = True  # the last logits are not the restored prompt's

    @property
    def cached_tokens(self) -> int:
        """Tokens in the KV cache now (the prompt evaluated so far, and any reply after it)."""
        return self._llm.n_tokens

    def count_prompt_tokens(self, messages: list[Message]) -> int:
        """The prompt's length in tokens (for a model with its own chat template in the GGUF file)."""
        if self._formatter is None:
            raise ModelError(f"{self.name}: cannot count prompt tokens for chat format {self._llm.chat_format}")
        return len(self._prompt_tokens(messages))

    def _chat_formatter(self):
        """The prompt template create_chat_completion uses, where it is the model's own (GGUF) one."""
        from llama_cpp import llama_chat_format

        llm = self._llm
        template = llm.metadata.get("tokenizer.chat_template")
        if llm.chat_format != "chat_template.default" or llm.chat_handler is not None or not template:
            return None
        def text(token: int) -> str:
            return llm.detokenize([token], special=True).decode("utf-8", "replace") if token != -1 else ""

        return llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=text(llm.token_eos()),
                                                     bos_token=text(llm.token_bos()),
                                                     stop_token_ids=[llm.token_eos()])

    def _prompt_tokens(self, messages: list[Message]):
        import numpy as np

        formatted = self._formatter(messages=messages)
        return np.array(self._llm.tokenize(formatted.prompt.encode("utf-8"), add_bos=not formatted.added_special,
                                           special=True), dtype=np.intc)


def _held_to(schema: dict | None) -> dict | None:
    """llama-cpp-python's response_format for a JSON schema (it compiles it to a grammar)."""
    return {"type": "json_object", "schema": schema} if schema else None


def _reply_start(first: list[int], openings: list[list[int]]):
    """A logits processor (llama-cpp-python's) for how a reply may begin: never with a token of
    `first`, nor with any of the token sequences of `openings` (only each one's last token is
    banned, and only right after the rest of it, so the reply may share their first words)."""
    import numpy as np

    start: list[int] = []  # where the reply begins in the ids it is shown (the prompt's end)

    def process(input_ids, scores):
        if not start:
            start.append(len(input_ids))
        made = list(input_ids[start[0]:])
        if not made:
            scores[first] = -np.inf
        for opening in openings:
            if len(made) == len(opening) - 1 and made == opening[:-1]:
                scores[opening[-1]] = -np.inf
        return scores

    from llama_cpp import LogitsProcessorList

    return LogitsProcessorList([process])


def _shared_prefix(a, b) -> int:
    """How many tokens two token arrays share from their start."""
    n = min(len(a), len(b))
    differ = (a[:n] != b[:n]).nonzero()[0]
    return int(differ[0]) if len(differ) else n
