"""A language model on a server that speaks the OpenAI chat-completions API."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from contextlib import nullcontext
from typing import Callable, ContextManager, Generator

from . import ModelError
from .llm import Message


class OpenAICompatChat:
    """Any server that speaks the OpenAI chat-completions API (llama.cpp server, Ollama, vLLM).

    Used only when the user configures an endpoint: nothing connects anywhere by default.
    """

    def __init__(self, base_url: str, model: str = "default", api_key: str = "", timeout: float = 20.0) -> None:
        """timeout: seconds the server may stay silent, before its first word or between two."""
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.last_prompt_tokens = (0, 0)
        self.cut_at_limit = False
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
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError):
                raise ModelError(f"language model server {self.url} did not answer within {self.timeout:g} s") from None
            raise ModelError(f"language model server {self.url} unreachable: {reason}") from None

    def stream(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.7,
               avoid: str = "", never_open_with: tuple[str, ...] = (),
               schema: dict | None = None) -> Generator[str, None, None]:
        # (`avoid` and `never_open_with` are not passed on: a server's token ids are its own, and its
        # model is seldom this small)
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                "temperature": temperature, "stream": True, **_held_to(schema)}
        finished = False
        self.cut_at_limit = False
        with self._request(body) as response:
            try:
                for raw in response:
                    line = raw.decode("utf-8", "replace").strip()
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        finished = True
                        break
                    choice = json.loads(data)["choices"][0]
                    self.cut_at_limit = choice.get("finish_reason") == "length"
                    piece = choice.get("delta", {}).get("content")
                    if piece:
                        yield piece
            except TimeoutError:
                raise ModelError(f"language model server {self.url} stalled mid-reply: nothing for {self.timeout:g} s"
                                 ) from None
            except (OSError, http.client.HTTPException) as exc:
                raise ModelError(f"language model server {self.url} stopped mid-reply: {exc}") from None
        # every OpenAI-compatible server ends a stream with [DONE]: without it, the server went away
        if not finished:
            raise ModelError(f"language model server {self.url} stopped mid-reply")

    def prefill(self, messages: list[Message], stop: Callable[[], bool] | None = None) -> bool:
        """A remote server keeps its own cache; nothing to do ahead of time."""
        return True

    def cache_kept(self) -> ContextManager[None]:
        return nullcontext()  # the server's cache is its own

    def complete(self, messages: list[Message], max_tokens: int = 160, temperature: float = 0.0,
                 schema: dict | None = None) -> str:
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": temperature,
                **_held_to(schema)}
        with self._request(body) as response:
            try:
                return json.loads(response.read())["choices"][0]["message"]["content"] or ""
            except TimeoutError:
                raise ModelError(f"language model server {self.url} did not answer within {self.timeout:g} s"
                                 ) from None


def _held_to(schema: dict | None) -> dict:
    """A JSON schema for the answer as llama.cpp's servers take it (json_object with a schema, held to it
    by a grammar); a server that knows only JSON mode still answers in JSON, which the caller checks."""
    return {"response_format": {"type": "json_object", "schema": schema}} if schema else {}
