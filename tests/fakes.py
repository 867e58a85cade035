"""Stand-ins behind the engines' interfaces, for tests that need one engine to behave exactly so.

Each says why it exists where it is used; the other engines in those tests stay real.
"""

from __future__ import annotations


class ScriptedChat:
    """A language model (models.llm.ChatModel) that always replies with the same words, a word per
    piece: for a test of what happens around a reply of a known length, not of what it says."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.name = "scripted"
        self.last_prompt_tokens = (0, 0)
        self.prompts: list[list[dict]] = []

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid=""):
        self.prompts.append(messages)
        words = self.reply.split(" ")
        for n, word in enumerate(words):
            yield word if n == 0 else " " + word

    def complete(self, messages, max_tokens=160, temperature=0.0) -> str:
        return self.reply

    def prefill(self, messages, stop=None) -> bool:
        return True
