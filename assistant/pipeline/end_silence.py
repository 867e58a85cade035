"""How long a silence ends the turn, judged from what the person has said so far. Pure."""

from __future__ import annotations

from text.words import ends_hanging


def end_silence_for(partial: str, base_ms: int, shorter_ms: int | None = None, longer_ms: int | None = None) -> int:
    """Shorter after a finished question, longer after a trailing word or an ellipsis, else the base.

    Whisper's punctuation in a partial is a weak signal, so only a question mark shortens.
    """
    shorter = shorter_ms if shorter_ms is not None else max(200, int(base_ms * 0.7))
    longer = longer_ms if longer_ms is not None else int(base_ms * 1.6)
    text = partial.strip()
    if not text:
        return base_ms
    if text.endswith(("...", "…", "-", ",")):
        return longer
    if text.endswith("?"):  # before the hanging word: "Where are you from?" is finished
        return shorter
    if ends_hanging(text):
        return longer
    return base_ms
