"""Clusters that emerge from what is asked (memory/clusters.py, memory/emergence.py): coherence and
promotion as pure functions on small hand-made logs, their versions in the store, and a person's
memory where questions asked together make a cluster that routes the next question."""

from datetime import datetime

import pytest

from memory import MemoryStore, PersonMemory, open_store
from memory import clusters as cl
from memory.emergence import Emergence, answer_set
from memory.recall import SCHEMA_MATCH

NOW = datetime(2026, 3, 2, 10)
F = frozenset


# -- pure: coherence, candidates, plan, the judge's answer -------------------------------------------

def test_coherence_is_the_mean_overlap_of_the_answers_that_touch_the_group():
    answers = [F({1, 2}), F({1, 2, 3}), F({7})]
    # {1,2} against {1,2}: 1; against {1,2,3}: 2/3; {7} does not touch it
    assert cl.coherence(F({1, 2}), answers) == pytest.approx((1 + 2 / 3) / 2)
    assert cl.coherence(F({8, 9}), answers) == 0.0


def test_a_group_asked_about_together_grows_to_its_largest_coherent_size():
    answers = [F({1, 2, 3})] * 4 + [F({1, 2})] + [F({1, 9})] + [F({7})] * 3 + [F({4, 5})] * 2
    found = cl.candidates(answers, alpha=0.4, min_queries=3)
    # 9 was asked about beside 1 once: not with the group; {4, 5} twice: under min_queries
    assert [g for g, _ in found] == [F({1, 2, 3})]
    assert found[0][1] == pytest.approx(cl.coherence(F({1, 2, 3}), answers))


def test_a_threshold_above_the_groups_coherence_finds_nothing():
    answers = [F({1, 2, 3, 4, 5, 6})] * 3 + [F({1})] * 3   # {1,2}: (3 * 2/6 + 3 * 1/2) / 6 = 0.42
    assert cl.candidates(answers, alpha=0.9, min_queries=3) == []
    assert cl.candidates(answers, alpha=0.4, min_queries=3) != []


def test_plan_leaves_clusters_and_rejected_groups_alone_and_dissolves_what_is_no_longer_asked():
    log = [cl.Recalled(i, f"q{i}", F({1, 2})) for i in range(1, 5)]
    log += [cl.Recalled(i, f"q{i}", F({5, 6})) for i in range(5, 9)]
    # {1, 2} is already a cluster; {5, 6} was judged and rejected: nothing to promote
    existing = [cl.Cluster(1, "a", F({1, 2}), "active", 0), cl.Cluster(2, "b", F({5, 6}), "rejected", 0)]
    assert cl.plan(existing, log, window=20).promote == ()
    # without them, both groups are candidates
    assert {g for g, _ in cl.plan([], log, window=20).promote} == {F({1, 2}), F({5, 6})}
    # a window of recalls after the cluster was written, none of them about it: it dissolves
    later = [cl.Recalled(i, f"q{i}", F({8})) for i in range(9, 29)]
    assert cl.plan(existing, log + later, window=20).dissolve == ((1, 0.0),)
    # asked about within that window, it stays
    still = later[:-1] + [cl.Recalled(29, "q", F({1, 2}))]
    assert cl.plan(existing, log + still, window=20).dissolve == ()


def test_only_an_answer_in_the_judges_schema_is_read():
    assert cl.read_verdict('{"name": "the wedding in Lisbon", "relevant": true, "important": true, '
                           '"complete": false}') == cl.Verdict("the wedding in Lisbon", True, True, False)
    for bad in ("yes", "", '{"name": "x"}', '{"name": "", "relevant": true, "important": true, "complete": true}',
                '{"name": "a b c d e f g h", "relevant": true, "important": true, "complete": true}',
                '{"name": "trip", "relevant": "yes", "important": true, "complete": true}', "[1, 2]"):
        assert cl.read_verdict(bad) is None, bad
    assert cl.Verdict("x", True, True, True).accepted and not cl.Verdict("x", True, False, True).accepted
    # given what the judge was shown, a name with a word from none of it is not written
    shown = "Asha Lisbon When is Asha's wedding? Dana booked flights to Lisbon."
    named = '{"relevant": true, "important": true, "complete": true, "name": "%s"}'
    assert cl.read_verdict(named % "Memories of Asha's weddings", shown).name == "Memories of Asha's weddings"
    assert cl.read_verdict(named % "Asha's honeymoon", shown) is None


def test_a_clusters_name_routes_by_its_own_words_only():
    assert cl.cue_words("Asha's wedding plans in Lisbon") == {"asha's", "wedding", "lisbon"}
    assert cl.plain_name(["Asha", "wedding", "Lisbon"]) == "Asha, wedding and Lisbon"
    assert cl.plain_name(["Max", "vet"]) == "Max and vet"


# -- the store: the log and the versions ------------------------------------------------------------

@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "hearth.db")
    yield s
    s.close()


def test_a_cluster_is_a_chain_of_versions_and_the_log_a_window(store, monkeypatch):
    pid = store.add_person("Dana")
    a, b = (store.add_entity(pid, name, "family and friends", [], NOW) for name in ("Asha", "Lisbon"))
    cid = store.add_cluster(pid, "the wedding", F({a, b}), "active", 0.6, 4, "judged", NOW)
    store.change_cluster(cid, "dissolved", 0.1, 70, "no longer asked about together", NOW)
    versions = store.cluster_versions(cid)
    assert [v["state"] for v in versions] == ["active", "dissolved"]
    assert versions[1]["previous_id"] == versions[0]["id"] and versions[1]["members"] == sorted({a, b})
    assert store.clusters(pid, "active") == [] and store.clusters(pid)[0].state == "dissolved"

    monkeypatch.setattr("memory.tables.clusters.KEEP_RECALLS", 3)
    for i in range(5):
        store.log_recall(pid, f"question {i}", [a, b], NOW)
    log = store.recalls(pid, 10)
    assert [r.query for r in log] == ["question 2", "question 3", "question 4"]
    with store.transaction():
        store.execute("DELETE FROM entities WHERE id = ?", (b,))
    assert store.recalls(pid, 10)[-1].entities == {a}   # a deleted entity leaves the log and the cluster
    assert store.cluster_versions(cid)[-1]["members"] == [a]


# -- a person's memory: questions make a cluster, the cluster routes the next question ----------------

TOLD = ["My sister Asha is getting married in June.",
        "I booked flights to Lisbon for the first week of June.",
        "I still have to write my speech, and it has to be funny.",
        "My dog Max has been limping since Sunday.",
        "The vet said Max needs rest for a week."]
ASKED = ["When is Asha getting married, and am I flying to Lisbon?",
         "Have I sorted the flights to Lisbon for Asha's wedding?",
         "What do I still have to do before Asha's wedding in Lisbon?"]


class Clock:
    def __call__(self):
        return NOW


@pytest.fixture
def dana(tmp_path, embedder):
    store = open_store(tmp_path, embedder)
    pid = store.add_person("Dana")
    told = PersonMemory(store, pid, llm=None, clock=Clock())
    for text in TOLD:
        told.remember(text, "ok")
    yield store, pid
    store.close()


def ask(memory: PersonMemory, times: int = 2):
    changes = []
    for _ in range(times):
        for q in ASKED:
            _, recalled = memory.recall(q)
            changes += memory.note_recall(q, answer_set(recalled))
    return changes


def names_of(store, pid, ids):
    by_id = {e.id: e.name for e in store.entities(pid)}
    return {by_id[i] for i in ids}


def test_questions_asked_together_make_a_cluster_that_routes_the_next_question(dana):
    store, pid = dana
    memory = PersonMemory(store, pid, llm=None, clock=Clock())
    memory.emergence.every = len(ASKED)
    entities = {e.name: e.id for e in store.entities(pid)}
    before = memory.recaller.match("Is the speech for Asha done?")

    changes = ask(memory)

    promoted = [c for c in changes if c.what == "promoted"]
    assert len(promoted) == 1, changes
    members = names_of(store, pid, promoted[0].members)
    assert {"Asha", "Lisbon"} <= members and "Max" not in members
    (cluster,) = store.clusters(pid, "active")
    assert cluster.name == cl.plain_name(sorted(members, key=lambda n: entities[n]))
    # Lisbon was never said with Asha in one turn (no edge): only the cluster brings it in now
    assert entities["Lisbon"] not in before
    assert memory.recaller.match("Is the speech for Asha done?")[entities["Lisbon"]] == SCHEMA_MATCH
    # and nothing of it reaches a question about Max
    assert entities["Lisbon"] not in memory.recaller.match("How is Max's leg?")


def test_no_clusters_emerge_when_they_are_off(dana):
    store, pid = dana
    memory = PersonMemory(store, pid, llm=None, clock=Clock(), cluster_coherence=None)
    assert ask(memory) == [] and store.recalls(pid, 10) == [] and store.clusters(pid) == []


class Judge:
    """A language model that answers the judge with fixed text (the real one is tested below)."""

    def __init__(self, answer: str):
        self.answer, self.asked = answer, []

    def complete(self, messages, max_tokens=160, temperature=0.0, schema=None):
        self.asked.append((messages, schema))
        return self.answer


def test_a_judges_answer_out_of_schema_writes_nothing_and_a_rejection_is_remembered(dana):
    store, pid = dana
    garbled = Emergence(store, pid, Judge("Sure! This looks like a great topic."), Clock(), every=len(ASKED))
    memory = PersonMemory(store, pid, llm=None, clock=Clock())
    memory.emergence = garbled
    changes = ask(memory)
    assert {c.what for c in changes} == {"unjudged"} and store.clusters(pid) == []
    assert garbled.llm.asked[0][1] == cl.VERDICT_SCHEMA   # held to the schema

    no = '{"name": "the wedding in Lisbon", "relevant": true, "important": false, "complete": true}'
    memory.emergence = Emergence(store, pid, Judge(no), Clock(), every=len(ASKED))
    changes = ask(memory)
    (rejected,) = store.clusters(pid)
    assert rejected.state == "rejected" and rejected.name == "the wedding in Lisbon"
    assert "not important" in store.cluster_versions(rejected.id)[0]["reason"]
    assert [c.what for c in changes] == ["rejected"]
    assert [c.what for c in ask(memory)] == []  # the same group is not judged again


def test_the_bundled_model_answers_the_judge_in_its_schema(engines):
    messages = cl.judge_messages(["Asha", "Lisbon", "speech"], ASKED, TOLD[:3])
    verdict = cl.read_verdict(engines.llm.complete(messages, max_tokens=80, schema=cl.VERDICT_SCHEMA))
    assert verdict is not None and verdict.name


def test_the_loop_logs_what_each_answered_turns_recall_drew_on_and_nothing_else(dana):
    """As the loop runs it: the recall for the words heard, carried with the turn to its commit when
    the reply plays; a request of memory ("What do you remember about me?") is not a question about
    things, and a turn that recalled nothing logs nothing."""
    from assistant.memory_access.remembering import LoopMemory

    store, pid = dana
    memory = LoopMemory(store, pid, clock=Clock(), cluster_coherence=cl.ALPHA)

    def turn(said: str, reply: str):
        _, recalled = memory.recall(said)
        memory.request_reply(said)
        memory.finish_turn(memory.begin_turn(said, recalled), reply)

    turn(ASKED[0], "In June, and yes.")
    memory.recall("How is Max?")  # a lookup for partials that the final words replaced
    turn("What do you remember about me?", "…")
    memory.finish_turn(memory.begin_turn("Hello there.", ()), "Hello!")  # a turn whose recall found nothing
    memory.end_session()
    (logged,) = store.recalls(pid, 10)
    assert logged.query == ASKED[0] and names_of(store, pid, logged.entities) >= {"Asha", "Lisbon"}
