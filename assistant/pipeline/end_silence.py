"""How long a silence ends the turn, judged from what the person has said so far and, with the
end-of-turn model (models/turn_end.py), from how it sounded. Pure."""

from __future__ import annotations

from text.words import ends_hanging

FINISHED = 0.5  # the end-of-turn model's probability from which a turn sounds finished


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


def end_silence_heard(partial: str, finished: float | None, base_ms: int, finished_ms: int, unfinished_ms: int) -> int:
    """The silence that ends the turn once the voice has stopped. `finished`: the end-of-turn
    model's probability that the turn is finished, heard at the silence's start (None without the
    model: the words alone decide). Words that leave the thought hanging ("and…", "the") wait the
    long silence whatever the model heard, a question the short one; otherwise the model decides:
    a person thinking mid-sentence ("I was thinking… maybe Lisbon") is waited for, one who has
    finished is not kept waiting."""
    by_words = end_silence_for(partial, base_ms)
    if finished is None:
        return by_words
    unfinished = max(unfinished_ms, by_words)  # never shorter than the words alone would wait
    if by_words > base_ms:
        return unfinished
    if by_words < base_ms:
        return finished_ms
    return finished_ms if finished >= FINISHED else unfinished
