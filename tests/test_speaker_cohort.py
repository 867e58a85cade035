"""Cohort score normalisation (benchmarks/speaker_cohort.py), as pure logic on made-up voices."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import load_benchmark

cohort_norm = load_benchmark("speaker_cohort")


def unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_cohort_stats_pool_each_vectors_nearest_cohort_voices():
    cohort = np.eye(4, dtype=np.float32)  # four voices at right angles
    mean, spread = cohort_norm.cohort_stats(unit([1, 1, 0, 0]), cohort, top_n=2)
    assert mean == pytest.approx(np.sqrt(0.5)) and spread == pytest.approx(0.0, abs=1e-5)
    mean, _ = cohort_norm.cohort_stats(np.stack([unit([1, 0, 0, 0]), unit([0, 1, 0, 0])]), cohort, top_n=1)
    assert mean == pytest.approx(1.0)


def test_the_same_raw_score_counts_for_less_from_an_utterance_that_resembles_everyone():
    cohort = np.eye(5, dtype=np.float32)[2:]  # three other voices
    prints = {"dana": np.eye(5, dtype=np.float32)[:1]}
    # both 0.8 like Dana; alike in how their likeness to the cohort spreads, not in how high it is
    plain = np.array([0.8, np.sqrt(0.34), 0.1, 0.0, -0.1], dtype=np.float32)
    everyone = np.array([0.8, np.sqrt(0.07), 0.4, 0.3, 0.2], dtype=np.float32)
    raw = {"dana": 0.8}
    quiet = cohort_norm.normalised(raw, plain, prints, cohort, top_n=3)["dana"]
    loud = cohort_norm.normalised(raw, everyone, prints, cohort, top_n=3)["dana"]
    assert loud < quiet


def test_separation_of_the_right_persons_scores_from_everyone_elses():
    apart = cohort_norm.separation([0.9, 0.85, 0.8], [0.5, 0.6, 0.55])
    assert apart["eer"] == 0.0 and apart["recognised_at_no_false_accept"] == 1.0 and apart["d_prime"] > 5
    overlapping = cohort_norm.separation([0.9, 0.7], [0.75, 0.5])
    assert overlapping["recognised_at_no_false_accept"] == 0.5 and overlapping["eer"] == 0.5
    assert overlapping["d_prime"] < apart["d_prime"]
