"""Feelings a turn implies without naming them (memory/feelings.py)."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from memory import PersonMemory, open_store
from memory.feelings import NONE, nearest_feeling


def test_the_nearest_feeling_wins_unless_it_is_the_plain_one_or_nothing_is_alike():
    assert nearest_feeling({"sad": 0.52, "worried": 0.40, NONE: 0.31}) == "sad"
    assert nearest_feeling({"sad": 0.30, NONE: 0.45}) is None  # most like a plain statement
    assert nearest_feeling({"sad": 0.20, NONE: 0.10}) is None  # like nothing at all
    assert nearest_feeling({"happy": 0.36, NONE: 0.33}) is None  # not clearly nearer than a plain statement
    assert nearest_feeling({}) is None


def _written(engines, tmp_path, text: str):
    """The emotion and cause of the memory one turn made."""
    store = open_store(tmp_path, engines.embedder)
    try:
        person = store.add_person("Dana")
        PersonMemory(store, person, llm=None, clock=lambda: datetime(2026, 3, 2, 10)).remember(text, "")
        conn = sqlite3.connect(tmp_path / "hearth.db")
        (item,) = conn.execute("SELECT id FROM items ORDER BY id LIMIT 1").fetchone()
        conn.close()
        version = store.current_version(item)
        return version.emotion, version.cause
    finally:
        store.close()


def test_a_loss_told_without_a_feeling_word_is_written_down_as_sad_with_its_cause(engines, tmp_path):
    emotion, cause = _written(engines, tmp_path / "a", "Our old cat was hit by a car this morning.")
    assert emotion == "sad" and "cat" in cause.lower()


def test_a_plain_fact_is_written_down_with_no_feeling(engines, tmp_path):
    assert _written(engines, tmp_path / "b", "The library opens at nine on Saturdays.") == (None, None)


def test_a_feeling_said_in_words_is_the_one_written(engines, tmp_path):
    emotion, _ = _written(engines, tmp_path / "c", "I'm nervous about the flight to Boston next week.")
    assert emotion == "nervous"
