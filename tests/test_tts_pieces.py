"""Piper is given at most MAX_PIECE_WORDS words at a time: onnxruntime's arena grows to fit the
longest input ever voiced and keeps that memory for the rest of the session."""

from __future__ import annotations

from pathlib import Path

from models import bundled
from models.tts import MAX_PIECE_WORDS, PiperSynthesizer, voice_pieces


def words(n: int, comma_after: int | None = None) -> str:
    return " ".join(f"word{i}" + ("," if i + 1 == comma_after else "") for i in range(n))


def test_short_text_is_one_piece():
    assert voice_pieces("Biscuit is a three-year-old beagle.") == ["Biscuit is a three-year-old beagle."]
    assert voice_pieces(words(MAX_PIECE_WORDS)) == [words(MAX_PIECE_WORDS)]
    assert voice_pieces("  ") == []


def test_a_long_run_is_cut_after_its_last_comma_in_reach():
    pieces = voice_pieces(words(30, comma_after=14))
    assert [len(p.split()) for p in pieces] == [14, 16]
    assert pieces[0].endswith("word13,")


def test_a_long_run_without_a_pause_is_cut_at_the_limit():
    pieces = voice_pieces(words(45))
    assert [len(p.split()) for p in pieces] == [MAX_PIECE_WORDS, MAX_PIECE_WORDS, 5]
    assert " ".join(pieces) == words(45)  # nothing lost or repeated


def test_a_comma_too_early_to_help_is_not_a_cut():
    assert [len(p.split()) for p in voice_pieces(words(30, comma_after=3))] == [MAX_PIECE_WORDS, 10]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def test_voicing_a_very_long_sentence_takes_no_more_memory_than_a_short_one():
    # a fresh voice, so that no earlier test has grown its arena already
    tts = PiperSynthesizer(*bundled.piper_voice(), threads=2)
    sentence = ("the quick brown fox jumps over the lazy dog while my friend Dana walks her beagle Biscuit "
                "around the park near the hospital where she works night shifts as a nurse ").split()
    tts.synthesize(" ".join(sentence[:MAX_PIECE_WORDS]) + ".")
    before = rss_mb()
    audio = tts.synthesize(" ".join(sentence * 3) + ".")  # 87 words, about 22 s of speech
    assert len(audio) > 15 * tts.sample_rate
    # measured here: +455 MB when the whole sentence went to Piper at once
    assert rss_mb() - before < 100


def test_the_persons_synthesized_lines_are_the_same_samples_every_time(engines):
    """The demo's, tests' and benchmarks' person is Piper without its random noise: a line made twice
    (with Hearth's own noisy voice used in between) is the same audio, so what Whisper hears of it
    does not change from run to run."""
    import numpy as np

    from assistant.modes.demo import user_lines

    line = ("I quit teaching last week, I'm working at the bakery now.",)
    first = user_lines(engines.tts, line)[0]
    engines.tts.synthesize("Hearth's own reply, said with Piper's noise.")
    again = user_lines(engines.tts, line)[0]
    assert first.size > 16_000 and np.array_equal(first, again)
