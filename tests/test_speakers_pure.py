"""The pure parts of speaker identification: scores, decisions, refresh rules, enrolment intent and dialog."""

from __future__ import annotations

import numpy as np
import pytest

from audio.voiceprint import (ANCHORS, MAX_VOICEPRINTS, REDUNDANT, VOICE_DIM, Identification, VoiceprintError,
                              check_embedding, cosine, decide, person_scores, prune_order, refresh_slot,
                              should_refresh)
from memory.enrolment import DialogStep, EnrolmentDialog, enrolment_intent, is_no, is_yes
from text.questions import asks_about_themselves


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(VOICE_DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def near(base: np.ndarray, similarity: float, seed: int) -> np.ndarray:
    """A unit vector whose cosine with `base` is exactly `similarity`."""
    other = unit(seed)
    other = other - (other @ base) * base
    other /= np.linalg.norm(other)
    v = similarity * base + np.sqrt(1 - similarity ** 2) * other
    return (v / np.linalg.norm(v)).astype(np.float32)


# -- embeddings ---------------------------------------------------------------------------------

def test_check_embedding_normalises_a_good_vector():
    v = check_embedding(3 * unit(1))
    assert v.dtype == np.float32 and v.shape == (VOICE_DIM,)
    assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("bad, words", [
    (np.ones(255), "255 values"),
    (np.ones(384), "384 values"),
    (np.array([]), "0 values"),
    (np.full(VOICE_DIM, np.nan), "non-finite"),
    (np.r_[np.ones(VOICE_DIM - 1), np.inf], "non-finite"),
    (np.zeros(VOICE_DIM), "all zeros"),
    ("not a vector", "not a numeric vector"),
])
def test_check_embedding_rejects_bad_vectors_with_one_line(bad, words):
    with pytest.raises(VoiceprintError) as err:
        check_embedding(bad)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_cosine():
    a = unit(1)
    assert cosine(a, a) == pytest.approx(1.0, abs=1e-6)
    assert cosine(a, -a) == pytest.approx(-1.0, abs=1e-6)
    assert cosine(a, near(a, 0.3, 2)) == pytest.approx(0.3, abs=1e-5)
    assert cosine(a, np.zeros(VOICE_DIM)) == 0.0


def test_person_score_is_the_mean_of_the_two_best_voiceprints():
    q = unit(1)
    prints = {"ann": np.stack([near(q, 0.9, 2), near(q, 0.7, 3), near(q, 0.1, 4)]),
              "bob": np.stack([near(q, 0.5, 5)])}
    scores = person_scores(q, prints)
    assert scores["ann"] == pytest.approx(0.8, abs=1e-4)
    assert scores["bob"] == pytest.approx(0.5, abs=1e-4)  # one voiceprint: its own similarity


def test_one_stray_voiceprint_does_not_carry_a_match_alone():
    q = unit(1)
    # ann's set holds one voiceprint that is really q's voice, the rest are far from it
    scores = person_scores(q, {"ann": np.stack([near(q, 0.95, 2), near(q, 0.3, 3), near(q, 0.2, 4)])})
    assert scores["ann"] < 0.7


# -- decide -------------------------------------------------------------------------------------

def test_decide_accepts_a_clear_winner_above_the_threshold():
    ident = decide({"ann": 0.85, "bob": 0.40}, threshold=0.75, margin=0.05)
    assert ident == Identification("ann", 0.85, "bob", 0.40, "ann")
    assert ident.known and ident.gap == pytest.approx(0.45)


def test_decide_rejects_below_the_threshold_but_keeps_the_candidate():
    ident = decide({"ann": 0.70, "bob": 0.40}, threshold=0.75)
    assert ident.person is None and ident.candidate == "ann" and ident.score == pytest.approx(0.70)


def test_decide_rejects_two_close_candidates():
    ident = decide({"ann": 0.82, "bob": 0.80}, threshold=0.75, margin=0.05)
    assert ident.person is None and {ident.candidate, ident.runner_up} == {"ann", "bob"}


def test_decide_threshold_is_inclusive():
    assert decide({"ann": 0.75}, threshold=0.75).person == "ann"


def test_decide_with_nobody_enrolled():
    ident = decide({})
    assert ident.person is None and ident.candidate is None and ident.score == 0.0


def test_decide_with_one_person_has_no_runner_up():
    ident = decide({7: 0.9}, threshold=0.75)
    assert ident.person == 7 and ident.runner_up is None and ident.runner_up_score == 0.0


# -- refresh ------------------------------------------------------------------------------------

@pytest.mark.parametrize("score, runner, expected", [
    (0.95, 0.40, True),    # confident and clear
    (0.80, 0.40, False),   # recognised, but not well above the threshold
    (0.95, 0.85, False),   # well above, but the runner-up is close
    (0.70, 0.10, False),   # not recognised at all
])
def test_refresh_only_from_confident_recognitions(score, runner, expected):
    ident = decide({"ann": score, "bob": runner}, threshold=0.75, margin=0.05)
    assert should_refresh(ident, threshold=0.75) is expected


def test_refresh_slot_adds_while_there_is_room():
    base = unit(1)
    existing = np.stack([near(base, 0.8, s) for s in range(2, 5)])
    assert refresh_slot(existing, near(base, 0.85, 9)) == ("add", None)


def test_refresh_slot_skips_a_near_duplicate():
    base = unit(1)
    existing = np.stack([base, near(base, 0.8, 2)])
    assert refresh_slot(existing, near(base, REDUNDANT + 0.01, 3)) == ("skip", None)


def test_refresh_slot_replaces_the_most_redundant_non_anchor_when_full():
    base = unit(1)
    existing = [near(base, 0.6, s) for s in range(10, 10 + MAX_VOICEPRINTS)]
    existing[5] = near(existing[4], 0.95, 99)  # 4 and 5 are nearly the same: one of them is redundant
    action, index = refresh_slot(np.stack(existing), near(base, 0.6, 50))
    assert action == "replace" and index in (4, 5) and index >= ANCHORS


def test_refresh_slot_never_replaces_an_anchor():
    base = unit(1)
    existing = [near(base, 0.6, s) for s in range(10, 10 + MAX_VOICEPRINTS)]
    existing[1] = near(existing[0], 0.96, 99)  # the redundant pair are both anchors
    action, index = refresh_slot(np.stack(existing), near(base, 0.6, 50))
    assert action in ("replace", "skip")
    assert index is None or index >= ANCHORS


def test_refresh_slot_skips_when_the_new_one_is_the_most_redundant():
    base = unit(1)
    existing = [near(base, 0.5, s) for s in range(10, 10 + MAX_VOICEPRINTS)]
    new = near(existing[6], 0.96, 77)
    assert refresh_slot(np.stack(existing), new) == ("skip", None)


def test_one_misrecognition_moves_at_most_one_voiceprint():
    ann, bob = unit(1), unit(2)
    prints = np.stack([near(ann, 0.85, s) for s in range(10, 10 + MAX_VOICEPRINTS)])
    action, index = refresh_slot(prints, near(bob, 0.9, 3))  # bob's voice wrongly taken as ann's
    if action == "replace":
        prints[index] = near(bob, 0.9, 3)
    # ann still scores high against ann's voice, and bob's voice does not now pass as ann's
    assert person_scores(near(ann, 0.9, 4), {"a": prints})["a"] > 0.7
    assert person_scores(near(bob, 0.9, 5), {"a": prints})["a"] < 0.6


def test_prune_order_keeps_cap_and_anchors():
    base = unit(1)
    m = np.stack([near(base, 0.7, s) for s in range(20, 32)])
    drop = prune_order(m, cap=8, anchors=3)
    assert len(drop) == 4 and all(i >= 3 for i in drop) and len(set(drop)) == 4
    assert prune_order(m[:5], cap=8) == []


# -- enrolment intent ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, name", [
    ("My name is Priya.", "Priya"),
    ("my name is priya", "Priya"),
    ("Hi, my name's Jo.", "Jo"),
    ("My name is, uh, Priya.", "Priya"),
    ("My name is Priya and I live in Leeds.", "Priya"),
    ("My name is Mary Anne.", "Mary Anne"),
    ("I'm Priya.", "Priya"),
    ("Hi, I'm Priya, nice to meet you.", "Priya"),
    ("Hello I'm Ana", "Ana"),
    ("I am Priya Sharma.", "Priya Sharma"),
    ("I\u2019m Tom.", "Tom"),
    ("Call me Bob.", "Bob"),
    ("You can call me Liz, please.", "Liz"),
    ("This is Priya.", "Priya"),
    ("Hello, this is Tom speaking.", "Tom"),
    ("It's Tom here.", "Tom"),
    ("Yes, I'm O'Neill.", "O'Neill"),
    ("My name is Jean-Luc.", "Jean-Luc"),
])
def test_enrolment_intent_finds_the_name(text, name):
    assert enrolment_intent(text) == name


@pytest.mark.parametrize("text", [
    "", "   ", "Hello there.", "I'm tired.", "I'm going home now.", "I'm not sure.", "I am so happy today.",
    "I'm Going Home.", "i'm priya",  # lower case after "I'm" is not trusted: ASR capitalises names
    "This is great.", "this is a test", "It's Monday.", "It's raining.", "Call me later.", "Can you call me a taxi?",
    "Call me when you're done.", "My name is not important.", "What is my name?", "I'm sorry.", "This is Hearth.",
    "My brother is Tom.", "His name is Tom.", "I'm Tom's sister and I need help with the rota",
    "Hello, my name is period",  # an ordinary word in lower case is a name misheard ("Priya", heard live)
])
def test_enrolment_intent_ignores_other_sentences(text):
    assert enrolment_intent(text) is None


@pytest.mark.parametrize("text", ["yes", "Yes.", "Yeah, please.", "Sure!", "OK", "Okay then", "Please do.",
                                  "Uh, yes.", "That's right.", "Of course", "yes please"])
def test_yes(text):
    assert is_yes(text) and not is_no(text)


@pytest.mark.parametrize("text", ["no", "No.", "Nope", "No thanks.", "Don't.", "Never mind.", "Not now",
                                  "No, don't do that"])
def test_no(text):
    assert is_no(text) and not is_yes(text)


@pytest.mark.parametrize("text", ["What's the weather like?", "Maybe later", ""])
def test_neither_yes_nor_no(text):
    assert not is_yes(text) and not is_no(text)


# -- enrolment dialog ---------------------------------------------------------------------------

def test_dialog_asks_then_enrols_on_yes():
    d = EnrolmentDialog()
    step = d.step("Hi, my name is Priya.", known=False)
    assert step.handled and step.say == "Shall I remember your voice as Priya?" and step.enrol is None
    assert d.state == EnrolmentDialog.CONFIRMING
    step = d.step("Yes, please.", known=False)
    assert step.handled and step.enrol == "Priya" and "Priya" in step.say
    assert d.state == EnrolmentDialog.IDLE


def test_dialog_drops_it_on_no():
    d = EnrolmentDialog()
    d.step("I'm Priya.", known=False)
    step = d.step("No.", known=False)
    assert step.handled and step.enrol is None and d.state == EnrolmentDialog.IDLE
    assert d.step("Yes.", known=False) == DialogStep()  # a later yes means nothing


def test_dialog_takes_a_corrected_name():
    d = EnrolmentDialog()
    d.step("My name is Pria.", known=False)
    step = d.step("No, my name is Priya.", known=False)
    assert step.say == "Shall I remember your voice as Priya?" and step.enrol is None
    assert d.step("yes", known=False).enrol == "Priya"


def test_dialog_repeating_the_name_confirms_it():
    d = EnrolmentDialog()
    d.step("Call me Bob.", known=False)
    assert d.step("Bob.", known=False).enrol is None  # a bare name is not an intent ...
    d = EnrolmentDialog()
    d.step("Call me Bob.", known=False)
    assert d.step("My name is Bob.", known=False).enrol == "Bob"  # ... saying it again is


def test_dialog_ignores_known_speakers():
    d = EnrolmentDialog()
    assert d.step("My name is Priya.", known=True) == DialogStep()
    assert d.state == EnrolmentDialog.IDLE


def test_dialog_ignores_ordinary_talk():
    d = EnrolmentDialog()
    assert d.step("What's the weather tomorrow?", known=False) == DialogStep()


@pytest.mark.parametrize("text", ["What was I worried about last time?", "What is my dog called?",
                                  "Do you remember me?", "Can you remind me where my sister lives?",
                                  "What did I tell you yesterday?", "Where is my sister getting married?",
                                  "How old is my dog?", "Have I told you about Max?",
                                  "What is happening on Thursday?", "Anything on tomorrow?",
                                  "What do I have on Friday?"])
def test_questions_only_their_own_memories_could_answer(text):
    assert asks_about_themselves(text)


@pytest.mark.parametrize("text", ["What's the weather tomorrow?", "Can you help me with my homework?",
                                  "Tell me a joke.", "How do I boil an egg?", "I love my dog.",
                                  "Can I ask you something?", "What is the best thing to do on Sunday?",
                                  "What day is it today?"])
def test_other_talk_does_not_ask_what_hearth_remembers_of_them(text):
    assert not asks_about_themselves(text)


def test_dialog_unrelated_answer_drops_the_question_and_passes_the_turn_on():
    d = EnrolmentDialog()
    d.step("I'm Priya.", known=False)
    assert d.step("What time is it?", known=False) == DialogStep()
    assert d.state == EnrolmentDialog.IDLE and d.pending is None


def test_dialog_refuses_a_name_that_belongs_to_someone_else():
    d = EnrolmentDialog()
    step = d.step("My name is Priya.", known=False, name_taken=lambda n: n == "Priya")
    assert step.handled and step.enrol is None and "already know someone called Priya" in step.say
    assert d.state == EnrolmentDialog.IDLE
    step = d.step("My name is Anna.", known=False, name_taken=lambda n: n == "Priya")
    assert step.say == "Shall I remember your voice as Anna?"


def test_the_speaker_benchmark_cuts_pieces_of_two_to_four_seconds_from_an_utterance():
    from conftest import load_benchmark

    bench = load_benchmark("speakers")
    rng = np.random.default_rng(0)
    utterance = np.arange(10 * 16_000, dtype=np.float32)
    for _ in range(50):
        cut = bench.piece(utterance, rng)
        assert 2 * 16_000 <= len(cut) <= 4 * 16_000
        assert np.array_equal(cut, utterance[int(cut[0]):int(cut[0]) + len(cut)])  # one stretch of it
    short = np.zeros(16_000, dtype=np.float32)
    assert bench.piece(short, rng) is short  # a shorter utterance is taken whole
