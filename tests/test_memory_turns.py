"""PersonMemory on a real store with the real embedder: remember, recall, prepare, end of session."""

from datetime import datetime, timedelta

import pytest

from memory import MemoryStoreError, PersonMemory, open_store
from models.embedder import TextEmbedder


class Clock:
    def __init__(self, start=datetime(2026, 3, 2, 9)):
        self.now = start

    def __call__(self):
        return self.now


@pytest.fixture
def setup(tmp_path, embedder):
    store = open_store(tmp_path, embedder)
    yield store, Clock()
    store.close()


def memory_for(store, clock, name="Dana"):
    pid = store.add_person(name)
    return PersonMemory(store, pid, llm=None, clock=clock)


def memory_told(store, clock, *said):
    """Dana's memory after she said each of these (Hearth answering "ok")."""
    pm = memory_for(store, clock)
    for text in said:
        pm.remember(text, "ok")
    return pm


def test_embedder_shape_and_norm(embedder):
    v = embedder.embed(["hello", "a dog"])
    assert v.shape == (2, 384) and v.dtype.name == "float32"
    assert abs(float((v[0] ** 2).sum()) - 1) < 1e-4
    assert embedder.embed([]).shape == (0, 384)


def test_one_query_embeds_as_the_batch_does(embedder):
    """embed_one takes its own shorter path through the model; it must land on the same vector."""
    texts = ["What was I worried about last time?", "Max has been limping on his back leg since Sunday."]
    batch = embedder.embed(texts)
    for text, row in zip(texts, batch):
        one = embedder.embed_one(text)
        assert one.shape == (384,) and one.dtype.name == "float32"
        assert float(one @ row) > 0.9999


def test_the_exported_embedder_gives_the_vectors_sentence_transformers_gives(tmp_path, speech_dir):
    """A start with an empty cache exports the graph, and it embeds as the library the model was
    made for: every transcript one at a time and batched, and all of them run together past the
    model's 256 tokens (the tokenizer file itself says 128)."""
    from sentence_transformers import SentenceTransformer

    from conftest import items
    from models import bundled

    texts = [item["transcript"] for item in items("asr") + items("conversation") if item.get("transcript")]
    texts.append(" ".join(texts))
    exported = TextEmbedder(cache_dir=tmp_path)
    assert list(tmp_path.glob("*.onnx"))
    reference = SentenceTransformer(str(bundled.text_embedder_dir()), device="cpu", local_files_only=True)
    expected = reference.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    assert abs(exported.embed(texts) - expected).max() < 1e-5
    assert max(abs(exported.embed_one(text) - row).max() for text, row in zip(texts, expected)) < 1e-5
    assert not list(tmp_path.glob("*.partial"))


def test_embedder_bad_path_is_a_model_error(tmp_path):
    from models import ModelError

    with pytest.raises(ModelError):
        TextEmbedder(tmp_path / "nowhere", cache_dir=tmp_path)


def test_update_writes_a_new_version_and_keeps_the_old(setup):
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember("I tested positive for COVID yesterday and I'm worried I'll miss the project deadline.", "Oh no.")
    clock.now += timedelta(days=18)
    pm.remember("Good news, I'm fully recovered and I went back to the office on Monday. I'm so relieved.", "Great!")
    covid = next(e for e in store.entities(pm.person_id) if e.name == "COVID")
    facts = store.conn.execute("SELECT count(*) FROM items WHERE kind = 'fact'").fetchone()[0]
    assert facts == 2 and len(store.items_of_entity(pm.person_id, covid.id, kind="fact")) == 1  # a fact per turn
    ((item, first),) = store.items_of_entity(pm.person_id, covid.id, kind="summary")
    assert "covid" in first.text.lower() and "recovered" in first.text and "relieved" in first.text
    assert len(first.provenance) == 2
    clock.now += timedelta(days=7)
    pm.remember("My COVID cough is finally gone too.", "Great!")
    ((same, current),) = store.items_of_entity(pm.person_id, covid.id, kind="summary")
    chain = store.history(item)
    assert same == item and len(chain) == 2 and chain[0].previous_id == chain[1].id == first.id
    assert "recovered" in chain[1].text and "cough" in current.text and len(current.provenance) == 3
    block, rows = pm.recall("How is Dana's health?")
    assert "recovered" in block and rows[0]["kind"] in ("item", "persona")
    assert {"id", "kind", "text", "entity", "schema", "score", "source", "said_at"} <= set(rows[0])


def test_raw_turns_are_kept_verbatim(setup):
    store, clock = setup
    pm = memory_for(store, clock)
    said = "  My dog Biscuit ate my SOCKS!!  "
    pm.remember(said, "Oh dear.")
    turns = store.turns(pm.person_id)
    assert [(t["role"], t["text"]) for t in turns] == [("user", said), ("assistant", "Oh dear.")]


def test_recall_never_crosses_people(setup):
    store, clock = setup
    dana, eli = memory_for(store, clock, "Dana"), memory_for(store, clock, "Eli")
    dana.remember("My sister Anna is getting married in June, I'm so excited.", "Lovely!")
    eli.remember("I broke my leg skiing in Austria, it hurts a lot.", "Ouch.")
    _, rows = eli.recall("Tell me about Anna's wedding in June")
    assert all("Anna" not in r["text"] for r in rows)
    _, rows = dana.recall("Tell me about Anna's wedding")
    assert rows and "Anna" in rows[0]["text"]


def test_prepare_builds_the_pool_used_by_recall(setup):
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember("We adopted a beagle puppy called Biscuit, I'm so happy to have a dog again.", "Aww.")
    pm.remember("I work as a nurse at St. Mary's hospital.", "Nice.")
    for i in range(10):
        pm.remember(f"I read a novel about sailing number {i}.", "ok")
    pm.prepare("How is my dog")
    _, rows = pm.recall("How is my dog doing?")
    assert rows[0]["source"] == "pool" and "Biscuit" in rows[0]["text"]
    _, rows = pm.recall("Where does Dana work?")
    assert any("nurse" in r["text"] for r in rows)


def test_recall_after_preparing_the_same_words_ranks_exactly_as_a_fresh_recall(setup):
    pm = memory_told(*setup, "We adopted a beagle puppy called Biscuit.", "I work as a nurse at St. Mary's hospital.",
                     "My sister Anna is getting married in June.", "Biscuit hurt his paw at the park.")
    fresh = [(r.candidate.id, round(r.score, 6)) for r in pm.results("How is Biscuit doing?")]
    pm.prepare("How is Biscuit doing?")
    prepared = [(r.candidate.id, round(r.score, 6)) for r in pm.results("How is Biscuit doing?")]
    assert prepared == fresh
    pm.remember("Biscuit is fully healed now.", "great")  # a write: the prepared scores are stale
    assert any("healed" in r.candidate.text for r in pm.results("How is Biscuit doing?"))


class CountingEmbedder:
    def __init__(self, embedder):
        self.embedder, self.calls = embedder, []

    def embed_one(self, text):
        self.calls.append(text)
        return self.embedder.embed_one(text)


def test_final_words_ranked_by_the_partial_meaning_embed_nothing_and_still_match_their_entities(setup):
    pm = memory_told(*setup, "We adopted a beagle puppy called Biscuit.", "My sister Anna is getting married in June.",
                     "My brother Tom moved to Leeds for work.", "I work as a nurse at St. Mary's hospital.")
    pm.recaller.embedder = counting = CountingEmbedder(pm.recaller.embedder)
    partial = "How are the wedding plans of my sister"
    pm.prepare(partial)
    counting.calls.clear()
    _, rows = pm.recall("How are the wedding plans of my sister Anna going?", like=partial)
    assert counting.calls == []  # the partial's vector was at hand
    assert "Anna" in rows[0]["text"]
    _, rows = pm.recall("Is my brother Tom settling in?", like=partial)
    assert counting.calls == [] and any("Tom" in r["text"] for r in rows)  # named in the final words only
    pm.recall("Is my brother Tom settling in?")
    # without a partial, the final words are embedded, in the words of Dana's notes
    assert counting.calls == ["Is Dana's brother Tom settling in?"]


def test_a_question_in_the_first_person_finds_the_note_written_by_name(setup):
    """Notes call the person by name; a question asked as "I" is matched in those words. Asked
    as it came, the embedder put "Which course am I doing on Thursdays?" below the relevance floor
    against "Dana signed up for a pottery course…", and recall found nothing."""
    pm = memory_told(*setup, "I signed up for a pottery course in Hove, I go every Thursday evening.",
                     "I got a new phone yesterday.")
    _, rows = pm.recall("Which course am I doing on Thursdays?")
    assert rows and "pottery" in rows[0]["text"]
    _, rows = pm.recall("Which course is Dana doing on Thursdays?")  # the same in the notes' words
    assert rows and "pottery" in rows[0]["text"]


def test_a_day_asked_about_finds_what_happens_on_it_whatever_its_words(setup):
    """"What is happening on Thursday?" shares one word with "Dana has a dentist appointment on
    Thursday (…) morning.", below the relevance floor: nothing was recalled, and the model made up
    "It's a busy day." (live). The note of what happens on a day the question names is recalled."""
    pm = memory_told(*setup, "I have a dentist appointment on Thursday morning.",
                     "My son Leo starts at a new school next week.", "I had pasta with my sister for lunch today.")
    _, rows = pm.recall("What is happening on Thursday?")
    assert rows and "dentist" in rows[0]["text"]
    _, rows = pm.recall("What have I got on next week?")
    assert rows and "Leo" in rows[0]["text"]
    _, rows = pm.recall("Anything on Saturday?")  # nothing happens then
    assert not any("dentist" in r["text"] or "Leo" in r["text"] for r in rows)


def test_a_question_about_a_schema_finds_the_notes_of_its_entities(setup):
    """"What do you know about my family?" after "My daughter Lily starts school next week" found
    nothing (live): the family's entities came in by the schema's cue, but their notes stood below
    the relevance floor, and the model said "you haven't told me your family yet". The person had
    given no name, so the notes were in their own words ("My daughter Lily…"), further from the
    question than notes by name."""
    store, clock = setup
    pm = memory_for(store, clock, "me")
    for said in ("My daughter Lily starts school next week, she is five.",
                 "I have a dentist appointment on Thursday morning."):
        pm.remember(said, "ok")
    _, rows = pm.recall("What do you know about my family?")
    assert rows and "Lily" in rows[0]["text"]
    assert not any("dentist" in r["text"] for r in rows)
    _, rows = pm.recall("My family is coming over tonight.")  # told, not asked: no schema's notes unasked
    assert not any("Lily" in r["text"] for r in rows)


def test_fallback_when_nothing_matches(setup):
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember("Yesterday afternoon a gale knocked over the old oak tree.", "Oh!")  # names no entity
    _, rows = pm.recall("Any wind damage recently?")
    assert rows and rows[0]["source"] == "fallback" and "oak" in rows[0]["text"]


@pytest.mark.parametrize("text", ["", "   ", "昨日、犬の手術がありました。とても心配です。", "Вчера я ходила к врачу.",
                                  "I went hiking with Anna in the Alps. " * 300])
def test_odd_turns_are_stored_and_do_not_break_recall(setup, text):
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember(text, "ok")
    turns = store.turns(pm.person_id)
    assert [t["text"] for t in turns if t["role"] == "user"] == ([text] if text.strip() else [])
    block, rows = pm.recall(text or "anything")
    assert len(block.split()) < 200
    if text.strip():
        assert rows


def test_affect_attributed_to_touched_entities_and_consolidated(setup):
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember("I have my driving test next Thursday and I'm nervous because I failed parking last time.", "Good luck")
    pm.remember("My chemistry exam is tomorrow and I'm nervous about the lab part.", "You'll do fine.")
    cross = store.persona(pm.person_id, "cross")
    assert any(n["affect"] == "nervous" and n["entity_id"] for n in cross)
    pm.end_session()
    independent = store.persona(pm.person_id, "independent")
    assert any("nervous" in n["text"] and len(n["evidence"]) == 2 for n in independent)
    assert store.conn.execute("SELECT ended FROM sessions WHERE id = ?", (pm.session_id,)).fetchone()[0]


def test_person_memory_needs_a_person_and_an_embedder(tmp_path, embedder):
    store = open_store(tmp_path, embedder)
    with pytest.raises(MemoryStoreError):
        PersonMemory(store, 42)
    store.embedder = None
    pid = store.add_person("Dana")
    with pytest.raises(MemoryStoreError):
        PersonMemory(store, pid)
    store.close()


class SlowLLM:
    """A model that takes its time, to show recall never waits for a rewrite."""

    def __init__(self):
        import threading

        self.inside, self.release = threading.Event(), threading.Event()

    def complete(self, messages, max_tokens=120, temperature=0.0):
        self.inside.set()
        self.release.wait(10)
        return "MEMORY: Dana had COVID and is worried about the deadline; now fully recovered and relieved."


def test_recall_and_prepare_do_not_wait_for_a_slow_rewrite(setup):
    import threading
    import time

    store, clock = setup
    llm = SlowLLM()
    pid = store.add_person("Dana")
    writer = PersonMemory(store, pid, llm=llm, clock=clock)
    reader = PersonMemory(store, pid, llm=None, clock=clock, session_id=writer.session_id)
    writer.remember("I tested positive for COVID yesterday and I'm worried about the deadline.", "Oh no.")
    thread = threading.Thread(target=writer.remember,
                              args=("I'm fully recovered from COVID and back at work, so relieved.", "Great!"))
    thread.start()
    try:
        assert llm.inside.wait(10)
        t0 = time.perf_counter()
        reader.prepare("How is my COVID")
        block, rows = reader.recall("How is my COVID recovery going?")
        writer.prepare("How is my")  # the writer's own recaller is free too
        assert time.perf_counter() - t0 < 1.0 and "COVID" in block
    finally:
        llm.release.set()
        thread.join(10)
    assert not thread.is_alive()
    _, rows = reader.recall("How is my COVID recovery going?")
    assert any("relieved" in r["text"] for r in rows)


def test_mum_and_mom_are_one_person_so_her_news_updates_what_is_true_now(setup):
    """Whisper wrote "my mom" one day and "Mum" a month later: two entities, so the fall stayed true
    beside the homecoming and the model answered "How is my mum doing now?" with "still in hospital"."""
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember("My mom fell and broke her hip, she's in hospital and I'm really worried.", "ok")
    clock.now += timedelta(days=26)
    pm.remember("Mum is home from the hospital now and walking with a frame. I'm so relieved.", "ok")
    assert [e.name for e in store.entities(pm.person_id)].count("mom") == 1
    assert not any(e.name.lower() == "mum" for e in store.entities(pm.person_id))
    clock.now += timedelta(days=2)
    block, _ = pm.recall("How is my mum doing now?")
    assert "home from the hospital" in block and "she's in hospital" not in block, block


def test_a_mother_named_once_is_known_by_every_word_for_a_mother(setup):
    """Told "my mum Anna", then "Mom": the same woman, found when asked about "my mother"."""
    store, clock = setup
    pm = memory_for(store, clock)
    pm.remember("My mum Anna is visiting next week.", "ok")
    clock.now += timedelta(days=1)
    pm.remember("Mom called me today, she has a new puppy.", "ok")
    people = [e for e in store.entities(pm.person_id) if e.schema == "family and friends"]
    assert [e.name for e in people] == ["Anna"]
    facts = [(entity, v.text) for _, entity, kind, _, v in store.items_of_person(pm.person_id) if kind == "fact"]
    assert {entity for entity, text in facts if "Mom called" in text} == {people[0].id}
    assert pm.recaller.match("How is my mother doing?").get(people[0].id) == 1.0
    # the call changes nothing of the visit: both stand, and the visit is there to be asked about
    block, _ = pm.recall("When is my mum visiting?")
    assert "visiting next week" in block and "new puppy" in block, block


def test_a_she_is_filed_under_whom_the_turns_before_named_and_updates_what_is_true_now(setup):
    """Live: "Actually she cancelled, she has the flu." was filed under "flu" as said, and "Who is
    coming to visit me?" was still answered from the visit she had cancelled."""
    store, clock = setup
    pm = memory_told(store, clock, "My sister Anna is coming to visit on Saturday.", "What should I cook for her?")
    pm.remember("Actually she cancelled, she has the flu.", "ok")
    anna = next(e for e in store.entities(pm.person_id) if e.name == "Anna")
    facts = [(entity, v.text) for _, entity, kind, _, v in store.items_of_person(pm.person_id) if kind == "fact"]
    assert [entity for entity, text in facts if "cancelled" in text] == [anna.id]
    assert any(text.startswith("Actually Anna cancelled") for _, text in facts), facts
    assert store.turns(pm.person_id)[-2]["text"] == "Actually she cancelled, she has the flu."  # kept as said
    block, _ = pm.recall("Who is coming to visit me?")
    assert "cancelled" in block, block
