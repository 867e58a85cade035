"""LoCoMo's token F1 for a model's answer against the gold answer, as LoCoMo's own evaluation scores it.

A port of `task_eval/evaluation.py` in the snap-research LoCoMo repository (Maharana et al., 2024):
`normalize_answer`, `f1_score`, the multi-answer `f1`, and `eval_question_answering`'s choice between
them by category. What it does, step by step:

- the gold answer is read as a string; for category 3 only its part before the first ";" counts;
- normalising: commas are dropped, then lowercase, ASCII punctuation removed, the words "a", "an",
  "the" and (LoCoMo's code adds it) "and" removed, whitespace collapsed;
- tokens are the normalised text split on whitespace, each Porter-stemmed (LoCoMo uses NLTK's
  `PorterStemmer()`, whose default mode is NLTK_EXTENSIONS; `porter_stem` below is that mode);
- F1 over the two token multisets (0 when they share nothing);
- categories 2, 3, 4: that F1 of the whole answer; category 1 (multi-hop): the prediction and the gold
  are each split on commas, and the score is the mean, over the gold's parts, of the best F1 of any
  prediction part against it.

Pure functions, no dependencies: the benchmark must not need NLTK installed.
"""

from __future__ import annotations

import re
import string
from collections import Counter

_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")


def normalize_answer(text: str) -> str:
    """LoCoMo's normalize_answer: drop commas, lowercase, drop punctuation, drop a/an/the/and, squeeze spaces."""
    text = str(text).replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def tokens(text: str) -> list[str]:
    return [porter_stem(w) for w in normalize_answer(text).split()]


def f1_score(prediction: str, gold: str) -> float:
    """Token F1 of the stemmed, normalised words (LoCoMo's f1_score)."""
    pred, ref = tokens(prediction), tokens(gold)
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def f1_multi(prediction: str, gold: str) -> float:
    """LoCoMo's f1 for multi-hop answers: both split on commas; the mean over the gold's parts of the best
    part of the prediction."""
    preds = [p.strip() for p in str(prediction).split(",")]
    golds = [g.strip() for g in str(gold).split(",")]
    return sum(max(f1_score(p, g) for p in preds) for g in golds) / len(golds)


def locomo_f1(prediction: str, gold, category: int) -> float:
    """The score LoCoMo's eval_question_answering gives one answer (0-1), categories 1-4 read as LoCoMo's
    code reads them: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop."""
    gold = str(gold)
    if category == 3:
        gold = gold.split(";")[0].strip()
    if category == 1:
        return f1_multi(prediction, gold)
    if category in (2, 3, 4):
        return f1_score(prediction, gold)
    raise ValueError(f"no F1 for LoCoMo category {category!r} (5, adversarial, is scored another way)")


# -- Porter's stemmer, as NLTK's PorterStemmer() (mode NLTK_EXTENSIONS) stems a lowercase word ---------

_IRREGULAR = {"skies": "sky", "sky": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
              "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
              "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
              "exceed": "exceed", "succeed": "succeed"}


def _consonant(word: str, i: int) -> bool:
    ch = word[i]
    if ch in "aeiou":
        return False
    if ch == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]."""
    pattern = "".join("c" if _consonant(stem, i) else "v" for i in range(len(stem)))
    return pattern.count("vc")


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    n = len(word)
    if n >= 3 and _consonant(word, n - 3) and not _consonant(word, n - 2) and _consonant(word, n - 1) \
            and word[-1] not in "wxy":
        return True
    return n == 2 and not _consonant(word, 0) and _consonant(word, 1)


def _rules(word: str, rules) -> str:
    """The first rule whose suffix the word ends with decides: replaced if its condition holds on the stem,
    else the word is left as it is."""
    for suffix, replacement, condition in rules:
        if suffix == "*d":
            if _double_consonant(word):
                stem = word[:-2]
                return stem + replacement if condition is None or condition(stem) else word
            continue
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if condition is None or condition(stem) else word
    return word


def _m_pos(stem: str) -> bool:
    return _measure(stem) > 0


def _m_gt1(stem: str) -> bool:
    return _measure(stem) > 1


def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        return word[:-3] + "ie"
    return _rules(word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)])


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            stem = word[: -len(suffix)]
            break
    else:
        return word
    return _rules(stem, [("at", "ate", None), ("bl", "ble", None), ("iz", "ize", None),
                         ("*d", stem[-1:], lambda s: stem[-1] not in "lsz"),
                         ("", "e", lambda s: _measure(s) == 1 and _cvc(s))])


def _step1c(word: str) -> str:
    return _rules(word, [("y", "i", lambda s: len(s) > 1 and _consonant(s, len(s) - 1))])


_STEP2 = [("ational", "ate", _m_pos), ("tional", "tion", _m_pos), ("enci", "ence", _m_pos),
          ("anci", "ance", _m_pos), ("izer", "ize", _m_pos), ("bli", "ble", _m_pos), ("alli", "al", _m_pos),
          ("entli", "ent", _m_pos), ("eli", "e", _m_pos), ("ousli", "ous", _m_pos), ("ization", "ize", _m_pos),
          ("ation", "ate", _m_pos), ("ator", "ate", _m_pos), ("alism", "al", _m_pos),
          ("iveness", "ive", _m_pos), ("fulness", "ful", _m_pos), ("ousness", "ous", _m_pos),
          ("aliti", "al", _m_pos), ("iviti", "ive", _m_pos), ("biliti", "ble", _m_pos),
          ("fulli", "ful", _m_pos)]


def _step2(word: str) -> str:
    if word.endswith("alli") and _m_pos(word[:-4]):
        return _step2(word[:-4] + "al")
    return _rules(word, _STEP2 + [("logi", "log", lambda s: _m_pos(word[:-3]))])


_STEP3 = [("icate", "ic", _m_pos), ("ative", "", _m_pos), ("alize", "al", _m_pos), ("iciti", "ic", _m_pos),
          ("ical", "ic", _m_pos), ("ful", "", _m_pos), ("ness", "", _m_pos)]

_STEP4 = [(s, "", _m_gt1) for s in ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
                                    "ent")] + \
         [("ion", "", lambda s: _m_gt1(s) and s[-1:] in ("s", "t"))] + \
         [(s, "", _m_gt1) for s in ("ou", "ism", "ate", "iti", "ous", "ive", "ize")]


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        if _measure(stem) > 1 or (_measure(stem) == 1 and not _cvc(stem)):
            return stem
    return word


def _step5b(word: str) -> str:
    return _rules(word, [("ll", "l", lambda s: _measure(word[:-1]) > 1)])


def porter_stem(word: str) -> str:
    """Porter's stemmer with NLTK's extensions (its irregular forms, 'dies' -> 'die', 'enjoy' kept, 'logi',
    'fulli'), on a lowercased word; words of one or two letters are kept."""
    word = word.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 2:
        return word
    for step in (_step1a, _step1b, _step1c, _step2, lambda w: _rules(w, _STEP3), lambda w: _rules(w, _STEP4),
                 _step5a, _step5b):
        word = step(word)
    return word
