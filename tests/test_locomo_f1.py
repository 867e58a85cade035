"""LoCoMo's token F1 (benchmarks/locomo_f1.py) and the LoCoMo answer sample, on hand-made examples."""

from __future__ import annotations

import pytest
from conftest import ROOT, load_benchmark

f1 = load_benchmark("locomo_f1")


def memory_benchmark():
    """benchmarks/memory.py under another name: `memory` is the package it measures."""
    import importlib.util
    import sys

    if "memory_benchmark" not in sys.modules:
        spec = importlib.util.spec_from_file_location("memory_benchmark", ROOT / "benchmarks" / "memory.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["memory_benchmark"] = module
        spec.loader.exec_module(module)
    return sys.modules["memory_benchmark"]


def test_normalising_drops_commas_case_punctuation_articles_and_and():
    assert f1.normalize_answer("The cat, and a Dog!") == "cat dog"
    assert f1.normalize_answer("  An   apple-pie.  ") == "applepie"
    assert f1.normalize_answer("Theatre band") == "theatre band"  # whole words only


@pytest.mark.parametrize("word, stem", [
    ("caresses", "caress"), ("ponies", "poni"), ("dies", "die"), ("cats", "cat"), ("agreed", "agre"),
    ("hopping", "hop"), ("hoping", "hope"), ("falling", "fall"), ("happy", "happi"), ("enjoy", "enjoy"),
    ("relational", "relat"), ("generalization", "gener"), ("skies", "sky"), ("dying", "die"), ("is", "is"),
])
def test_porter_stem_as_nltk_stems(word, stem):
    assert f1.porter_stem(word) == stem


def test_token_f1():
    assert f1.f1_score("Paris", "Paris") == 1.0
    assert f1.f1_score("She went to Paris", "paris") == pytest.approx(0.4)  # P 1/4, R 1
    assert f1.f1_score("paintings", "painting") == 1.0  # stems match
    assert f1.f1_score("May 7, 2023", "7 May 2023") == 1.0  # a bag of tokens, commas dropped
    assert f1.f1_score("no idea", "7 May 2023") == 0.0
    assert f1.f1_score("", "7 May 2023") == 0.0
    assert f1.f1_score("the", "the") == 0.0  # nothing left after normalising


def test_multi_hop_splits_on_commas_and_averages_over_the_gold_parts():
    assert f1.locomo_f1("pottery, camping", "pottery, camping, painting", 1) == pytest.approx(2 / 3)
    assert f1.locomo_f1("pottery, camping", "pottery, camping, painting", 4) == pytest.approx(0.8)  # one bag
    assert f1.locomo_f1("camping and pottery", "pottery, camping", 1) == pytest.approx(2 / 3)  # each part 2/3


def test_open_domain_gold_counts_up_to_its_first_semicolon():
    assert f1.locomo_f1("Likely yes", "Likely yes; she said she loves it", 3) == 1.0
    assert f1.locomo_f1("Likely yes", "Likely yes; she said she loves it", 4) < 1.0


def test_gold_may_be_a_number_and_adversarial_has_no_f1():
    assert f1.locomo_f1("in 2022", 2022, 2) == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        f1.locomo_f1("no information available", "", 5)


def test_sample_is_fixed_and_as_even_across_categories_as_they_allow():
    memory = memory_benchmark()
    keys = {1: [("a", i) for i in range(50)], 2: [("b", i) for i in range(50)], 3: [("c", i) for i in range(5)],
            4: [("d", i) for i in range(50)]}
    sample = memory.stratified_sample(keys, 20)
    assert sample == memory.stratified_sample(keys, 20)
    counts = {c: sum(k in set(v) for k in sample) for c, v in keys.items()}
    assert counts == {1: 5, 2: 5, 3: 5, 4: 5}
    counts = {c: sum(k in set(v) for k in memory.stratified_sample(keys, 35)) for c, v in keys.items()}
    assert counts == {1: 10, 2: 10, 3: 5, 4: 10}  # the short category's share goes to the others
    assert len(memory.stratified_sample(keys, 1000)) == 155
    assert memory.stratified_sample(keys, 20, seed=1) != sample


def test_the_question_is_asked_by_the_speaker_it_names():
    memory = memory_benchmark()
    speakers = ["Caroline", "Melanie"]
    assert memory.asking_speaker("When did Melanie paint a sunrise?", speakers) == "Melanie"
    assert memory.asking_speaker("What do Melanie and Caroline both like?", speakers) == "Melanie"
    assert memory.asking_speaker("Which city was the concert in?", speakers) == "Caroline"
    assert memory.asking_speaker("Did Carolines dog bark?", speakers[::-1]) == "Melanie"  # not a whole word
