"""What day or time it is, answered from the clock, not by the language model: a person at a desk
asks it, and the model knows no date ("I'm sorry, but I don't know what day it is to me." to "Wait,
what day is it today?", heard live). Pure."""

from __future__ import annotations

import re
from datetime import datetime

# The question whole, to its end: "What day is it (today)?" (Whisper heard the "today" as "to me"),
# "What's the date?", "What's today's date?"; not "What's the date of my interview?"
_END = r"(?:\s+\w+){0,2}\s*(?:[?.!]|$)"
_DAY = re.compile(rf"\bwhat\s+(?:day|date)\s+is\s+it\b{_END}|\bwhat(?:'s|\s+is)\s+(?:the\s+date|today's\s+(?:date|day)|"
                  rf"the\s+day)\b{_END}", re.I)
_TIME = re.compile(rf"\bwhat\s+time\s+is\s+it\b{_END}|\bwhat(?:'s|\s+is)\s+the\s+time\b{_END}", re.I)


def _part_of_day(hour: int) -> str:
    return "in the morning" if hour < 12 else "in the afternoon" if hour < 18 else "in the evening"


def clock_answer(heard: str, now: datetime) -> str | None:
    """The answer to a question of the day, the date or the time of day, or None for anything else."""
    text = " ".join(heard.replace("\u2019", "'").split())
    if _DAY.search(text):
        return f"It's {now:%A}, {now.day} {now:%B %Y}."
    if _TIME.search(text):
        return f"It's {now.hour % 12 or 12}:{now:%M} {_part_of_day(now.hour)}."
    return None
