"""Feelings implied, not named: "My grandad passed away on Tuesday" is sad though no feeling word
is said. The turn's embedding (the text embedder memory already runs on every turn) is compared
with short described situations for each feeling, and with plain statements that carry none
(facts, small talk, words read aloud); the nearest wins.

Used only where the lexicon (memory/affect.py) finds no stated feeling: a said feeling word is
surer than a likeness. The situations below are written for Hearth, generic on purpose; they are
not the sentences of any benchmark.
"""

from __future__ import annotations

import threading
import weakref
from typing import Mapping

import numpy as np

NONE = "none"
SITUATIONS: dict[str, tuple[str, ...]] = {
    "happy": ("I got the promotion I wanted!", "We're getting a puppy next week.", "My daughter won her race today!",
              "I finally finished my degree.", "My test results came back all clear.",
              "We had a lovely day at the beach with the kids.", "My friend surprised me with a visit."),
    "excited": ("We fly to Japan next week!", "The concert is on Saturday.", "I'm starting my own business next month!",
                "Only three more days until the holiday!", "Tomorrow I meet my baby niece for the first time."),
    "relieved": ("The surgery went fine, thank goodness.", "They found my lost wallet.",
                 "The exam is finally over and I passed.", "The storm missed our town after all.",
                 "The lump turned out to be nothing."),
    "sad": ("My cat died last night.", "My best friend moved to Australia.", "We had to put our old dog down.",
            "My parents are getting divorced.", "Nobody came to my birthday.", "I lost my job today.",
            "I keep thinking about my mum since the funeral."),
    "worried": ("My son hasn't called in a week.", "The doctor wants to run more tests on my heart.",
                "I have a big interview tomorrow.", "We might not be able to pay the mortgage.",
                "My dad fell and hurt his hip.", "The company is cutting jobs next month."),
    "frustrated": ("The printer jammed again and I missed the deadline.", "My neighbour keeps parking in my space.",
                   "The bus didn't turn up again this morning.", "I've been on hold with the bank for an hour.",
                   "The builders still haven't finished the kitchen.", "My laptop crashed and I lost my work."),
    "tired": ("I only slept three hours last night.", "Work has been so long this week.",
              "The baby kept us up all night again.", "I've been running around all day.",
              "I can hardly keep my eyes open."),
    NONE: ("I live in Leeds.", "The meeting is on Tuesday at ten.", "My brother is a plumber.", "It's cloudy today.",
           "The book was written in 1850 by a French author.", "Chapter one. It was a cold morning in the village.",
           "Two of diamonds, queen of spades.", "What time is it?", "I have a sister called Jo.",
           "The river runs through the middle of the town.", "I'm vegetarian.", "We went to the shop.",
           "My car is blue.", "The train leaves at six."),
}
TOP = 2            # a feeling's likeness: the mean of its TOP nearest situations
MIN_LIKENESS = 0.25  # below this the turn is like none of them: no feeling is recorded
# A feeling must be clearly nearer than the plain statements: "The library opens at nine on
# Saturdays" is a little more like "The concert is on Saturday" (excited) than like any of them.
MARGIN = 0.05


def nearest_feeling(likeness: Mapping[str, float], min_likeness: float = MIN_LIKENESS,
                    margin: float = MARGIN) -> str | None:
    """The feeling whose situations the turn is most like; None when the plain ones are as near
    (within `margin`) or when nothing is alike enough."""
    feelings = {k: v for k, v in likeness.items() if k != NONE}
    if not feelings:
        return None
    best = max(feelings, key=feelings.get)
    if feelings[best] < min_likeness or feelings[best] < likeness.get(NONE, 0.0) + margin:
        return None
    return best


class FeelingPrototypes:
    """The situations embedded once, with the embedder the store uses."""

    def __init__(self, embedder) -> None:
        self._embedder = embedder
        self._matrix: np.ndarray | None = None
        self._labels: list[str] = []
        self._lock = threading.Lock()

    def _situations(self) -> tuple[np.ndarray, list[str]]:
        with self._lock:
            if self._matrix is None:
                labels = [label for label, texts in SITUATIONS.items() for _ in texts]
                self._matrix = np.asarray(self._embedder.embed([t for texts in SITUATIONS.values() for t in texts]))
                self._labels = labels
            return self._matrix, self._labels

    def likeness(self, vector: np.ndarray) -> dict[str, float]:
        matrix, labels = self._situations()
        sims = matrix @ np.asarray(vector, dtype=np.float32).reshape(-1)
        out: dict[str, float] = {}
        for label in SITUATIONS:
            mine = np.sort(sims[[i for i, lab in enumerate(labels) if lab == label]])[::-1][:TOP]
            out[label] = float(np.mean(mine))
        return out

    def implied(self, vector: np.ndarray) -> str | None:
        """The feeling a turn implies, from its embedding (unit length), or None."""
        return nearest_feeling(self.likeness(vector))


_BY_EMBEDDER: "weakref.WeakKeyDictionary[object, FeelingPrototypes]" = weakref.WeakKeyDictionary()
_BY_EMBEDDER_LOCK = threading.Lock()


def prototypes_for(embedder) -> FeelingPrototypes:
    """One set of embedded situations per embedder, shared by every person's memory."""
    with _BY_EMBEDDER_LOCK:
        found = _BY_EMBEDDER.get(embedder)
        if found is None:
            found = _BY_EMBEDDER[embedder] = FeelingPrototypes(embedder)
        return found
