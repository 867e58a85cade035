"""Voiceprints: a 256-d voice embedding per utterance (resemblyzer), and the pure rules that use them.

`VoiceEncoder().embed(audio16k)` gives an L2-normalised float32 vector; `warm_up()` pays the first
call's cost (about 3 s: torch, librosa) at start-up instead of on the first turn. resemblyzer ships
its weights inside the package, so nothing is downloaded.

The rules are plain functions with no I/O, so they are where the tests are sharpest:
- `person_scores`: a person's score is the mean of the top two cosine similarities between the
  utterance and that person's voiceprints (one stray voiceprint cannot carry a match on its own).
- `decide`: accept the best person when the score clears the threshold and beats the runner-up by
  a margin; otherwise nobody (an unknown voice).
- `should_refresh` / `refresh_slot`: learn from a recognition only when it is confident (well above
  the threshold and clearly ahead of the runner-up), keep at most MAX_VOICEPRINTS per person, and
  replace the most redundant one, never the enrolment anchors, so one misrecognition can shift at
  most one voiceprint among several.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Hashable, Mapping

import numpy as np

from . import SAMPLE_RATE

VOICE_DIM = 256

# Chosen with benchmarks/speakers.py on the shared LibriSpeech speakers (6 enrolled from 3 utterances
# each, 42 further utterances, 128 strangers never enrolled; score = mean of the top-2 similarities,
# margin 0.05). Whole utterances: genuine scores min 0.790, median 0.897; the best other enrolled
# speaker 0.735, the best stranger 0.773. At 0.76, 2 of 128 strangers (1.6%) were taken for someone
# enrolled; at 0.78 none, with every enrolled utterance still recognised (42/42). On 2-4 s pieces cut
# from the same recordings (a person at a desk says a few words at a time) scores are lower for
# everyone: at 0.78 no stranger is accepted and 40 of 42 pieces are recognised (95%); at 0.76, 41.
# 0.78 is the middle of the gap between the best stranger and the worst genuine whole utterance.
# Caveat: far-field meeting audio (AMI ami-dev00) scores lower: same-speaker median 0.71, so there most
# utterances are rejected as unknown at this threshold although the best guess is right (7/7).
DEFAULT_THRESHOLD = 0.78
DEFAULT_MARGIN = 0.05        # the best person must beat the runner-up by this much to be accepted
REFRESH_ABOVE = 0.07         # learn from an utterance only when score >= threshold + this ...
REFRESH_GAP = 0.15           # ... and it beats the runner-up by at least this much
REDUNDANT = 0.97             # a new voiceprint this close to an existing one adds nothing
MAX_VOICEPRINTS = 8          # per person
ANCHORS = 3                  # the oldest voiceprints (enrolment) are never replaced by a refresh
TOP_K = 2                    # a person's score: mean of this many best similarities
MIN_SECONDS = 1.0            # shorter voiced audio gives an unreliable voiceprint


class VoiceprintError(ValueError):
    """Audio or an embedding that cannot be used as a voiceprint; the message is one line."""


@dataclass(frozen=True)
class Identification:
    """Who spoke. `person` is None for an unknown voice; `candidate` is then the best (rejected) guess."""
    person: Hashable | None
    score: float
    runner_up: Hashable | None = None
    runner_up_score: float = 0.0
    candidate: Hashable | None = None

    @property
    def known(self) -> bool:
        return self.person is not None

    @property
    def gap(self) -> float:
        return self.score - self.runner_up_score


UNKNOWN = Identification(None, 0.0)


# -- pure helpers ------------------------------------------------------------------------------

def check_embedding(vector, what: str = "voiceprint") -> np.ndarray:
    """A 256-d finite, non-zero float32 vector, L2-normalised; raises VoiceprintError otherwise."""
    try:
        v = np.asarray(vector, dtype=np.float32).reshape(-1)
    except (TypeError, ValueError):
        raise VoiceprintError(f"the {what} is not a numeric vector") from None
    if v.shape[0] != VOICE_DIM:
        raise VoiceprintError(f"the {what} has {v.shape[0]} values; a voiceprint has {VOICE_DIM}")
    if not np.all(np.isfinite(v)):
        raise VoiceprintError(f"the {what} holds non-finite values (NaN or infinity)")
    norm = float(np.linalg.norm(v))
    if norm < 1e-6:
        raise VoiceprintError(f"the {what} is all zeros")
    return v / norm


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    a = np.asarray(a, dtype=np.float32).reshape(-1)
    b = np.asarray(b, dtype=np.float32).reshape(-1)
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(a @ b) / (na * nb)


def person_scores(query: np.ndarray, prints: Mapping[Hashable, np.ndarray], top_k: int = TOP_K) -> dict:
    """Score per person: mean of the top_k cosine similarities of query to their (n, 256) voiceprints."""
    q = np.asarray(query, dtype=np.float32).reshape(-1)
    q = q / (np.linalg.norm(q) or 1.0)
    out = {}
    for person, matrix in prints.items():
        m = np.asarray(matrix, dtype=np.float32).reshape(-1, q.shape[0])
        if len(m) == 0:
            continue
        m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
        sims = np.sort(m @ q)[::-1]
        out[person] = float(np.mean(sims[:max(1, top_k)]))
    return out


def decide(scores: Mapping[Hashable, float], threshold: float = DEFAULT_THRESHOLD,
           margin: float = DEFAULT_MARGIN) -> Identification:
    """The best person if their score clears the threshold and beats the runner-up by the margin."""
    if not scores:
        return UNKNOWN
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], str(kv[0])))
    best, best_score = ranked[0]
    runner, runner_score = ranked[1] if len(ranked) > 1 else (None, 0.0)
    accepted = best_score >= threshold and best_score - runner_score >= margin
    return Identification(best if accepted else None, float(best_score), runner, float(runner_score), best)


def should_refresh(ident: Identification, threshold: float = DEFAULT_THRESHOLD, above: float = REFRESH_ABOVE,
                   gap: float = REFRESH_GAP) -> bool:
    """Only a confident recognition may teach a voiceprint: well above the threshold, clearly ahead."""
    return ident.person is not None and ident.score >= threshold + above and ident.gap >= gap


def refresh_slot(existing: np.ndarray, new: np.ndarray, cap: int = MAX_VOICEPRINTS,
                 anchors: int = ANCHORS) -> tuple[str, int | None]:
    """Where a new voiceprint goes among a person's existing ones (oldest first).

    ("skip", None): it is nearly identical to one already kept; ("add", None): there is room;
    ("replace", i): replace existing[i], the most redundant non-anchor voiceprint (the one closest to
    the others); ("skip", None) too when the new one would itself be the most redundant.
    """
    m = np.asarray(existing, dtype=np.float32).reshape(-1, VOICE_DIM)
    v = np.asarray(new, dtype=np.float32).reshape(-1)
    if len(m) and float(np.max(m @ v)) >= REDUNDANT:
        return "skip", None
    if len(m) < cap:
        return "add", None
    pool = np.vstack([m, v[None, :]])
    sims = pool @ pool.T
    np.fill_diagonal(sims, -np.inf)
    redundancy = sims.max(axis=1)  # closeness to its nearest neighbour
    candidates = list(range(min(anchors, len(m)), len(pool)))  # non-anchors and the new one
    # ties go to the newest, so a near-copy of a kept voiceprint is skipped rather than swapped in
    worst = max(candidates, key=lambda i: (round(float(redundancy[i]), 5), i))
    if worst == len(m):
        return "skip", None
    return "replace", worst


def prune_order(existing: np.ndarray, cap: int = MAX_VOICEPRINTS, anchors: int = ANCHORS) -> list[int]:
    """Indices to drop, most redundant first, so that at most `cap` voiceprints remain (anchors kept)."""
    m = np.asarray(existing, dtype=np.float32).reshape(-1, VOICE_DIM)
    keep = list(range(len(m)))
    dropped: list[int] = []
    while len(keep) > cap:
        sub = m[keep]
        sims = sub @ sub.T
        np.fill_diagonal(sims, -np.inf)
        redundancy = sims.max(axis=1)
        pos = [p for p in range(len(keep)) if keep[p] >= anchors] or list(range(len(keep)))
        worst = max(pos, key=lambda p: (redundancy[p], -p))
        dropped.append(keep.pop(worst))
    return dropped


# -- the encoder -------------------------------------------------------------------------------

class VoiceEncoder:
    """resemblyzer's speaker encoder behind one method: 16 kHz mono float32 audio -> (256,) float32."""

    name = "resemblyzer"

    def __init__(self, device: str = "cpu") -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # webrtcvad imports the deprecated pkg_resources
            try:
                import resemblyzer
                from resemblyzer import audio as r_audio
            except ImportError as exc:
                raise VoiceprintError(f"the voice encoder (resemblyzer) cannot be imported: {exc}") from None
        self._audio = r_audio
        self._norm_dbfs = resemblyzer.hparams.audio_norm_target_dBFS
        try:
            self._model = resemblyzer.VoiceEncoder(device, verbose=False)
        except Exception as exc:  # a missing or damaged pretrained.pt
            raise VoiceprintError(f"the voice encoder cannot load its weights: {exc}") from None
        self.warm = False

    def warm_up(self) -> None:
        """Run one embedding of a synthetic voiced sound so the first real turn does not pay for it."""
        t = np.arange(int(2.0 * SAMPLE_RATE)) / SAMPLE_RATE
        f0 = 120 + 20 * np.sin(2 * np.pi * 3 * t)
        phase = 2 * np.pi * np.cumsum(f0) / SAMPLE_RATE
        voiced = sum(np.sin(k * phase) / k for k in range(1, 12)) * (0.6 + 0.4 * np.sin(2 * np.pi * 4 * t))
        self.embed((0.1 * voiced).astype(np.float32))
        self.warm = True

    def prepare(self, audio16k: np.ndarray) -> np.ndarray:
        """Volume normalised (increase only) and long silences trimmed, as resemblyzer was trained."""
        a = np.asarray(audio16k, dtype=np.float32).reshape(-1)
        if a.size == 0:
            raise VoiceprintError("no audio to take a voiceprint from")
        if not np.all(np.isfinite(a)):
            raise VoiceprintError("the audio holds non-finite samples")
        rms = float(np.sqrt(np.mean(a.astype(np.float64) ** 2)))
        if rms < 1e-5:
            raise VoiceprintError("the audio is silent; no voice to take a voiceprint from")
        gain = 10 ** ((self._norm_dbfs - 20 * math.log10(rms)) / 20)
        if gain > 1:
            a = a * gain
        a = np.clip(a, -1.0, 1.0)
        trimmed = self._audio.trim_long_silences(a)
        # webrtcvad can trim a short or quiet utterance to almost nothing: then use it whole
        return trimmed if len(trimmed) >= MIN_SECONDS * SAMPLE_RATE else a

    def embed(self, audio16k: np.ndarray) -> np.ndarray:
        wav = self.prepare(audio16k)
        try:
            e = self._model.embed_utterance(wav.astype(np.float32))
        except Exception as exc:
            raise VoiceprintError(f"the voice encoder failed: {str(exc).strip().splitlines()[0] if str(exc) else exc}") \
                from None
        return check_embedding(e, "voice encoder output")


@dataclass
class _UnknownVoice:
    embeddings: list[np.ndarray]
    last_heard: int


class UnknownVoices:
    """Voices nobody was recognised in, grouped as they are heard: a voice that scores above the
    threshold against a group joins it, and once a group has `agree` utterances it is a person in
    the making (hear() returns its embeddings and forgets the group). At most `limit` groups are
    kept; the one heard longest ago goes first."""

    def __init__(self, threshold: float, agree: int, limit: int) -> None:
        self.threshold, self.agree, self.limit = threshold, agree, limit
        self._groups: list[_UnknownVoice] = []
        self._heard = 0

    def hear(self, embedding: np.ndarray) -> list[np.ndarray] | None:
        self._heard += 1
        best, best_score = None, -1.0
        for group in self._groups:
            score = person_scores(embedding, {0: np.vstack(group.embeddings)})[0]
            if score > best_score:
                best, best_score = group, score
        if best is None or best_score < self.threshold:
            self._groups.append(_UnknownVoice([embedding], self._heard))
            if len(self._groups) > self.limit:
                self._groups.remove(min(self._groups, key=lambda g: g.last_heard))
            return None
        best.embeddings.append(embedding)
        best.last_heard = self._heard
        if len(best.embeddings) < self.agree:
            return None
        self._groups.remove(best)
        return best.embeddings

    def clear(self) -> None:
        self._groups.clear()
