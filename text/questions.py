"""What an utterance asks, read from its words alone. Pure: shared by who-is-speaking (a stranger is
told they have not met) and the reply (only what the person said can answer it)."""

from __future__ import annotations

import re

# What only the person's own memories could answer: what they said or did, their things, who they are.
_ABOUT_THEMSELVES = re.compile(r"\b(?:remember|remind me|told you|(?:did|have|had|was|were|am) i\b|who i am)"
                               r"|^\W*(?:what|who|where|when|which|how old|how many)\b[^?.!]*\bmy\b", re.I)


def asks_about_themselves(text: str) -> bool:
    """Whether an utterance asks what Hearth remembers of the speaker ("What was I worried about?",
    "What is my dog called?", "Do you remember me?"): a stranger is told they have not met."""
    return bool(_ABOUT_THEMSELVES.search(" ".join(text.replace("\u2019", "'").split())))
