"""A turn's feeling read from the language model's sentence vector by a linear classifier.

The bundled model's hidden states over a turn, averaged (ChatModel.sentence_vector), carry what
happened and how it goes for the speaker better than the text embedder's nearest described
situations (memory/implied.py): on written turns it was not trained on, a feeling family right
for about three in four against one in two. The classifier (multinomial logistic regression) is
trained by `python -m memory.train_feelings` on the described situations, the examples of
memory/feeling_examples.json and the written turns of benchmarks/data/memory-writes-more.json, and
ships as weights for one model file: another model gives other vectors, and falls back to the
described situations.
"""

from __future__ import annotations

import logging
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from .implied import NONE

log = logging.getLogger(__name__)

WEIGHTS = Path(__file__).with_name("feelings.npz")
# Below this the likeliest feeling is no reading at all (eight kinds: 0.125 is a guess), and a wrong
# feeling in a note colours the replies: "Just so you know, I'm allergic to peanuts" was worried at
# 0.23. On the written turns left out of training it cost one turn in 178 (0.25-0.35 alike).
SURE_ENOUGH = 0.3


@dataclass(frozen=True)
class FeelingClassifier:
    """kinds[i]'s score is weights[i] · vector + bias[i]; `model`: the model file whose vectors it reads."""

    model: str
    kinds: tuple[str, ...]
    weights: np.ndarray  # (kinds, dim)
    bias: np.ndarray  # (kinds,)

    def reads(self, model: str) -> bool:
        """Whether it was trained on this model's vectors (by its file's name)."""
        return model == self.model

    def read(self, vector: np.ndarray) -> tuple[str, float]:
        """Pure. The likeliest kind (NONE: no feeling) and its probability."""
        vector = np.asarray(vector, dtype=np.float64)
        if vector.shape != (self.weights.shape[1],):
            raise ValueError(f"a vector of {vector.shape} for a classifier of {self.weights.shape[1]} dimensions")
        scores = self.weights @ vector + self.bias
        odds = np.exp(scores - scores.max())
        best = int(odds.argmax())
        return self.kinds[best], float(odds[best] / odds.sum())

    def kind_of(self, vector: np.ndarray) -> str:
        """Pure. The likeliest kind, or NONE where it is not SURE_ENOUGH."""
        kind, probability = self.read(vector)
        return kind if probability >= SURE_ENOUGH else NONE

    def save(self, path: Path, **about) -> None:
        np.savez_compressed(path, model=self.model, kinds=np.array(self.kinds),
                            weights=self.weights.astype(np.float32), bias=self.bias.astype(np.float32),
                            **{k: np.array(v) for k, v in about.items()})


def load(path: Path = WEIGHTS) -> FeelingClassifier | None:
    """The shipped classifier, or None where its file is missing or damaged (the writer then reads
    feelings as it does for any other model)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            classifier = FeelingClassifier(str(data["model"]), tuple(str(k) for k in data["kinds"]),
                                           data["weights"].astype(np.float64), data["bias"].astype(np.float64))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    if classifier.weights.shape != (len(classifier.kinds), classifier.weights.shape[1]) \
            or classifier.bias.shape != (len(classifier.kinds),):
        return None
    return classifier


@cache
def shipped_classifier() -> FeelingClassifier | None:
    """The classifier shipped beside this module (loaded once), or None."""
    classifier = load(WEIGHTS)
    if classifier is None:
        log.warning("the feeling classifier %s is missing or damaged: feelings are read from the described "
                    "situations alone", WEIGHTS)
    return classifier
