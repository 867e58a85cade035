"""Hearth's word rules (text/words.py), and the date arithmetic memory takes from python-dateutil."""

from __future__ import annotations

from datetime import date

import pytest

from assistant.pipeline.end_silence import end_silence_for
from memory.dates import resolve_dates
from text.words import as_digits, count_of, count_phrase, ends_hanging, ends_sentence, sentence_ends, split_sentences


def test_a_sentence_ends_at_an_end_mark_once_the_next_has_begun():
    assert list(sentence_ends("It rained. Then")) == [len("It rained. ")]
    assert list(sentence_ends("It rained.")) == []  # the next may still be the same sentence ("3.5")


@pytest.mark.parametrize("text", ["Ask Dr. Patel about it", "It cost 3.50 in the end", "Ask J. Smith",
                                  "Bring fruit, e.g. apples"])
def test_abbreviations_decimals_and_initials_end_no_sentence(text):
    assert list(sentence_ends(text + " ")) == []


def test_a_whole_text_splits_into_its_sentences_and_lines():
    assert split_sentences("We met Mr. Brown. He was kind!\nA new line\n\n") == \
        ["We met Mr. Brown.", "He was kind!", "A new line"]


@pytest.mark.parametrize("text, ends", [("I went home.", True), ("Is it far? ", True), ('He said "no!"', True),
                                        ("I went home", False), ("I went home,", False), ("We met Mr.", False),
                                        ("", False)])
def test_a_text_that_ends_a_sentence(text, ends):
    assert ends_sentence(text) is ends


def test_a_thought_left_hanging():
    assert ends_hanging("and then I went to the")
    assert ends_hanging("I was talking to my...")
    assert not ends_hanging("I went home")
    assert not ends_hanging("")


@pytest.mark.parametrize("text", ["made still more respectable than he was.", "I called her.", "Come in.",
                                  "I'd love to!", "Is that so?"])
def test_a_word_that_may_end_a_sentence_ends_it_before_its_full_stop(text):
    assert not ends_hanging(text)


@pytest.mark.parametrize("text", ["He said that the.", "Me and my sister and.", "I'd love to...", "I'd love to",
                                  "Then I went to her"])
def test_a_full_stop_after_a_cut_leaves_the_thought_hanging(text):
    assert ends_hanging(text)


def test_counts_in_words_and_digits():
    assert [count_of(w) for w in ("3", "three", "a", "couple of", "Twelve")] == [3, 3, 1, 2, 12]
    assert count_phrase(1, "day") == "one day"
    assert count_phrase(3, "week") == "three weeks"
    assert count_phrase(25, "year") == "25 years"


def test_number_words_read_as_digits_and_other_words_as_they_are():
    assert [as_digits(w) for w in ("four", "Twelve", "4", "dog", "a")] == ["4", "12", "4", "dog", "a"]


def test_a_question_ends_sooner_even_on_a_word_that_would_leave_a_statement_hanging():
    assert end_silence_for("Where are you from?", 800) < 800
    assert end_silence_for("I came here from", 800) > 800


@pytest.mark.parametrize("text,said_on,expected", [
    ("in a month", date(2026, 1, 31), date(2026, 2, 28)),  # the end of the shorter month
    ("in a month", date(2028, 1, 31), date(2028, 2, 29)),  # a leap year
    ("in two months", date(2026, 5, 30), date(2026, 7, 30)),  # not clamped to the 28th
    ("a year ago", date(2028, 2, 29), date(2027, 2, 28)),
    ("next Friday", date(2026, 12, 4), date(2026, 12, 11)),  # said on a Friday: a week on
    ("last Friday", date(2026, 12, 4), date(2026, 11, 27)),
])
def test_date_arithmetic(text, said_on, expected):
    assert resolve_dates(text, said_on)[0].when == expected


def test_a_greeting_that_opens_a_turn_and_the_one_it_greets():
    from text.words import opening_greeting
    said = "Hi Har, I'm Priya."
    assert opening_greeting(said) == (len("Hi Har, "), "Har")  # Hearth's name misheard (live)
    assert opening_greeting("Good morning, Hearth. My dog…")[1] == "Hearth"
    assert opening_greeting("Hello there! My dog…") == (len("Hello there! "), "")
    assert opening_greeting("Hey, Mum said no.") == (len("Hey, "), "")  # Mum is told of, not greeted
    assert opening_greeting("Hiking is fun.") == (0, "") and opening_greeting("Hi Sam started school") == (0, "")


def test_a_turn_that_opens_with_a_greeting_however_it_goes_on():
    from text.words import opens_with_greeting
    assert opens_with_greeting("Hello again, can you remind me of something?")
    assert opens_with_greeting("good morning hearth") and opens_with_greeting("Hey there")
    assert not opens_with_greeting("Hiking is fun.") and not opens_with_greeting("I said hello to her.")
