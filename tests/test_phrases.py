"""text.phrases: the noun phrases of a sentence, and what a sentence that names nothing is about.
Pure (lemminflect's lexicon is a dictionary in the package); the examples are this file's own."""

import pytest

from text.phrases import noun_phrases, topic_of, verb_after


@pytest.mark.parametrize("said, head, phrase", [
    # the subject of a clause
    ("The ferry was late again.", "ferry", "ferry"),
    ("My neighbour's hedge keeps growing over the fence.", "hedge", "neighbour's hedge"),
    ("I couldn't sleep because the boiler broke in the night.", "boiler", "boiler"),
    ("Our old van finally passed its inspection.", "van", "old van"),
    ("The cottage we rented was lovely.", "cottage", "cottage"),
    ("The plumber still hasn't sent the bill.", "plumber", "plumber"),  # was "hasn't", a word the lexicon lacks
    ("The kettle never whistles.", "kettle", "kettle"),
    ("My mom fell and broke her hip.", "mom", "mom"),  # a past after a noun is its verb ("fell" is a noun too)
    ("My saw broke.", "saw", "saw"),  # ("saw" a past too, and "my" a noun in the lexicon)
    ("The shop closes early on Sundays.", "shop", "shop"),
    ("My tomato plants are dying.", "plant", "tomato plants"),
    # a noun made of a verb gives way to what follows "of"
    ("The replacement of my old boiler costs a fortune.", "boiler", "old boiler"),
    ("The announcement of the results was delayed.", "result", "results"),
    # something of the speaker's own, where no clause opens with a thing
    ("I spilled coffee on my laptop this morning.", "laptop", "laptop"),
    ("I've been helping out at my cousin's garage since May.", "garage", "cousin's garage"),
    # a bare plural after a preposition
    ("I can't stand being near wasps.", "wasp", "wasps"),
])
def test_a_turn_is_about_its_subject_else_the_speakers_thing_else_a_bare_plural(said, head, phrase):
    topic = topic_of(said)
    assert (topic.head, topic.phrase) == (head, phrase)
    assert said.lower()[topic.start:].startswith(topic.said)


@pytest.mark.parametrize("said", [
    "It's snowing again.",                          # no thing at all
    "The best thing is that it works.",             # too general to be about
    "Seven of hearts, eight of spades.",            # "of" after a number is no thing spoken of
    "Your advice means a lot to me.",               # "your" things are the assistant's
    "Thanks for the lovely chat!",                  # a passing "the" thing, no subject
    "I want to believe in myself and focus on success.",  # bare singulars: abstract, not a thing
    "I've started learning to play the guitar.",    # "to play" is a verb
    "We're going out on Saturday.",                 # days are when, not what
    "I usually swim on Friday mornings.",           # nor are times said in the plural
    "I've felt like this for three weeks.",
])
def test_nothing_is_guessed_where_no_thing_reads_as_the_topic(said):
    assert topic_of(said) is None


def test_phrases_end_where_a_verb_or_a_clause_begins():
    phrases = noun_phrases("The printer in the office keeps jamming, and my old laptop overheats.")
    assert [(p.opener, p.phrase, p.subject) for p in phrases] == [
        ("the", "printer", False), ("the", "office", False), ("my", "old laptop", True)]
    assert [p.opener for p in noun_phrases("The kettle broke.")] == ["the"]
    assert noun_phrases("The kettle broke.")[0].subject


def test_a_word_both_noun_and_verb_is_a_verb_after_a_word_that_opens_no_phrase():
    for said, before in (("works", "heating"), ("plans", "she"), ("works", "still")):
        assert verb_after(said, before), (before, said)  # "the heating works again": no thing called work
    for said, before in (("works", "the"), ("plans", "anna's"), ("plans", "two"), ("plans", "new")):
        assert not verb_after(said, before), (before, said)
    assert not verb_after("bakery", "heating")  # a word that is no verb
