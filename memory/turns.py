"""The voice loop's view of memory: one person in one session.

`recall(text)` gives the memory block for the prompt and a JSON-able list for the events log;
`prepare(partial)` warms the candidate pool while the person is still speaking; `remember(user, reply)`
stores both raw turns at once (committed before anything else can fail) and then the derived memory;
`end_session()` consolidates the session into independent persona nodes.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

from audio.voice_cues import VoiceCues, departures, describe, usual, voice_cues

from . import extract, noting, persona, referents
from .affect import Affect, heard_affect
from .clusters import ALPHA
from .dates import format_date
from .emergence import Change, Emergence
from .errors import MemoryStoreError
from .feelings import shipped_classifier
from .implied import implied_affect, implied_feelings
from .ranking import Result, block_results, memory_block
from .recall import Recaller
from .store import MemoryStore
from .superseded import with_past_facts
from .update import Draft, render, rewrite

log = logging.getLogger(__name__)

DB_NAME = "hearth.db"
MAX_PROVENANCE = 8   # an item integrates at most this many turns, then a new item carries the story on
SAME_TOPIC = 0.55    # similarity a turn needs to update an item it does not name (schema match only)


def open_store(data_dir: Path, embedder=None, timeout: float = 2.0) -> MemoryStore:
    """The default store, `data_dir/hearth.db` (created owner-only), with the embedder recall uses."""
    return MemoryStore(Path(data_dir).expanduser() / DB_NAME, timeout=timeout, embedder=embedder)


class PersonMemory:
    def __init__(self, store: MemoryStore, person_id: int, session_id: int | None = None, llm=None,
                 clock: Callable[[], datetime] = datetime.now, embedder=None, k: int = 12,
                 budget_tokens: int = 200, cluster_coherence: float | None = ALPHA) -> None:
        """cluster_coherence: the coherence a group of entities needs to become a cluster (None: no
        clusters emerge; those the store has still route)."""
        self.store, self.person_id, self.llm, self.clock = store, person_id, llm, clock
        self.embedder = embedder or store.embedder
        if self.embedder is None:
            raise MemoryStoreError("PersonMemory needs a text embedder (open_store(data_dir, embedder))")
        person = store.person(person_id)
        if person is None:
            raise MemoryStoreError(f"no person {person_id} in the memory store")
        self.name = noting.note_name(person["name"])  # what their notes call them ("" for "me")
        self.session_id = session_id if session_id is not None else store.start_session(person_id, clock())
        self.k, self.budget_tokens = k, budget_tokens
        self.recaller = Recaller(store, person_id, self.embedder)
        self.implied = implied_feelings(self.embedder)
        self.feelings = shipped_classifier()
        self.emergence = Emergence(store, person_id, llm, clock, cluster_coherence) \
            if cluster_coherence is not None else None
        self._session_turns: list[tuple[int, str, Affect | None, str | None]] = []
        self._said: list[str] = []  # their last turns this session, as they said them

    # -- critical path ------------------------------------------------------------------------

    def as_noted(self, text: str) -> str:
        """What the person says, in the words their notes are written in ("What race am I training
        for?" → "What race am Grace training for?"): the notes call them by name, and a question in
        the first person scored 0.2 against the note that answers it (0.6 in the notes' words)."""
        return noting.third_person(text, self.name)

    def prepare(self, partial_text: str) -> None:
        if partial_text.strip():
            self.recaller.prepare(self.as_noted(partial_text), self.clock(), self.k)

    def results(self, text: str, k: int | None = None, like: str = "") -> list[Result]:
        """The best memories for text. like: words already embedded (the last partial transcript of
        the same utterance) whose vector stands in for text's, so nothing is embedded now; the
        entities, schemas and feelings are still matched in text itself."""
        if not text.strip():
            return []
        vector = self.recaller.vector(self.as_noted(like)) if like.strip() else None
        return self.recaller.recall(self.as_noted(text), self.clock(), k or self.k, query_vector=vector)

    def recall(self, text: str, like: str = "") -> tuple[str, list[dict]]:
        now = self.clock()
        results = self.results(text, like=like)
        kept = block_results(results, now, self.budget_tokens, query=text)
        return memory_block(results, now, self.budget_tokens, query=text), with_past_facts(results, kept)

    # -- after the turn -----------------------------------------------------------------------

    def note_recall(self, query: str, entities: Sequence[int]) -> list[Change]:
        """The entities an answered turn's recall drew on, for clusters to emerge from
        (memory/emergence.py); run by the writer."""
        if self.emergence is None:
            return []
        changes = self.emergence.noted(query, entities)
        if changes:
            self.recaller.invalidate()
        return changes

    def remember(self, user_text: str, reply_text: str) -> None:
        now = self.clock()
        turn_id = None
        if user_text.strip():
            turn_id = self.store.add_turn(self.person_id, self.session_id, "user", user_text, now)
        if reply_text.strip():
            self.store.add_turn(self.person_id, self.session_id, "assistant", reply_text, now)
        if turn_id is not None:
            self.derive(user_text, turn_id, now)

    def hear_voice(self, text: str, turn_id: int, audio) -> dict | None:
        """How the stored turn was said (16 kHz audio), against how this person usually sounds; kept
        beside its words. The usual is the median of their last turns heard (audio/voice_cues.py)."""
        cues = voice_cues(audio, len(text.split()))
        if cues is None:
            return None
        before = [VoiceCues.from_dict(v["cues"]) for v in self.store.turn_voices(self.person_id, turn_id)]
        their_usual = usual(before)
        voice = {"cues": cues.as_dict(), "departures": departures(cues, their_usual) if their_usual else {}}
        self.store.set_turn_voice(turn_id, voice)
        return voice

    def _implied(self, text: str, ahead: bool) -> Affect | None:
        """The feeling the words imply: read from the language model's sentence vector where the
        classifier was trained on this model's (memory/feelings.py), else from the described situations,
        its way checked by the model where there is one (memory/implied.py); from the situations alone
        if the model is busy with replies for too long. `ahead`: a date they name is still to come."""
        try:
            if self.feelings is not None and self.feelings.reads(getattr(self.llm, "name", "")):
                vector = self.llm.sentence_vector(text)
                if vector is not None:
                    return implied_affect(self.feelings.kind_of(vector), text)
            return self.implied.of(text, getattr(self.llm, "next_word_odds", None), ahead)
        except Exception as exc:  # a model failure (or replies holding it too long) never loses the write
            log.info("the feeling was read without the model (%s)", type(exc).__name__)
            return self.implied.of(text, ahead=ahead)

    def _heard_affect(self, text: str, turn_id: int) -> Affect | None:
        """The feeling how the turn was said suggests (hear_voice ran first, on the same writer)."""
        voice = self.store.turn_voice(turn_id)
        if not voice or not voice["departures"]:
            return None
        return heard_affect(voice["departures"], describe(voice["departures"]), text)

    def derive(self, text: str, turn_id: int, now: datetime) -> int | None:
        """The derived memory of one stored user turn: entities, edges, item version, affect. Returns the item id."""
        entities = self.store.entities(self.person_id)
        known = [extract.Known(e.id, e.name, e.schema, tuple(e.aliases)) for e in entities]
        meant = referents.meant(text, self._said, (self.name,) if self.name else ())  # "she": whom they named
        self._said = [*self._said, text][-referents.SAID_BEFORE:]
        facts = extract.analyse(meant, now.date(), known, self.name)
        if not facts.fact:
            return None
        named = facts.affect
        if named is None:  # no feeling named: the one the words imply, if any
            facts = replace(facts, affect=self._implied(text, any(d.still_to_come(now.date()) for d in facts.dates)))
        when = format_date(now.date())
        happens = facts.dates[0].when.isoformat() if facts.dates else None
        new = Draft(facts.fact, when, emotion=facts.affect.label if facts.affect else None,
                    cause=noting.third_person(facts.affect.cause, self.name) if facts.affect and facts.affect.cause
                    else None, provenance=(turn_id,))
        turn_vec = self.embedder.embed_one(facts.fact)
        target, old = self._target(facts, entities, turn_vec)
        summary_text = summary_draft = summary_vec = None
        if old is not None:
            old_draft = Draft(old.current or old.text, _date_of(old.said_at), old.history, old.emotion, old.cause,
                              tuple(old.provenance))
            names = {e.name for e in entities}
            result = rewrite(old_draft, old.text, new, facts.text, self.llm, self.name, names)
            summary_text, summary_draft = result.text, result.draft
            summary_vec = self.embedder.embed_one(summary_text)
        fact_text = render(new, self.name)
        node_texts = []
        touched = [m.name for m in facts.mentions]
        # for the persona, a feeling the voice shows where the words name none, before one they imply
        felt = named or self._heard_affect(text, turn_id) or facts.affect
        if felt:
            if felt.cause:  # in the notes' words, as the item's cause is ("Grace is training", not "I'm")
                felt = replace(felt, cause=noting.third_person(felt.cause, self.name))
            previous = {p["entity_id"]: p for p in self.store.persona(self.person_id, "cross")}
            node_texts = persona.cross_nodes(felt, touched, turn_id, None, self.name)
        node_vecs = self.embedder.embed([n.text for n in node_texts]) if node_texts else []
        fact_version = {"text": fact_text, "current": new.current, "said_at": now, "happens_at": happens,
                        "emotion": new.emotion, "cause": new.cause, "provenance": [turn_id], "method": "fact"}
        with self.store.transaction():
            ids = {}
            for m in facts.mentions:
                if m.known_id is not None:
                    self.store.touch_entity(m.known_id, sorted(m.aliases), now)
                    ids[m.name] = m.known_id
                else:
                    ids[m.name] = self.store.add_entity(self.person_id, m.name, m.schema, sorted(m.aliases), now)
            mentioned = list(dict.fromkeys(ids.values()))
            for i, a in enumerate(mentioned):
                for b in mentioned[i + 1:]:
                    self.store.add_edge(self.person_id, a, b, "strong")
            fact_entity = ids[facts.mentions[0].name] if facts.mentions else (target[0] if target else None)
            item_id, _ = self.store.add_item(self.person_id, fact_entity, fact_version, turn_vec, now, kind="fact")
            if old is not None:
                summary = {"text": summary_text, "history": summary_draft.history, "current": summary_draft.current,
                           "said_at": now, "happens_at": happens, "emotion": summary_draft.emotion,
                           "cause": summary_draft.cause, "provenance": list(summary_draft.provenance),
                           "method": summary_draft.method}
                if target[1] is not None:
                    self.store.update_item(target[1], summary, summary_vec, now)
                else:
                    self.store.add_item(self.person_id, target[0], summary, summary_vec, now, kind="summary")
                for eid in mentioned:
                    if eid != target[0]:
                        self.store.add_edge(self.person_id, target[0], eid, "strong")
            for node, vec in zip(node_texts, node_vecs):
                eid = ids[node.entity]
                old_node = previous.get(eid)
                evidence = list(dict.fromkeys([*(old_node["evidence"] if old_node else []), *node.evidence]))
                self.store.upsert_persona(self.person_id, "cross", eid, {
                    "text": node.text, "affect": node.affect, "valence": node.valence, "arousal": node.arousal,
                    "cause": node.cause, "evidence": evidence,
                    "confidence": min(1.0, node.confidence + 0.1 * (len(evidence) - 1))}, vec, now,
                    old_node["id"] if old_node else None)
        self.recaller.invalidate()
        schema = facts.mentions[0].schema if facts.mentions else (facts.schemas[0] if facts.schemas else None)
        self._session_turns.append((turn_id, facts.text, facts.affect, schema))
        return item_id

    def _target(self, facts: extract.TurnFacts, entities, turn_vec):
        """Which entity summary the turn updates: ((entity id, summary item id or None), version to integrate).

        The turn's own fact is always stored; this picks what gets rewritten by generation. A named
        entity's open summary closest to the turn comes first; an entity with facts but no open summary
        gets a new summary from its closest fact (so a summary exists once an entity has two turns).
        Without a named entity, and with no new name in the turn, the closest summary or fact of a recent
        entity in a schema the turn touches is taken if it is on the same topic. (None, None): no rewrite.
        """
        matrix = self.store.matrix(self.person_id, "item")

        def best_item(eids):
            best = None
            for eid in dict.fromkeys(eids):
                rows = [it for it in self.store.items_of_entity(self.person_id, eid) if it[0] in matrix.row]
                summaries = [it for it in rows if it[1].method != "fact"]
                open_ = [it for it in summaries if len(it[1].provenance) < MAX_PROVENANCE]
                choice = open_ or [it for it in rows if it[1].method == "fact"]
                for sim, (item_id, version) in zip(matrix.scores([i for i, _ in choice], turn_vec), choice):
                    if best is None or sim > best[0]:
                        summary_id = item_id if version.method != "fact" else None
                        best = (float(sim), eid, summary_id, version)
            return best

        named = [m.known_id for m in facts.mentions if m.known_id is not None]
        hit = best_item(named)
        if hit:
            return (hit[1], hit[2]), hit[3]
        if any(m.named and m.known_id is None for m in facts.mentions):
            return None, None
        recent = sorted(entities, key=lambda e: e.last_seen, reverse=True)
        pool = [e.id for schema in facts.schemas for e in recent if e.schema == schema][:9]
        hit = best_item(pool)
        if hit and hit[0] >= SAME_TOPIC:
            return (hit[1], hit[2]), hit[3]
        return None, None

    def end_session(self) -> None:
        """Long horizon: recurring feelings and stated likes of this session become independent persona nodes."""
        now = self.clock()
        nodes = persona.consolidate(self._session_turns, self.name, third=lambda t: noting.third_person(t, self.name))
        if nodes:
            existing = self.store.persona(self.person_id, "independent")
            vecs = self.embedder.embed([n.text for n in nodes])
            with self.store.transaction():
                for node, vec in zip(nodes, vecs):
                    same = next((p for p in existing if p["text"].split(" (e.g.")[0] == node.text.split(" (e.g.")[0]),
                                None)
                    evidence = list(dict.fromkeys([*(same["evidence"] if same else []), *node.evidence]))
                    confidence = min(1.0, max(node.confidence, same["confidence"] + 0.1 if same else 0.0))
                    self.store.upsert_persona(self.person_id, "independent", None, {
                        "text": node.text, "affect": node.affect, "valence": node.valence, "arousal": node.arousal,
                        "cause": node.cause, "evidence": evidence, "confidence": confidence}, vec, now,
                        same["id"] if same else None)
        self.store.end_session(self.session_id, now)
        self._session_turns, self._said = [], []
        self.recaller.invalidate()


def _date_of(said_at: str) -> str:
    return format_date(datetime.fromisoformat(said_at).date())
