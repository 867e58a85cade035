"""The right brain's rules: who the person is and how they feel about things. Pure functions.

Short horizon: a turn's affect is attributed to every entity the turn touches (a cross-entity node per
entity, updated with each new affect). Long horizon: at session end, affects that recur, and stated
likes, become independent persona nodes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from .affect import EMOTIONS, Affect
from .lexicon import KIND_WORDS


@dataclass(frozen=True)
class Node:
    kind: str                   # "independent" | "cross"
    text: str
    affect: str | None
    valence: float
    arousal: float
    cause: str | None
    evidence: tuple[int, ...]
    confidence: float
    entity: str | None = None   # for cross nodes: the entity's name
    key: str = ""               # identity of an independent node, to merge with an earlier one


def cross_nodes(affect: Affect | None, entities: list[str], turn_id: int, previous: dict[str, dict] | None = None,
                name: str = "") -> list[Node]:
    """One cross-entity node per touched entity, carrying this turn's affect (short horizon)."""
    if affect is None:
        return []
    previous = previous or {}
    out = []
    for entity in entities:
        old = previous.get(entity)
        evidence = tuple(dict.fromkeys([*(old["evidence"] if old else []), turn_id]))
        # a feeling only heard in the voice counts below one the words imply
        confidence = min(1.0, (0.6 if affect.stated else 0.3 if affect.heard else 0.4) + 0.1 * (len(evidence) - 1))
        if affect.heard:
            who = f"{name} sounded" if name else "I sounded"
            text = f"{who} {affect.label} ({affect.heard}) talking about {said_of(entity, name)}"
        else:
            who = f"{name} feels" if name else "I feel"
            # (the cause after a colon: "because" read the same but was found less often, LoCoMo's evidence
            # recall 57.4% → 56.0% in benchmarks/memory.py)
            text = f"{who} {affect.label} about {said_of(entity, name)}"
        text += f": {affect.cause}" if affect.cause else ""
        out.append(Node("cross", text, affect.label, affect.valence, affect.arousal, affect.cause, evidence,
                        round(confidence, 2), entity))
    return out


def said_of(entity: str, name: str = "") -> str:
    """An entity as a note says it: a name as it is ("Max"), someone or a pet of the person's as
    theirs ("Grace's husband"), any other thing with "the" ("the job": "feels tired about job" was
    heard read out live)."""
    if entity[:1].isupper() or entity[:1].isdigit():
        return entity
    if KIND_WORDS.get(entity.lower()) in ("family and friends", "pets"):
        return f"{name}'s {entity}" if name else f"my {entity}"
    return f"the {entity}"


_LIKES = re.compile(r"\bI (?:really |absolutely |just )?(love|enjoy|adore|like|hate|can't stand)\s+"
                    r"(\w+(?:[\s-]\w+){0,4}?)(?=[,.!?;]|\s+(?:and|but|because|so|with|when)\b|$)", re.I)


def stated_preferences(text: str) -> list[tuple[str, str, float]]:
    """'I love hiking' -> ('loves', 'hiking', +0.8)."""
    out = []
    for m in _LIKES.finditer(text):
        verb = m.group(1).lower()
        obj = m.group(2).strip()
        if obj.lower() in ("it", "that", "this", "you", "them", "to", "the"):
            continue
        valence = -0.7 if verb in ("hate", "can't stand") else 0.8
        out.append(({"love": "loves", "enjoy": "enjoys", "adore": "adores", "like": "likes", "hate": "hates",
                     "can't stand": "can't stand"}[verb], obj, valence))
    return out


def consolidate(turns: list[tuple[int, str, Affect | None, str | None]], name: str = "", min_count: int = 2,
                third=lambda text: text) -> list[Node]:
    """Independent nodes from one session (long horizon).

    turns: (turn id, text, affect, schema). A feeling that recurs in a schema, or any stated like or
    dislike, becomes an enduring trait; confidence grows with the evidence.
    """
    who = name or "I"  # (no name: the person's own words, memory/noting.note_name)

    def conjugated(verb: str) -> str:  # "loves" → "love" after "I"
        return verb if name or verb.startswith("can't") else verb[:-1]

    by_feeling: dict[tuple[str, str], list[tuple[int, Affect]]] = defaultdict(list)
    nodes: list[Node] = []
    for turn_id, text, affect, schema in turns:
        if affect is not None:
            by_feeling[(affect.label, schema or "life")].append((turn_id, affect))
        for verb, obj, valence in stated_preferences(text):
            nodes.append(Node("independent", f"{who} {conjugated(verb)} {third(obj)}.", "fond" if valence > 0 else "averse",
                              valence, 0.4,
                              None, (turn_id,), 0.6, key=f"pref:{obj.lower()}"))
    for (label, schema), hits in by_feeling.items():
        if len(hits) < min_count:
            continue
        causes = [third(a.cause) for _, a in hits if a.cause][:2]
        valence, arousal, _ = EMOTIONS[label]
        text = (f"{who} {conjugated('tends')} to feel {label} about {schema}"
                + (f", as when {' and when '.join(causes)}" if causes else "") + ".")
        nodes.append(Node("independent", text, label, valence, arousal, causes[0] if causes else None,
                          tuple(t for t, _ in hits), round(min(1.0, 0.3 + 0.2 * len(hits)), 2),
                          key=f"feel:{label}:{schema}"))
    return nodes
