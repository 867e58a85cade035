"""Which feeling good or bad news implies, from how the words say it stands (memory/appraisal.py):
pure, on sentences written for this test."""

import pytest

from memory.appraisal import Standing, appraised, lean, standing


@pytest.mark.parametrize("said, cues", [
    ("The scan came back clear.", [Standing.AVERTED]),
    # home from hospital: heard live as worry ("The doctors say she can come home next week.")
    ("Dad was discharged this morning.", [Standing.AVERTED]),
    ("He can go home on Friday.", [Standing.AVERTED]),
    ("The roof held, so we won't have to move out after all.", [Standing.AVERTED, Standing.REPEATED]),
    ("I've been up since five with the baby.", [Standing.DRAINING]),
    ("The lift is broken again.", [Standing.REPEATED]),
    ("The landlord still hasn't fixed the window.", [Standing.REPEATED]),
    ("My results come next week.", [Standing.PENDING]),
    ("There might be cuts at work.", [Standing.PENDING]),
    ("My brother is a pilot.", []),
    ("Our old cat had to be put down on Friday.", [Standing.LOSS]),
    ("We scattered his ashes after the funeral.", [Standing.LOSS]),
])
def test_the_words_say_how_the_situation_stands(said, cues):
    assert standing(said) == cues


def test_what_only_reads_like_a_cue_is_none():
    assert standing("After all these years I still love him.") == []     # "after all" before its object
    assert standing("I keep thinking about my grandad.") == []             # the speaker's own doing
    assert standing("We won on Saturday!") == []                           # a day alone may be gone
    assert standing("He can't come home for Christmas.") == []             # not coming home


def test_a_date_still_to_come_says_it_is_pending_and_a_count_of_days_away_too():
    assert standing("My first gig is on Friday night!", ahead=True) == [Standing.PENDING]  # (the writer's dates)
    assert standing("Our trip to Oslo is only six days away!") == [Standing.PENDING]


@pytest.mark.parametrize("heard, said, feeling", [
    ("sad", "The scan came back clear after all.", "relieved"),           # a harm averted, whatever the topic
    ("happy", "We leave for Rome tomorrow!", "excited"),                  # good, still to come
    ("happy", "We got back from Rome yesterday.", "happy"),
    ("excited", "We got back from Rome yesterday!", "happy"),            # excitement looks forward
    ("sad", "I've been up since five with the baby.", "tired"),
    ("worried", "The lift is broken again.", "frustrated"),
    ("sad", "My results come next week.", "worried"),
    ("sad", "Our old dog died.", "sad"),                                  # no cue: as it was heard
])
def test_the_standing_picks_the_feeling_within_its_valence(heard, said, feeling):
    assert appraised(heard, said) == feeling


def test_the_words_lean_good_bad_or_neither():
    assert lean("They found him alive.") == 1
    assert lean("The lift is broken again.") == -1
    assert lean("I've been on my feet all day.") == -1
    assert lean("My results come next week.") == 0   # what is to come may be hoped for or feared
    assert lean("My brother is a pilot.") == 0


def test_a_death_is_sadness_whatever_else_the_words_say():
    # "died in his sleep" was heard as lost sleep: tiredness (live, by the reply path's reading)
    assert appraised("tired", "My neighbour died in his sleep on Sunday.") == "sad"
    assert appraised("happy", "The whole village came to the memorial for my aunt.") == "sad"
    assert lean("My neighbour died in his sleep on Sunday.") == -1
    assert standing("The dog nearly died but the vet saved her.") == []  # no death
    assert standing("We had a barbecue on Memorial Day.") == []
