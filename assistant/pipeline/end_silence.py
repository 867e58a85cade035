"""How long a silence ends the turn, judged from what the person has said so far and, with the
end-of-turn model (models/turn_end.py), from how it sounded. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from text.words import ends_hanging, ends_sentence

FINISHED = 0.5  # the end-of-turn model's probability from which a turn sounds finished
# From this probability the model is sure: the turn ends on the short silence without waiting for
# its whole transcript (on the shared clips no cut mid-sentence sounded above 0.93).
SURE = 0.95
# Below FINISHED but from this, the model is unsure: a whole transcript that ends a sentence then
# waits the base silence, as the words alone would, not the long one.
UNSURE = 0.25
# Whisper often leaves a short answer without its mark ("Seven of clubs", "No thanks"): a whole
# transcript ends no sentence only from this many words.
SENTENCE_WORDS = 5


@dataclass(frozen=True)
class EndSilence:
    """The silence that ends the turn, and why: "question" or "hanging" (how the words end),
    "unfinished" (how the end-of-turn model heard it), "finished" (so it sounded, and its whole
    transcript ends a sentence), "unended" (it sounded finished, but its transcript ends no
    sentence), "pending" (it sounded finished; its whole transcript is still to come), "words"
    (no model, and no cue in the words), "sure" (it sounded finished beyond doubt), "doubtful" (the
    model was unsure, and the whole transcript ends a sentence)."""

    ms: int
    why: str


def words_cue(partial: str) -> str | None:
    """"hanging" after a trailing word, comma or ellipsis, "question" after a question mark, else None.

    Whisper's punctuation in a partial is a weak signal, so only a question mark counts."""
    text = partial.strip()
    if text.endswith(("...", "…", "-", ",")):
        return "hanging"
    if text.endswith("?"):  # before the hanging word: "Where are you from?" is finished
        return "question"
    if text and ends_hanging(text):
        return "hanging"
    return None


def end_silence_for(partial: str, base_ms: int, shorter_ms: int | None = None, longer_ms: int | None = None) -> int:
    """Shorter after a finished question, longer after a trailing word or an ellipsis, else the base."""
    return _by_cue(words_cue(partial), base_ms, shorter_ms, longer_ms)


def _by_cue(cue: str | None, base_ms: int, shorter_ms: int | None = None, longer_ms: int | None = None) -> int:
    if cue == "hanging":
        return longer_ms if longer_ms is not None else int(base_ms * 1.6)
    if cue == "question":
        return shorter_ms if shorter_ms is not None else max(200, int(base_ms * 0.7))
    return base_ms


def end_silence_heard(partial: str, finished: float | None, base_ms: int, finished_ms: int,
                      unfinished_ms: int, whole: bool = False) -> EndSilence:
    """The silence that ends the turn once the voice has stopped. `finished`: the end-of-turn
    model's probability that the turn is finished, heard at the silence's start (None without the
    model: the words alone decide). Words that leave the thought hanging ("and…", "the") wait the
    long silence whatever the model heard, a question the short one; otherwise the model decides:
    a person thinking mid-sentence ("I was thinking… maybe Lisbon") is waited for, one who has
    finished is not kept waiting.

    `whole`: `partial` is the transcript of the whole utterance, made in the silence, not a partial
    cut mid-word. A turn that sounds finished ends on the short silence only once that transcript
    ends a sentence: Whisper ends a finished sentence with its mark (nine in ten of the shared
    speakers' recordings) and leaves half of those cut mid-sentence without one, where the model
    hears a third of them as finished ("You who were always accusing"). Until the transcript comes,
    the base silence ("pending"); five words or more that end no sentence, the long one ("unended").
    A model sure of the end needs no transcript; one unsure of it (read speech ends flat) is
    outweighed by a transcript that ends a sentence, which then waits the base silence."""
    cue = words_cue(partial)
    by_words = _by_cue(cue, base_ms)
    if finished is None:
        return EndSilence(by_words, cue or "words")
    if cue == "hanging":
        return EndSilence(max(unfinished_ms, by_words), cue)  # never shorter than the words alone would wait
    if cue == "question":
        return EndSilence(finished_ms, cue)
    if finished >= SURE:
        return EndSilence(finished_ms, "sure")
    if finished < FINISHED:
        if whole and finished >= UNSURE and ends_sentence(partial):
            return EndSilence(by_words, "doubtful")
        return EndSilence(max(unfinished_ms, by_words), "unfinished")
    if not whole:
        return EndSilence(max(finished_ms, by_words), "pending")
    if not ends_sentence(partial) and len(partial.split()) >= SENTENCE_WORDS:
        return EndSilence(max(unfinished_ms, by_words), "unended")
    return EndSilence(finished_ms, "finished")
