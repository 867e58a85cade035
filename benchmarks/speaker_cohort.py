"""Cohort score normalisation, measured against raw scores, for benchmarks/speakers.py (JSON
`speakers.cohort_norm`).

Adaptive symmetric normalisation (AS-norm): a score is restated as how far it stands above the
voice's usual likeness to other people, seen from the utterance (its top-N similarities to a
cohort of other voices) and from the person's voiceprints (theirs to the same cohort), averaged.
It helps where a microphone or a room lifts every score alike.

The cohort is half the shared strangers (the even-numbered clips); the strangers scored are the
other half, so no clip is both. Hearth ships raw scores: on the shared speakers normalisation
separated them no better (see the README), so no cohort is shipped. Run this on other recordings
(`--speakers`) to judge it again.
"""

from __future__ import annotations

from typing import Hashable, Mapping

import numpy as np

from audio.voiceprint import person_scores

TOP_N = 20  # the cohort voices nearest each side


def _unit(m) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32).reshape(-1, np.shape(m)[-1])
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def cohort_stats(vectors, cohort, top_n: int = TOP_N) -> tuple[float, float]:
    """Mean and spread of the top_n similarities of each vector to the cohort, pooled."""
    sims = np.sort(_unit(vectors) @ _unit(cohort).T, axis=1)[:, ::-1][:, :top_n]
    return float(sims.mean()), float(sims.std()) + 1e-6


def normalised(raw: Mapping[Hashable, float], query, prints: Mapping[Hashable, np.ndarray], cohort,
               top_n: int = TOP_N) -> dict:
    """AS-norm of each person's raw score for this query."""
    q_mean, q_std = cohort_stats(query, cohort, top_n)
    out = {}
    for person, score in raw.items():
        p_mean, p_std = cohort_stats(prints[person], cohort, top_n)
        out[person] = 0.5 * ((score - q_mean) / q_std + (score - p_mean) / p_std)
    return out


def separation(target, nontarget) -> dict:
    """How far apart the right person's scores and everyone else's are, on any scale: d' (the
    means' distance in pooled spreads), the EER, and the share of right-person scores above the
    highest wrong one (what a threshold accepting no stranger would recognise)."""
    t, n = np.asarray(target, dtype=float), np.asarray(nontarget, dtype=float)
    eer = min(max(float((n >= x).mean()), float((t < x).mean())) for x in np.concatenate([t, n]))
    return {"d_prime": float((t.mean() - n.mean()) / np.sqrt(0.5 * (t.var() + n.var()))), "eer": eer,
            "recognised_at_no_false_accept": float((t > n.max()).mean())}


def cohort_comparison(speakers: dict, impostors: list, enrol: int) -> dict:
    cohort = [c.whole for c in impostors[::2]]
    scored = impostors[1::2]
    prints = {who: _unit([c.whole for c in clips[:enrol]]) for who, clips in speakers.items()}
    report = {"cohort_clips": len(cohort), "scored_strangers": len(scored), "top_n": TOP_N}
    for mode in ("whole", "piece"):
        sides = {"raw": ([], []), "normalised": ([], [])}
        trials = [(who, getattr(c, mode)) for who, clips in speakers.items() for c in clips[enrol:]] + \
                 [(None, getattr(c, mode)) for c in scored]
        for who, query in trials:
            raw = person_scores(query, prints)
            for name, scores in (("raw", raw), ("normalised", normalised(raw, query, prints, cohort))):
                target, nontarget = sides[name]
                target.extend(s for p, s in scores.items() if p == who)
                nontarget.extend(s for p, s in scores.items() if p != who)
        report["pieces" if mode == "piece" else "full"] = {name: separation(*sides[name]) for name in sides}
    return report


def print_cohort(c: dict) -> None:
    print(f"\ncohort normalisation (AS-norm, top {c['top_n']} of {c['cohort_clips']} strangers; the other "
          f"{c['scored_strangers']} scored):")
    print("              d'     EER   recognised with no false accept")
    for mode in ("full", "pieces"):
        for name, s in c[mode].items():
            print(f"  {mode:6s} {name:10s} {s['d_prime']:5.2f}  {s['eer']:5.1%}   {s['recognised_at_no_false_accept']:6.1%}")
