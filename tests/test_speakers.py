"""Voiceprints on real recordings with the real encoder, in a real SQLite store: enrol, recognise,
reject, provisional people, merge and forget without orphans, damaged rows, and the CLI functions."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from conftest import SPEECH

A, B, STRANGER = "1998", "2414", "3005"  # LibriSpeech speakers in ../shared/data/speech/speakers
NOW = datetime(2025, 3, 20, 10, 0)


def clips(speaker: str) -> list[Path]:
    return sorted((SPEECH / "speakers" / speaker).glob("*.flac"))


@pytest.fixture(scope="module")
def encoder(speech_dir):
    from audio.voiceprint import VoiceEncoder

    enc = VoiceEncoder()
    enc.warm_up()
    return enc


@pytest.fixture(scope="module")
def voices(encoder):
    """Embeddings of the recordings the tests use, computed once."""
    from audio.sources import read_audio_file

    out = {}
    for who in (A, B, STRANGER):
        out[who] = [encoder.embed(read_audio_file(p)) for p in clips(who)[:7]]
    out["impostors"] = [encoder.embed(read_audio_file(p)) for p in sorted((SPEECH / "speakers/impostors").glob("*"))]
    return out


@pytest.fixture
def store(tmp_path):
    from memory import open_store

    s = open_store(tmp_path, None)
    yield s
    s.close()


@pytest.fixture
def book(store):
    from memory.speakers import SpeakerBook

    return SpeakerBook(store, clock=lambda: NOW)


# -- the encoder --------------------------------------------------------------------------------

def test_embedding_is_a_unit_256_vector(voices):
    e = voices[A][0]
    assert e.shape == (256,) and e.dtype == np.float32 and np.isfinite(e).all()
    assert np.linalg.norm(e) == pytest.approx(1.0, abs=1e-4)


def test_the_same_voice_is_closer_than_another_voice(voices):
    same = float(voices[A][0] @ voices[A][1])
    other = float(voices[A][0] @ voices[B][0])
    assert same > other + 0.1, (same, other)


def test_silent_or_empty_audio_is_a_clear_error(encoder):
    from audio.voiceprint import VoiceprintError

    for audio in (np.zeros(32000, dtype=np.float32), np.zeros(0, dtype=np.float32),
                  np.full(16000, np.nan, dtype=np.float32)):
        with pytest.raises(VoiceprintError) as err:
            encoder.embed(audio)
        assert "\n" not in str(err.value)


# -- recognition --------------------------------------------------------------------------------

def test_enrolled_speakers_are_recognised_and_impostors_rejected(book, voices):
    ann = book.enrol("Ann", voices[A][:3])
    bob = book.enrol("Bob", voices[B][:3])
    assert len(book.voiceprints(ann)) == 3 and len(book.voiceprints(bob)) == 3
    for who, pid in ((A, ann), (B, bob)):
        for e in voices[who][3:]:
            ident = book.identify(e)
            assert ident.person == pid, (who, ident)
            assert ident.runner_up == (bob if pid == ann else ann)
            assert ident.score > ident.runner_up_score
    for e in voices["impostors"] + voices[STRANGER]:
        ident = book.identify(e)
        assert ident.person is None, ident
        assert ident.candidate in (ann, bob)  # the best guess is still reported


def test_describe_gives_names_for_the_event(book, voices):
    ann = book.enrol("Ann", voices[A][:3])
    book.enrol("Bob", voices[B][:3])
    fields = book.describe(book.identify(voices[A][4]))
    assert fields["person"] == "Ann" and fields["runner_up"] == "Bob"
    assert fields["score"] > fields["runner_up_score"]
    unknown = book.describe(book.identify(voices["impostors"][0]))
    assert unknown["person"] is None and unknown["runner_up"] in ("Ann", "Bob")
    assert ann == book.lookup("ann") == book.lookup(f"#{ann}")


def test_nobody_enrolled_means_unknown(book, voices):
    ident = book.identify(voices[A][0])
    assert ident.person is None and ident.candidate is None


def test_enrolling_the_same_name_again_adds_voiceprints(book, voices):
    first = book.enrol("Ann", voices[A][:2])
    again = book.enrol("Ann", voices[A][2:4])
    assert first == again and len(book.voiceprints(first)) == 4


def test_refresh_learns_only_from_confident_recognitions(book, voices):
    from audio.voiceprint import Identification

    ann = book.enrol("Ann", voices[A][:3])
    book.enrol("Bob", voices[B][:3])
    before = len(book.voiceprints(ann))
    results = []
    for e in voices[A][3:]:
        results.append(book.refresh(ann, e, book.identify(e), seconds=5.0))
    assert set(results) <= {"added", "skipped", "replaced"}
    assert len(book.voiceprints(ann)) == before + results.count("added")
    # a weak recognition (score just at the threshold) never teaches the voiceprint
    weak = Identification(ann, book.threshold + 0.01, None, 0.0, ann)
    assert book.refresh(ann, voices["impostors"][0], weak, seconds=5.0) == "skipped"
    # nor does one that names someone else, or a very short utterance
    strong = book.identify(voices[A][5])
    assert book.refresh(ann + 1, voices[A][5], strong, seconds=5.0) == "skipped"
    assert book.refresh(ann, voices[A][5], strong, seconds=0.5) == "skipped"


def test_voiceprints_are_capped(book, voices):
    from audio.voiceprint import MAX_VOICEPRINTS

    pid = book.enrol("Ann", voices[A])
    assert len(book.voiceprints(pid)) == min(len(voices[A]), MAX_VOICEPRINTS)
    book.enrol("Ann", voices[B][:4])  # 11 would be too many
    kept = book.voiceprints(pid)
    assert len(kept) == MAX_VOICEPRINTS
    assert np.allclose(kept[:3], np.stack(voices[A][:3]), atol=1e-5)  # the enrolment anchors stay


# -- provisional people -------------------------------------------------------------------------

def test_a_consistent_unknown_voice_becomes_a_provisional_person(book, store, voices):
    ann = book.enrol("Ann", voices[A][:3])
    got = []
    for i in range(3):
        ident = book.identify(voices[STRANGER][i])
        assert not ident.known
        got.append(book.provisional_for(voices[STRANGER][i], ident, seconds=4.0))
        # an impostor's single utterance in between joins nothing
        assert book.provisional_for(voices["impostors"][i], book.identify(voices["impostors"][i]), seconds=4.0) is None
    assert got[:2] == [None, None] and got[2] is not None
    guest = got[2]
    person = store.person(guest)
    assert person["provisional"] == 1 and person["name"] == "Guest 1"
    # the voice is recognised as the provisional person from now on
    assert book.identify(voices[STRANGER][4]).person == guest
    assert book.identify(voices[A][5]).person == ann
    # its memories are its own until named: naming keeps the id and clears the flag
    book.name(guest, "Carol")
    assert store.person(guest)["provisional"] == 0 and book.lookup("Carol") == guest


def test_a_desk_with_no_voice_learns_its_one_persons_voice_from_utterances_that_agree(book, store, voices):
    from memory.speakers import OWNER_AFTER

    owner = store.add_person("Ann")
    learned = []
    for i in range(OWNER_AFTER):
        assert not book.learn_owner(owner, voices[STRANGER][i], seconds=0.8)  # too short to learn from
        learned.append(book.learn_owner(owner, voices[A][i], seconds=4.0))
        # a visitor's words in between form a group of their own
        assert not book.learn_owner(owner, voices["impostors"][i], seconds=4.0)
    assert learned == [False] * (OWNER_AFTER - 1) + [True]
    assert len(book.voiceprints(owner)) == OWNER_AFTER
    assert book.identify(voices[A][5]).person == owner
    assert not book.identify(voices[STRANGER][4]).known
    assert not book.learn_owner(owner, voices[A][6], seconds=4.0)  # a voice is known now: nothing more to learn


def test_known_voices_and_short_utterances_start_no_provisional_person(book, voices):
    ann = book.enrol("Ann", voices[A][:3])
    for e in voices[A][3:]:
        assert book.provisional_for(e, book.identify(e), seconds=4.0) is None
    for e in voices[STRANGER][:4]:
        assert book.provisional_for(e, book.identify(e), seconds=0.8) is None
    assert [p.id for p in book.list_people()] == [ann]


def test_claim_names_a_provisional_person_or_refuses_a_taken_name(book, store, voices):
    from memory.speakers import SpeakerBookError

    book.enrol("Priya", voices[A][:3])
    guest = None
    for e in voices[STRANGER][:3]:
        guest = book.provisional_for(e, book.identify(e), seconds=4.0) or guest
    assert guest is not None
    with pytest.raises(SpeakerBookError, match="already called 'Priya'"):
        book.claim("priya", [voices[STRANGER][3]], person_id=guest)
    assert store.person(guest)["provisional"] == 1
    pid = book.claim("Carol", [voices[STRANGER][3]], person_id=guest)
    assert pid == guest and store.person(guest)["name"] == "Carol"
    new = book.claim("Dan", [voices[B][0]])
    assert store.person(new)["name"] == "Dan" and len(book.voiceprints(new)) == 1


# -- merge and forget: no orphans ---------------------------------------------------------------

def person_tables(store) -> list[str]:
    tables = [r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [t for t in tables if t != "people"
            and "person_id" in [r[1] for r in store.conn.execute(f"PRAGMA table_info({t})")]]


def rows_of(store, pid: int) -> dict[str, int]:
    return {t: store.conn.execute(f"SELECT count(*) FROM {t} WHERE person_id = ?", (pid,)).fetchone()[0]
            for t in person_tables(store)}


def orphans(store) -> dict[str, int]:
    q = {
        "person rows without a person": " + ".join(
            f"(SELECT count(*) FROM {t} WHERE person_id NOT IN (SELECT id FROM people))" for t in person_tables(store)),
        "voiceprint vectors without a voiceprint":
            "SELECT count(*) FROM voiceprint_vec WHERE voiceprint_id NOT IN (SELECT id FROM voiceprints)",
        "voiceprints without a vector":
            "SELECT count(*) FROM voiceprints WHERE id NOT IN (SELECT voiceprint_id FROM voiceprint_vec)",
        "item vectors without an item": "SELECT count(*) FROM item_vec WHERE item_id NOT IN (SELECT id FROM items)",
        "item vectors of another person": "SELECT count(*) FROM item_vec v JOIN items i ON i.id = v.item_id "
                                          "WHERE i.person_id != v.person_id",
        "persona vectors without a node": "SELECT count(*) FROM persona_vec WHERE persona_id NOT IN "
                                          "(SELECT id FROM persona)",
        "persona vectors of another person": "SELECT count(*) FROM persona_vec v JOIN persona p ON p.id = v.persona_id"
                                             " WHERE p.person_id != v.person_id",
        "versions without an item": "SELECT count(*) FROM item_versions WHERE item_id NOT IN (SELECT id FROM items)",
        "items on another person's entity": "SELECT count(*) FROM items i JOIN entities e ON e.id = i.entity_id "
                                            "WHERE e.person_id != i.person_id",
        "persona on another person's entity": "SELECT count(*) FROM persona p JOIN entities e ON e.id = p.entity_id "
                                              "WHERE e.person_id != p.person_id",
        "edges across people": "SELECT count(*) FROM edges g JOIN entities a ON a.id = g.a JOIN entities b "
                               "ON b.id = g.b WHERE a.person_id != g.person_id OR b.person_id != g.person_id",
        "turns in another person's session": "SELECT count(*) FROM turns t JOIN sessions s ON s.id = t.session_id "
                                             "WHERE s.person_id != t.person_id",
        "clusters of another person's entities": "SELECT count(*) FROM cluster_members m JOIN cluster_versions v "
                                                 "ON v.id = m.version_id JOIN clusters c ON c.id = v.cluster_id "
                                                 "JOIN entities e ON e.id = m.entity_id WHERE e.person_id != c.person_id",
        "cluster versions without a cluster": "SELECT count(*) FROM cluster_versions WHERE cluster_id NOT IN "
                                              "(SELECT id FROM clusters)",
    }
    found = {k: store.conn.execute(sql if sql.startswith("SELECT") else f"SELECT {sql}").fetchone()[0]
             for k, sql in q.items()}
    found["foreign key violations"] = len(store.conn.execute("PRAGMA foreign_key_check").fetchall())
    return {k: v for k, v in found.items() if v}


def vec(seed: int, dim: int = 384) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def give_memories(store, pid: int, seed: int, shared_entity: str = "Biscuit the dog") -> dict:
    """A session, turns, entities (one with a name the other person also uses), an edge, items with
    versions, cross and independent persona nodes: every kind of row that belongs to a person."""
    sid = store.start_session(pid, NOW)
    t1 = store.add_turn(pid, sid, "user", f"turn one of {pid}", NOW)
    store.add_turn(pid, sid, "assistant", "reply", NOW)
    e1 = store.add_entity(pid, shared_entity, "pets", [f"alias{pid}"], NOW)
    e2 = store.add_entity(pid, f"thing of {pid}", "hobbies", [], NOW)
    store.add_edge(pid, e1, e2, "strong")
    item, _ = store.add_item(pid, e1, {"text": f"memory of {pid}", "said_at": NOW, "provenance": [t1]},
                             vec(seed), NOW)
    store.update_item(item, {"text": f"memory of {pid}, updated", "said_at": NOW}, vec(seed + 1), NOW)
    store.add_item(pid, e2, {"text": f"other memory of {pid}", "said_at": NOW}, vec(seed + 2), NOW)
    store.upsert_persona(pid, "cross", e1, {"text": f"{pid} loves the dog"}, vec(seed + 3), NOW)
    store.upsert_persona(pid, "independent", None, {"text": f"{pid} likes walks"}, vec(seed + 4), NOW)
    recall = store.log_recall(pid, f"what about the dog of {pid}?", [e1, e2], NOW)
    store.add_cluster(pid, f"the dog of {pid}", frozenset({e1, e2}), "active", 0.7, recall, "judged", NOW)
    return {"item": item, "entity": e1}


def test_merge_moves_everything_and_leaves_no_orphans(book, store, voices):
    keep = book.enrol("Ann", voices[A][:3])
    remove = book.enrol("Ann's other voice", voices[A][3:5])
    other = book.enrol("Bob", voices[B][:3])
    for pid, seed in ((keep, 10), (remove, 20), (other, 30)):
        give_memories(store, pid, seed)
    store.search(keep, vec(10), 5)  # load the in-memory matrix, which the merge must refresh
    before_keep, before_remove, before_other = rows_of(store, keep), rows_of(store, remove), rows_of(store, other)
    assert all(before_remove[t] > 0 for t in before_remove), before_remove  # the test covers every table

    moved = book.merge(keep, remove)

    assert store.person(remove) is None and store.person(keep)["name"] == "Ann"
    assert rows_of(store, remove) == {t: 0 for t in before_remove}
    assert rows_of(store, other) == before_other
    after = rows_of(store, keep)
    for table in after:
        if table == "entities":  # "Biscuit the dog" folds into keep's entity of that name
            assert after[table] == before_keep[table] + before_remove[table] - 1
        elif table == "edges":
            assert before_keep[table] <= after[table] <= before_keep[table] + before_remove[table]
        else:
            assert after[table] == before_keep[table] + before_remove[table], table
    assert orphans(store) == {}
    dog = [e for e in store.entities(keep) if e.name == "Biscuit the dog"]
    assert len(dog) == 1 and set(dog[0].aliases) == {f"alias{keep}", f"alias{remove}"}
    assert len(store.items_of_entity(keep, dog[0].id)) == 2
    # recall for keep now finds the merged memories, from SQL and from the refreshed matrix
    found = {i for i, _ in store.search(keep, vec(21), 10)}
    assert found == {i for i, _ in store.search_sql(keep, vec(21), 10)} and len(found) == 4
    assert moved["turns"] == before_remove["turns"]
    # the merged voice is recognised as the kept person
    assert book.identify(voices[A][5]).person == keep


def test_merge_is_all_or_nothing(book, store, voices):
    from memory import MemoryStoreError

    keep = book.enrol("Ann", voices[A][:3])
    remove = book.enrol("Other", voices[A][3:5])
    give_memories(store, keep, 10)
    give_memories(store, remove, 20)
    before = (rows_of(store, keep), rows_of(store, remove))
    store.conn.execute("CREATE TRIGGER fail BEFORE DELETE ON people BEGIN SELECT RAISE(ABORT, 'boom'); END")
    with pytest.raises(MemoryStoreError):
        book.merge(keep, remove)
    store.conn.execute("DROP TRIGGER fail")
    assert (rows_of(store, keep), rows_of(store, remove)) == before
    assert orphans(store) == {}


def test_merge_refuses_nonsense(book, voices):
    from memory.speakers import SpeakerBookError

    ann = book.enrol("Ann", voices[A][:3])
    with pytest.raises(SpeakerBookError, match="themselves"):
        book.merge(ann, ann)
    with pytest.raises(SpeakerBookError, match="no person 999"):
        book.merge(ann, 999)


def test_forget_deletes_the_person_and_all_that_is_theirs(book, store, voices):
    ann = book.enrol("Ann", voices[A][:3])
    bob = book.enrol("Bob", voices[B][:3])
    give_memories(store, ann, 10)
    give_memories(store, bob, 30)
    store.search(ann, vec(10), 5)
    before_bob = rows_of(store, bob)
    vectors_before = store.conn.execute("SELECT count(*) FROM voiceprint_vec").fetchone()[0]

    deleted = book.forget(ann)

    assert store.person(ann) is None
    assert rows_of(store, ann) == {t: 0 for t in before_bob}
    assert rows_of(store, bob) == before_bob
    assert orphans(store) == {}
    assert store.conn.execute("SELECT count(*) FROM voiceprint_vec").fetchone()[0] == vectors_before - 3
    assert deleted["voiceprints"] == 3 and deleted["turns"] == 2
    assert store.search(ann, vec(10), 5) == [] and store.search_sql(ann, vec(10), 5) == []
    assert book.identify(voices[A][4]).person is None  # her voice is a stranger's now
    assert book.identify(voices[B][4]).person == bob


# -- damaged data -------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [np.ones(255), np.ones(384), np.full(256, np.nan), np.zeros(256)])
def test_wrong_or_non_finite_embeddings_are_refused(book, voices, bad):
    from memory import MemoryStoreError

    book.enrol("Ann", voices[A][:3])
    for call in (lambda: book.identify(bad), lambda: book.enrol("Bob", [bad]),
                 lambda: book.provisional_for(bad)):
        with pytest.raises(MemoryStoreError) as err:
            call()
        assert "\n" not in str(err.value) and ("values" in str(err.value) or "zeros" in str(err.value))
    assert [p.name for p in book.list_people()] == ["Ann"]  # nothing half-written


def test_a_corrupt_voiceprint_row_is_a_clear_error(book, store, voices):
    from memory import MemoryStoreError

    ann = book.enrol("Ann", voices[A][:3])
    vid = store.conn.execute("SELECT min(id) FROM voiceprints WHERE person_id = ?", (ann,)).fetchone()[0]
    store.conn.execute("UPDATE voiceprint_vec SET embedding = ? WHERE voiceprint_id = ?",
                       (np.full(256, np.nan, dtype=np.float32).tobytes(), vid))
    book.invalidate()
    with pytest.raises(MemoryStoreError) as err:
        book.identify(voices[A][4])
    assert f"voiceprint {vid} of person {ann} is damaged" in str(err.value) and "\n" not in str(err.value)


def test_a_voiceprint_row_without_its_vector_is_a_clear_error(book, store, voices):
    from memory import MemoryStoreError

    ann = book.enrol("Ann", voices[A][:3])
    store.conn.execute("DELETE FROM voiceprint_vec WHERE voiceprint_id = "
                       "(SELECT max(id) FROM voiceprints WHERE person_id = ?)", (ann,))
    book.invalidate()
    with pytest.raises(MemoryStoreError, match="has no vector"):
        book.identify(voices[A][4])


def test_a_wrong_length_vector_row_is_a_clear_error(book, store, voices, monkeypatch):
    """sqlite-vec refuses to store a wrong-length vector, so a damaged file is simulated at the row level."""
    from memory import MemoryStoreError

    book.enrol("Ann", voices[A][:3])
    real_rows = store.rows

    def short_rows(sql, params=()):
        rows = real_rows(sql, params)
        if "voiceprint_vec" in sql and "LEFT JOIN" in sql:
            rows = [(r[0], r[1], r[2][:100]) for r in rows]
        return rows

    monkeypatch.setattr(store, "rows", short_rows)
    book.invalidate()
    with pytest.raises(MemoryStoreError, match="100 bytes, expected 1024"):
        book.identify(voices[A][4])


# -- names --------------------------------------------------------------------------------------

def test_rename_and_lookup(book, store, voices):
    from memory.speakers import SpeakerBookError

    ann = book.enrol("Ann", voices[A][:3])
    book.enrol("Bob", voices[B][:3])
    book.rename(ann, "  Anne   Marie ")
    assert store.person(ann)["name"] == "Anne Marie"
    with pytest.raises(SpeakerBookError, match="already called"):
        book.rename(ann, "bob")
    with pytest.raises(SpeakerBookError, match="cannot be empty"):
        book.rename(ann, "   ")
    with pytest.raises(SpeakerBookError, match="nobody called 'Zed'"):
        book.lookup("Zed")


# -- the command line's functions ---------------------------------------------------------------

def test_people_commands(tmp_path, encoder, speech_dir):
    from assistant.modes import people
    from assistant.config import Config
    from assistant.errors import HearthError

    config = Config(data_dir=str(tmp_path / "data"))
    assert "nobody is known" in people.list_people(config)
    out = people.enrol(config, "Ann", clips(A)[:3], encoder=encoder)
    assert out.startswith("enrolled Ann (#1): 3 recording(s)") and "3 voiceprint(s)" in out
    out = people.enrol(config, "Ann's twin", clips(A)[3:4], encoder=encoder)
    listing = people.list_people(config)
    assert "Ann" in listing and "Ann's twin" in listing and len(listing.splitlines()) == 3
    assert people.rename(config, "Ann's twin", "Twin") == "renamed Ann's twin (#2) to Twin"
    assert people.merge(config, "Ann", "Twin").startswith("merged Twin (#2) into Ann (#1)")
    rows = [line.split() for line in people.list_people(config).splitlines()[1:]]
    assert len(rows) == 1 and rows[0][:3] == ["1", "Ann", "4"]  # Ann now holds 4 voiceprints
    assert people.forget(config, "ann").startswith("forgot Ann (#1)")
    assert "nobody is known" in people.list_people(config)

    for call, words in [
        (lambda: people.enrol(config, "Bob", [tmp_path / "missing.wav"], encoder=encoder), "not found"),
        (lambda: people.enrol(config, "Bob", [], encoder=encoder), "at least one recording"),
        (lambda: people.enrol(config, "", clips(B)[:1], encoder=encoder), "cannot be empty"),
        (lambda: people.rename(config, "Nobody", "X"), "nobody called 'Nobody'"),
        (lambda: people.forget(config, "Nobody"), "nobody called"),
        (lambda: people.merge(config, "Nobody", "Else"), "nobody called"),
    ]:
        with pytest.raises(HearthError) as err:
            call()
        assert words in str(err.value) and "\n" not in str(err.value)
    (tmp_path / "noise.wav").write_bytes(b"RIFF not really a wav")
    with pytest.raises(HearthError, match="not a readable audio file"):
        people.enrol(config, "Bob", [tmp_path / "noise.wav"], encoder=encoder)


def test_the_speaker_benchmark_scores_pieces_and_sessions_on_real_recordings(encoder, tmp_path):
    """The benchmark's short-piece and session modes on two enrolled voices and a few strangers
    (links to the shared recordings), in the JSON shape that `speakers.pieces` promises."""
    from conftest import load_benchmark

    bench = load_benchmark("speakers")
    for who in (A, B):
        (tmp_path / who).mkdir()
        for c in clips(who)[:6]:
            (tmp_path / who / c.name).symlink_to(c)
    (tmp_path / "impostors").mkdir()
    strangers = sorted((SPEECH / "speakers/impostors").glob("*"))[:6]
    for c in strangers:
        (tmp_path / "impostors" / c.name).symlink_to(c)
    report = bench.speaker_benchmark(encoder, tmp_path)

    trials = sum(min(6, len(clips(who))) - bench.ENROL for who in (A, B))
    pieces = report["pieces"]
    assert report["genuine_trials"] == pieces["genuine_trials"] == report["session"]["utterances"] == trials
    assert pieces["impostor_clips"] == len(strangers)
    assert set(pieces["at_default"]) >= {"accuracy", "impostor_accept", "open_set_far"}
    assert report["session"]["stranger_trials"] == 2 * len(strangers)
    assert set(report["cohort_norm"]["pieces"]) == {"raw", "normalised"}
