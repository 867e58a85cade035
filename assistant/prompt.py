"""The prompt: a short system prompt for a warm, brief, spoken style, then recent turns."""

from __future__ import annotations

from dataclasses import dataclass, field

SYSTEM_PROMPT = (
    "You are Hearth, a friendly voice assistant on the user's desk. Everything you say is spoken "
    "aloud, so answer warmly in one or two short, plain sentences."
)


@dataclass
class History:
    """The session's recent turns, newest last. Only what was actually spoken is kept.

    The history is the cached prefix of every prompt, so it changes at its start as rarely as
    possible: when it outgrows max_turns, the older half goes at once (a window sliding by one turn
    would make llama.cpp evaluate the whole history again on every turn). Replies are kept to
    their first words; what matters for the next turn is the gist.
    """

    max_turns: int = 6
    max_reply_words: int = 40
    turns: list[tuple[str, str]] = field(default_factory=list)  # (user text, assistant text)

    def add(self, user: str, assistant: str) -> None:
        words = assistant.split()
        if len(words) > self.max_reply_words:
            assistant = " ".join(words[: self.max_reply_words]) + "…"
        self.turns.append((user, assistant))
        if len(self.turns) > self.max_turns:
            del self.turns[: len(self.turns) - max(1, self.max_turns // 2)]


def build_messages(user_text: str, history: History, memory_block: str = "", speaker: str | None = None) -> list[dict]:
    """Ordered so llama.cpp can reuse its cache: what changes least comes first.

    The system prompt and the history are a prefix shared with the previous turn's prompt; the
    memory notes, which change every turn, come last, in the person's message just before what
    they said, so only they and the new words need evaluating. (Small models use notes there far
    more reliably than in a system message; the history keeps only the words actually said.)
    """
    system = SYSTEM_PROMPT
    if speaker:
        system += f" You are talking with {speaker}."
    messages = [{"role": "system", "content": system}]
    for user, assistant in history.turns:
        messages.append({"role": "user", "content": user})
        messages.append({"role": "assistant", "content": assistant})
    content = f"What you remember about me:\n{memory_block}\n\n{user_text}" if memory_block else user_text
    messages.append({"role": "user", "content": content})
    return messages
