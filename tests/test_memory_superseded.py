"""Facts a later integrative memory has put in the past: the memory stands for them in recall."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from memory.ranking import Candidate, Result
from memory.superseded import put_in_the_past, summaries_stand_for_past_facts, with_past_facts
from memory.tables.recallable import Summary

RENTED = "Ada rents a flat on Elm Street with two friends"
MOVED = Summary(id=9, entity_id=4, text="Ada bought a house by the river. Before that, on 2 March 2026, Ada rents "
                "a flat on Elm Street with two friends.", said_at="2026-08-01T10:00:00",
                current="Ada bought a house by the river", history="2 March 2026: Ada rents a flat on Elm Street "
                "with two friends", provenance=[1, 5])


def test_a_fact_the_summary_holds_as_history_and_not_as_now_is_in_the_past():
    assert put_in_the_past(RENTED, [1], MOVED)


def test_whom_a_note_is_about_says_nothing_of_what_is_true_now():
    # live: the old fact stood beside the news, and "How is my brother doing at school?" was told it
    hard = "Maria's brother is finding it hard to make friends."
    friend = Summary(id=3, entity_id=1, text="Maria's brother made a friend today. Before that, on 7 December "
                     "2026, Maria's brother is finding it hard to make friends.", said_at="2026-12-07T10:00:00",
                     current="Maria's brother made a friend today",
                     history="7 December 2026: Maria's brother is finding it hard to make friends", provenance=[2, 4])
    assert put_in_the_past(hard, [2], friend)
    assert not put_in_the_past("Maria's brother made a friend today.", [4], friend)


def test_a_fact_the_summary_says_is_true_now_is_not():
    assert not put_in_the_past("Ada bought a house by the river", [5], MOVED)


def test_a_fact_from_turns_the_summary_was_not_written_from_is_not():
    assert not put_in_the_past(RENTED, [7], MOVED)


def test_a_summary_with_no_history_puts_nothing_in_the_past():
    assert not put_in_the_past(RENTED, [1], Summary(9, 4, "", "2026-08-01T10:00:00", RENTED, "", [1, 5]))


def _candidate(id: int, text: str, similarity: float, turns: tuple[int, ...], match: float = 0.0) -> Candidate:
    return Candidate(id, "item", text, similarity, "2026-03-02T10:00:00", match=match, entity="Elm Street",
                     provenance=turns, entity_id=4)


def test_the_summary_comes_in_for_a_past_fact_with_the_facts_standing():
    out = summaries_stand_for_past_facts([_candidate(1, RENTED, 0.61, (1,), match=1.0)], {1}, [MOVED])
    assert [(c.id, c.text, c.similarity, c.match, c.provenance, c.said_at, c.past) for c in out] == \
        [(9, MOVED.text, 0.61, 1.0, (1, 5), MOVED.said_at, (RENTED,))]


def test_a_summary_already_recalled_keeps_the_better_standing_and_the_fact_goes():
    summary = _candidate(9, MOVED.text, 0.44, (1, 5))
    still = _candidate(2, "Ada works from home on Fridays", 0.5, (3,))
    out = summaries_stand_for_past_facts([summary, _candidate(1, RENTED, 0.61, (1,)), still], {1, 2}, [MOVED])
    assert [(c.id, c.similarity) for c in out] == [(9, 0.61), (2, 0.5)]


def test_the_past_facts_of_a_summary_left_out_of_the_block_stay_with_its_entitys_memory_in_it():
    bought = Result(_candidate(5, "Ada bought a house by the river", 0.7, (5,)), 0.6)
    left_out = Result(replace(_candidate(9, MOVED.text, 0.61, (1, 5)), past=(RENTED,)), 0.5)
    elsewhere = Result(replace(_candidate(7, "Ada's sister lives in Hull", 0.4, (6,)), entity_id=8), 0.3)
    reported = with_past_facts([bought, left_out, elsewhere], [bought, elsewhere])
    assert [(m["id"], m.get("past")) for m in reported] == [(5, [RENTED]), (7, None)]
    assert with_past_facts([left_out], [left_out])[0]["past"] == [RENTED]  # in the block itself


def test_recall_answers_what_is_true_now_without_the_old_fact_beside_it(embedder, tmp_path):
    from memory import PersonMemory, open_store

    store = open_store(tmp_path, embedder)
    try:
        person = store.add_person("Ada")
        now = [datetime(2026, 2, 3, 9)]
        memory = PersonMemory(store, person, clock=lambda: now[0])
        memory.remember("My son Leo plays rugby for the school team.", "ok")
        memory.end_session()
        now[0] = datetime(2026, 9, 1, 9)
        memory = PersonMemory(store, person, clock=lambda: now[0])
        memory.remember("Leo stopped playing rugby after his injury, he swims at the leisure centre now.", "ok")
        memory.end_session()
        block = memory.recall("Does Leo still play rugby?")[0]
        # the old fact's own line is gone (a feeling it caused then may still be recalled, with its date)
        assert "swims" in block and not any(line.startswith("- Ada's son Leo plays") for line in block.splitlines()), \
            block
    finally:
        store.close()
