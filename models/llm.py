"""Language models behind one small interface: llama.cpp on a local GGUF, or an OpenAI-compatible server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator, Protocol

from . import ModelError

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}


class ChatModel(Protocol):
    name: str
    # For the last stream(): prompt tokens found in the model's cache, and tokens evaluated before
    # its first piece ((0, 0) where unknown, as for a remote server). Shows when a cache missed.
    last_prompt_tokens: tuple[int, int]

    def stream(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.7) -> Iterator[str]:
        """Yield the reply's text piece by piece as it is generated."""

    def complete(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.0) -> str: ...

    def prefill(self, messages: list[Message]) -> None:
        """Optional: evaluate a prompt ahead of time (a no-op where the model is remote)."""


class LlamaCppChat:
    """A GGUF file through llama-cpp-python. The prompt prefix stays in llama.cpp's KV cache between calls."""

    def __init__(self, path: Path, context: int = 4096, threads: int = 2, seed: int = 7) -> None:
        from llama_cpp import Llama

        path = Path(path)
        if not path.is_file():
            raise ModelError(f"language model file not found: {path}")
        with open(path, "rb") as f:
            if f.read(4) != b"GGUF":
                raise ModelError(f"not a GGUF model file: {path}")
        try:
            self._llm = Llama(model_path=str(path), n_ctx=context, n_threads=threads, n_threads_batch=threads,
                              seed=seed, verbose=False)
        except Exception as exc:
            raise ModelError(f"cannot load the language model {path}: {str(exc).splitlines()[0]}") from None
        self.name = path.name
        self.last_prompt_tokens = (0, 0)

    def stream(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.7) -> Iterator[str]:
        cached = self._llm.input_ids[: self._llm.n_tokens].copy()  # what the KV cache holds now
        chunks = self._llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=temperature,
                                                  top_p=0.9, repeat_penalty=1.1, stream=True)
        for chunk in chunks:
            if cached is not None:  # the prompt is evaluated by the first chunk
                self.last_prompt_tokens = self._reuse(cached)
                cached = None
            piece = chunk["choices"][0]["delta"].get("content")
            if piece:
                yield piece

    def _reuse(self, cached) -> tuple[int, int]:
        """(tokens the prompt shared with the cache, tokens evaluated since); the second includes the
        one or two reply tokens evaluated before the first piece came out."""
        now = self._llm.input_ids[: self._llm.n_tokens]
        n = min(len(cached), len(now))
        differ = (cached[:n] != now[:n]).nonzero()[0]
        shared = int(differ[0]) if len(differ) else n
        return shared, len(now) - shared

    def complete(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.0) -> str:
        out = self._llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=temperature)
        return out["choices"][0]["message"]["content"] or ""

    def prefill(self, messages: list[Message]) -> None:
        """Evaluate a prompt now so a later one that starts the same way only evaluates what differs
        (llama-cpp-python keeps the longest common prefix of its last prompt in the KV cache)."""
        self._llm.create_chat_completion(messages=messages, max_tokens=1, temperature=0.0)


class OpenAICompatChat:
    """Any server that speaks the OpenAI chat-completions API (llama.cpp server, Ollama, vLLM).

    Used only when the user configures an endpoint: nothing connects anywhere by default.
    """

    def __init__(self, base_url: str, model: str = "default", api_key: str = "", timeout: float = 60.0) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.last_prompt_tokens = (0, 0)
        self.timeout = timeout
        self.name = f"{model} @ {base_url}"

    def _request(self, body: dict):
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            return urllib.request.urlopen(req, timeout=self.timeout)
        except (urllib.error.URLError, OSError) as exc:
            raise ModelError(f"language model server {self.url} unreachable: {getattr(exc, 'reason', exc)}") from None

    def stream(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.7) -> Iterator[str]:
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                "temperature": temperature, "stream": True}
        with self._request(body) as response:
            for raw in response:
                line = raw.decode("utf-8", "replace").strip()
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                piece = json.loads(data)["choices"][0].get("delta", {}).get("content")
                if piece:
                    yield piece

    def prefill(self, messages: list[Message]) -> None:
        """A remote server keeps its own cache; nothing to do ahead of time."""

    def complete(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.0) -> str:
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": temperature}
        with self._request(body) as response:
            return json.loads(response.read())["choices"][0]["message"]["content"] or ""
