"""Feelings a turn implies without naming them: the pure choice, the real embedder's reading of
sentences written for this test, and what PersonMemory writes from them."""

import sqlite3
from datetime import date, datetime

import pytest

from memory import PersonMemory, open_store
from memory.dates import resolve_dates
from memory.implied import FEELING_WORDS, NONE, ImpliedFeelings, implied_label, model_lean, turned


def test_the_kind_whose_nearest_situations_are_closest_wins():
    sims = {"sad": [0.1, 0.5, 0.4], "happy": [0.6, 0.0, 0.1], NONE: [0.2, 0.3]}
    assert implied_label(sims) == "sad"            # (0.5 + 0.4) / 2 against happy's (0.6 + 0.1) / 2
    assert implied_label(sims, nearest=1) == "happy"


def test_no_feeling_when_the_plain_situations_are_as_close_or_the_call_is_close():
    assert implied_label({"sad": [0.3, 0.3], NONE: [0.3, 0.3]}) is None
    assert implied_label({"worried": [0.2, 0.25], NONE: [0.4, 0.1]}) is None
    assert implied_label({"sad": [0.41], "happy": [0.40], NONE: [0.1]}, nearest=1, margin=0.02) is None
    assert implied_label({"sad": [0.43], "happy": [0.40], NONE: [0.1]}, nearest=1, margin=0.02) == "sad"
    assert implied_label({"sad": [0.41], NONE: [0.40]}, nearest=1, margin=0.02) is None
    assert implied_label({NONE: [0.5]}) is None
    assert implied_label({}) is None


def test_a_close_call_between_two_feelings_alike_still_records_the_nearer():
    assert implied_label({"sad": [0.41], "worried": [0.40], NONE: [0.1]}, nearest=1, margin=0.02) == "sad"
    assert implied_label({"happy": [0.41], "excited": [0.40], "sad": [0.30], NONE: [0.1]}, nearest=1,
                         margin=0.02) == "happy"
    assert implied_label({"happy": [0.41], "excited": [0.40], "sad": [0.395], NONE: [0.1]}, nearest=1,
                         margin=0.02) is None  # (a feeling unlike it is as near)


def test_the_words_decide_a_close_call_between_good_and_bad_news():
    close = {"sad": [0.41], "relieved": [0.40], NONE: [0.1]}
    assert implied_label(close, nearest=1, margin=0.02) is None
    assert implied_label(close, nearest=1, margin=0.02, lean=1) == "relieved"
    assert implied_label(close, nearest=1, margin=0.02, lean=-1) == "sad"
    # only where the feeling of that side is itself clearly nearer than no feeling
    assert implied_label({"sad": [0.41], "relieved": [0.40], NONE: [0.39]}, nearest=1, margin=0.02, lean=1) is None


@pytest.fixture(scope="module")
def implied(embedder):
    return ImpliedFeelings(embedder)


@pytest.mark.parametrize("said, feeling, cause", [
    ("Our old dog died on Sunday.", "sad", "our old dog died on Sunday"),
    ("The bus broke down again and I missed my appointment.", "frustrated", "the bus broke down again"),
    ("We're going to Rome for a week on Saturday!", "excited", "we're going to Rome for a week on Saturday"),
    ("I've done twelve-hour days all week with no break.", "tired", "I've done twelve-hour days all week with no break"),
    # how it stands decides within good or bad news: a fear that did not come true, a good thing to come
    ("The doctor rang and the lump is benign after all.", "relieved", "the doctor rang"),
    ("We move into our new flat next week!", "excited", "we move into our new flat next week"),
    # live: "That sounds worrying." to a grandmother in hospital who can come home
    ("The doctors say she can come home next week.", "relieved", "the doctors say she can come home next week"),
])
def test_a_feeling_implied_by_what_happened_is_read_with_what_happened_as_its_cause(implied, said, feeling, cause):
    said_on = date(2026, 12, 2)  # (a Wednesday) whether a date they name is still to come, as the writer reads it
    found = implied.of(said, ahead=any(d.still_to_come(said_on) for d in resolve_dates(said, said_on)))
    assert found is not None and found.label == feeling and not found.stated
    assert found.cause == cause  # (its first clause: the note holds the rest)


@pytest.mark.parametrize("said", ["My brother is a pilot.", "I have porridge for breakfast.", "Five, six, seven, eight.",
                                  "I walked the dog along the canal after lunch.",
                                  # coming back from somewhere: the allotment was read as sad, and met with
                                  # "I'm sorry to hear that." (replies-more), the shops as happy
                                  "Hi, I'm Omar. I've just come back from my allotment.",
                                  "I just got back from the shops."])
def test_plain_facts_imply_no_feeling(implied, said):
    assert implied.of(said) is None


def test_what_someone_else_loves_is_no_feeling_of_the_speaker(implied):
    assert implied.felt("Our cat loves sleeping on the radiator.") is None
    assert implied.felt("We loved the old cinema.").label == "happy"


def test_bad_news_is_what_implies_a_feeling_that_is_not_good(embedder):
    from memory.implied import implied_feelings

    reader = implied_feelings(embedder)
    assert reader is implied_feelings(embedder)  # one reader, its situations embedded once
    assert reader.bad_news("Our old dog died on Sunday.")
    assert not reader.bad_news("We're going to Rome for a week on Saturday!")
    assert not reader.bad_news("My brother is a pilot.")
    assert reader.bad_news("I'm worried, we're going to Rome on Saturday.")  # named: the words decide
    assert not reader.bad_news("Our old dog died on Sunday, and I'm relieved his pain is over.")


def test_memory_writes_the_implied_feeling_and_keeps_a_named_one(tmp_path, embedder):
    store = open_store(tmp_path, embedder)
    try:
        pm = PersonMemory(store, store.add_person("Dana"), clock=lambda: datetime(2026, 3, 2, 9))
        pm.remember("Our old dog died on Sunday.", "I'm so sorry.")
        pm.remember("My brother is a pilot.", "Nice.")
        pm.remember("I'm glad the bus broke down, I got a day off.", "Ha!")
        conn = sqlite3.connect(f"file:{tmp_path / 'hearth.db'}?mode=ro", uri=True)
        ids = [r[0] for r in conn.execute("SELECT id FROM items WHERE kind = 'fact' ORDER BY id")]
        conn.close()
        written = [store.current_version(i) for i in ids]
        assert [(v.emotion, v.cause) for v in written[:2]] == [("sad", "our old dog died on Sunday"), (None, None)]
        assert written[2].emotion == "happy"  # named: the words decide, not the situations
    finally:
        store.close()


def test_the_models_lean_is_taken_against_how_it_goes_on_after_no_news():
    no_news = [-5.0] * len(FEELING_WORDS)
    bad = [-5.0 if kind in ("happy", "excited", "relieved") else -2.0 for kind in FEELING_WORDS]
    assert model_lean(bad, no_news) < -2.5
    assert model_lean([x - 3 for x in bad], [x - 3 for x in no_news]) == pytest.approx(model_lean(bad, no_news))


def test_a_feeling_found_is_turned_only_where_the_model_leans_clearly_the_other_way():
    scores = {"happy": 0.40, "excited": 0.35, "relieved": 0.30, "sad": 0.28, "worried": 0.33,
              "frustrated": 0.25, "tired": 0.2}
    assert turned("happy", scores, -3.0) == "worried"  # the nearest bad kind
    assert turned("happy", scores, -1.0) == "happy"    # not clearly: the situations decide
    assert turned("sad", scores, 3.0) == "happy"
    assert turned("sad", scores, -3.0) == "sad"


class _Renamed:
    """The real model under another file's name: the feeling classifier was not trained on its vectors
    (memory/feelings.py), so the described situations read the feeling and the model checks its way."""

    name = "another-model.gguf"

    def __init__(self, llm) -> None:
        self.next_word_odds = llm.next_word_odds


@pytest.mark.parametrize("renamed", [False, True], ids=["classifier", "situations-and-lean"])
def test_memory_reads_which_way_a_feeling_goes_with_the_language_model(tmp_path, embedder, engines, renamed):
    # the embedder's situations heard getting a job in it and wrote happiness (a set of written turns)
    from memory.affect import EMOTIONS

    store = open_store(tmp_path, embedder)
    try:
        llm = _Renamed(engines.llm) if renamed else engines.llm
        pm = PersonMemory(store, store.add_person("Dana"), llm=llm, clock=lambda: datetime(2026, 3, 2, 9))
        pm.remember("My husband was made redundant on Monday and we've got the mortgage to pay.", "Oh no.")
        item = store.items_of_person(pm.person_id)[0]
        assert EMOTIONS[item[4].emotion][0] < 0  # bad news, whichever feeling of it
    finally:
        store.close()


def test_a_name_set_off_by_commas_does_not_end_the_cause():
    from memory.implied import first_clause
    # a replies run: the cause was "my neighbor on the allotment"
    assert first_clause("My neighbor on the allotment, Frank, had a fall last week and he's in hospital") == \
        "my neighbor on the allotment, Frank, had a fall last week"
    assert first_clause("The doctor rang, the lump is benign") == "the doctor rang"
