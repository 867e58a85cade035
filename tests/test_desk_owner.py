"""The desk's own person, known by no name until they give it: "Hi, I'm Dana" makes them Dana, in
the store and in their notes, and they stay the desk's person (a real store, the real embedder)."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.config import Config
from assistant.memory_access.commands import as_said_to_them
from assistant.memory_access.remembering import desk_person_id, session_memory
from memory import open_store
from memory.enrolment import own_name_given


@pytest.mark.parametrize("said, name", [
    ("Hi Hearth, I'm Dana. I just got back from a long walk.", "Dana"),
    ("My name is Sam Lee.", "Sam Lee"),
    ("Hello, I am Priya and this is my first time.", "Priya"),
    ("Oh, and call me Dee.", "Dee"),
    ("Hi Har, I'm Priya, my daughter Sam just started school.", "Priya"),  # Hearth's name misheard (live)
])
def test_the_name_someone_says_is_theirs(said, name):
    assert own_name_given(said) == name


@pytest.mark.parametrize("said", [
    "I'm Canadian.",          # a bare "I'm" names what they are as often as who
    "It's Max, my dog.",      # someone else, at the door or in a photo
    "This is Priya, my sister.",
    "Hi, I'm tired today.",
    "I'm sure Dana will call.",
])
def test_other_words_give_no_name_of_theirs(said):
    assert own_name_given(said) is None


class _Engines:
    llm = None
    llm_gate = None


@pytest.fixture()
def store(embedder, tmp_path):
    s = open_store(tmp_path, embedder)
    yield s
    s.close()


def test_the_desk_person_who_gives_their_name_is_called_by_it(store):
    config = Config()  # person = "me": the desk's person has no name yet
    first = session_memory(store, config, _Engines(), clock=lambda: datetime(2026, 12, 1, 9, 0))
    owner = first.person.person_id
    assert first.person_name is None
    first.remember("Hi Hearth, I'm Dana. I just got back from a long walk with my dog Max.", "Hi Dana!")
    first.flush()
    assert store.person(owner)["name"] == "Dana"
    assert first.person_name == "Dana"
    notes = [version.text for *_, version in store.items_of_person(owner)]
    # the very turn that gave the name is noted by it, not in the first person
    assert any("Dana's dog Max" in n for n in notes), notes
    assert not any(" my " in f" {n} " for n in notes), notes
    first.end_session()
    # the next session is the same person, now Dana, and still the one who may be renamed
    second = session_memory(store, config, _Engines(), clock=lambda: datetime(2026, 12, 3, 9, 0))
    assert second.person.person_id == owner == desk_person_id(store, config)
    assert second.person_name == "Dana"
    assert store.find_person("me") is None
    second.remember("Sorry, my name is Dee.", "")
    second.flush()
    assert store.person(owner)["name"] == "Dee"
    second.end_session()


def test_a_name_that_is_someone_elses_is_not_taken(store):
    dana = store.add_person("Dana")
    memory = session_memory(store, Config(), _Engines())
    memory.remember("Hello, I'm Dana.", "")
    memory.flush()
    assert store.person(memory.person.person_id)["name"] == "me"
    assert store.find_person("Dana") == dana
    memory.end_session()


def test_a_named_desk_person_is_not_renamed(store):
    memory = session_memory(store, Config(person="Sam"), _Engines())
    memory.remember("Hi, I'm Dana.", "")
    memory.flush()
    assert store.person(memory.person.person_id)["name"] == "Sam"
    memory.end_session()


def test_notes_from_before_the_name_are_said_to_them_too():
    assert as_said_to_them("I walked my dog Max", "Dana") == "You walked your dog Max"
    assert as_said_to_them("Dana's dog Max is limping", "Dana") == "Your dog Max is limping"
