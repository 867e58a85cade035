"""Train the feeling classifier (memory/feelings.py) on the bundled model's sentence vectors.

    .venv/bin/python -m memory.train_feelings [--model GGUF] [--out memory/feelings.npz] [--check FILE ...]

Trained on the described situations (memory/implied.py's SITUATIONS), the examples of
memory/feeling_examples.json and the written turns of benchmarks/data/memory-writes-more.json, each
labelled with its feeling family or none. It prints how often the family is right on each of that
file's sets when trained without it (the sets were written one after another, each before the writer
was run on it), and on each `--check` file (by default the shared dev turns and
benchmarks/data/memory-writes-held.json, never trained on).
Needs scikit-learn (`pip install -e '.[train]'`); Hearth itself reads the weights with numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from memory.feelings import WEIGHTS, FeelingClassifier
from memory.implied import NONE, SITUATIONS

ROOT = Path(__file__).resolve().parent.parent
WRITTEN = ROOT / "benchmarks" / "data" / "memory-writes-more.json"
EXAMPLES = Path(__file__).with_name("feeling_examples.json")
CHECKS = (ROOT.parent / "shared" / "data" / "memory-writes" / "dev.json",
          ROOT / "benchmarks" / "data" / "memory-writes-held.json")
# How little the weights are held back (sklearn's C, the inverse of the L2 penalty): chosen by the
# mean over the sets left out (8 December 2026: C 30 77%, 100 76%, 300 75%; the vectors standardised
# first, 1-10: 75-76%).
STRENGTH = 30.0


def fit(vectors: np.ndarray, kinds: list[str], model: str) -> FeelingClassifier:
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=STRENGTH, max_iter=5000).fit(vectors, kinds)
    return FeelingClassifier(model, tuple(str(k) for k in fitted.classes_), fitted.coef_, fitted.intercept_)


def right(classifier: FeelingClassifier, vectors: np.ndarray, kinds: list[str]) -> float:
    return float(np.mean([classifier.read(v)[0] == k for v, k in zip(vectors, kinds)]))


def labelled(path: Path) -> tuple[list[str], list[str], list[int]]:
    """Texts, their kinds (NONE for no feeling) and the sizes of the file's sets (one set if it names none)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    turns = data["turns"]
    return [t["text"] for t in turns], [t["emotion"] or NONE for t in turns], data.get("sets", [len(turns)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, help="the GGUF file (default: the bundled model)")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--check", type=Path, nargs="*", default=[p for p in CHECKS if p.is_file()])
    args = parser.parse_args()
    try:
        import sklearn  # noqa: F401
    except ImportError:
        print("error: training needs scikit-learn: .venv/bin/pip install -e '.[train]'", file=sys.stderr)
        return 2
    from assistant.config import load_config
    from models import bundled
    from models.llm_local import LlamaCppChat

    path = args.model or bundled.bundled_llm(load_config().cache_path)
    llm = LlamaCppChat(path)
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8"))["kinds"]
    situations = [(text, kind) for said in (SITUATIONS, examples) for kind, texts in said.items() for text in texts]
    texts, kinds, sets = labelled(WRITTEN)
    vectors = np.array([llm.sentence_vector(t) for t in texts])
    base = np.array([llm.sentence_vector(t) for t, _ in situations])
    base_kinds = [k for _, k in situations]

    print(f"{len(situations)} situations and examples and {len(texts)} written turns, vectors of {path.name}")
    start, each = 0, []
    for size in sets:
        kept = list(range(0, start)) + list(range(start + size, len(texts)))
        left_out = fit(np.r_[vectors[kept], base], [kinds[i] for i in kept] + base_kinds, path.name)
        each.append(right(left_out, vectors[start:start + size], kinds[start:start + size]))
        print(f"  set of {size} turns ({start + 1}-{start + size}), left out: family right {each[-1]:.0%}")
        start += size
    print(f"  mean over the sets left out: {np.mean(each):.0%}")
    classifier = fit(np.r_[vectors, base], kinds + base_kinds, path.name)
    for check in args.check:
        check_texts, check_kinds, _ = labelled(check)
        score = right(classifier, np.array([llm.sentence_vector(t) for t in check_texts]), check_kinds)
        print(f"  {check.name} ({len(check_texts)} turns, not trained on): family right {score:.0%}")
    classifier.save(args.out, strength=STRENGTH, trained_on=len(texts) + len(situations))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
