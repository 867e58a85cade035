"""Memories stay with the person who said them: speaker A's turn never reaches speaker B (real voices)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant import events as ev
from assistant.memory_access.household import Household
from assistant.modes.replay import replay_file
from audio.sources import read_audio_file
from memory import open_store
from memory.enrolment import NOT_MET

A, B = "1688", "2033"


@pytest.fixture
def household(speech_dir, engines, test_config, tmp_path):
    config = replace(test_config, data_dir=str(tmp_path / "data"))
    store = open_store(config.data_path, engines.embedder)
    home = Household(store, config, engines)
    for name, speaker in (("Ann", A), ("Bob", B)):
        clips = sorted((speech_dir / "speakers" / speaker).glob("*.flac"))[:3]
        home.book.enrol(name, [engines.voice.embed(read_audio_file(c)) for c in clips])
    yield home, config, store
    store.close()


def test_what_a_said_is_not_recalled_for_b(speech_dir, engines, household, tmp_path):
    home, config, store = household
    a_clip = speech_dir / "speakers" / A / "1688-142285-0001.flac"  # "Margaret, said Mister Hale ..."
    b_clip = speech_dir / "speakers" / B / "2033-164914-0004.flac"

    first = replay_file(a_clip, tmp_path / "a", engines, config, routing=home)
    home.end_session()
    said_by_a = first.answered[0].heard
    who = [e for e in first.answered[0].events if isinstance(e, ev.SpeakerIdentified)]
    assert who and who[0].person == "Ann"

    second = replay_file(b_clip, tmp_path / "b", engines, config, routing=home)
    home.end_session()
    b_turn = second.answered[0]
    who = [e for e in b_turn.events if isinstance(e, ev.SpeakerIdentified)]
    assert who and who[0].person == "Bob"
    recalled = [m for e in b_turn.events if isinstance(e, ev.RecallDone) for m in e.memories]
    a_id, b_id = store.find_person("Ann"), store.find_person("Bob")
    a_turns = {t["text"] for t in store.turns(a_id)}
    assert said_by_a in a_turns  # A's memory exists...
    assert not any(t["text"] == said_by_a for t in store.turns(b_id))
    assert not any("margaret" in m["text"].lower() or "hale" in m["text"].lower() for m in recalled)
    assert "margaret" not in b_turn.reply.lower()

    # ...and asking B's memory about A's exact words still finds nothing of A's
    speaker = home.identify(read_audio_file(b_clip))
    block, memories = home.memory_for(speaker).recall(said_by_a)
    assert "margaret" not in block.lower() and "hale" not in block.lower()
    home.end_session()


def test_an_unknown_voice_gets_no_personal_memory(speech_dir, engines, household):
    home, _, _ = household
    stranger = read_audio_file(next((speech_dir / "speakers" / "impostors").glob("*.flac")))
    speaker = home.identify(stranger)
    assert speaker.person_id is None and home.memory_for(speaker) is None


def test_a_desk_that_learned_its_owners_voice_gives_a_stranger_none_of_their_memories(speech_dir, engines,
                                                                                       test_config, tmp_path):
    """No enrolment step: the owner's voice is learned from their first utterances (as the loop's
    learn() does after each answered turn), then a stranger's real recording is replayed."""
    config = replace(test_config, data_dir=str(tmp_path / "data"), person="Ann", learn_owner_voice=True)
    store = open_store(config.data_path, engines.embedder)
    home = Household(store, config, engines)
    try:
        owner_clips = sorted((speech_dir / "speakers" / A).glob("*.flac"))
        for clip in owner_clips[:3]:
            speaker = home.identify(read_audio_file(clip))
            assert speaker.known and speaker.fields["person"] == "Ann"  # every voice is Ann's until then
            home.learn(speaker)
        assert home.book.has_voiceprints()

        first = replay_file(owner_clips[3], tmp_path / "a", engines, config, routing=home)
        home.end_session()
        ann = store.find_person("Ann")
        said_by_ann = first.answered[0].heard
        assert [e.person for e in first.answered[0].events if isinstance(e, ev.SpeakerIdentified)] == ["Ann"]
        assert said_by_ann in {t["text"] for t in store.turns(ann)}

        stranger = replay_file(speech_dir / "speakers" / B / "2033-164914-0004.flac", tmp_path / "b", engines,
                               config, routing=home)
        home.end_session()
        turn = stranger.answered[0]
        assert [e.person for e in turn.events if isinstance(e, ev.SpeakerIdentified)] == [None]
        assert [m for e in turn.events if isinstance(e, ev.RecallDone) for m in e.memories] == []
        assert turn.heard not in {t["text"] for t in store.turns(ann)}
        # asked what Hearth remembers of them, the stranger is told they have not met
        visitor = home.identify(read_audio_file(speech_dir / "speakers" / B / "2033-164914-0004.flac"))
        step = home.dialog_step("What was I worried about last time?", visitor)
        assert step.handled and step.say == NOT_MET

        speaker = home.identify(read_audio_file(owner_clips[4]))
        assert speaker.person_id == ann
        assert not home.dialog_step("What was I worried about last time?", speaker).handled
        block, memories = home.memory_for(speaker).recall(said_by_ann)
        assert memories  # the owner still gets their memories
        home.end_session()
    finally:
        store.close()
