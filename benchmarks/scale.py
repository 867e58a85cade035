"""Scale: one person with 100k memory items and 50 people in one store; recall, voices, the turn loop.

    .venv/bin/python benchmarks/scale.py [CLIP ...] [--items 100000] [--people 50]
                                         [--items-per-other 1000] [--json FILE]

Two stores are built beside each other:
  small   Dana, with the few real turns the latency benchmark seeds, and nobody else
  large   the same real turns plus --items synthetic items for Dana (random vectors over 200
          entities), and --people - 1 other people, each with their own items and three voiceprints
In the large store it measures recall for Dana (after prepare and cold, p50/p95) and speaker
identification over every person's voiceprints. Then each clip (default: the shared asr clips) is
replayed at real-time pace through the streaming loop, memory on, against the small store and then
the large one, clip by clip, so both see the same machine; it prints speech end to first audio and
recall after speech end for each store and the ratio of their p50s.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from assistant.config import load_config  # noqa: E402
from assistant.engines import load_engines  # noqa: E402
from assistant.timings import format_summary, percentile, summarize  # noqa: E402
from audio.sources import read_audio_file  # noqa: E402
from memory import open_store  # noqa: E402
from memory.speakers import SpeakerBook  # noqa: E402
from memory.store import ITEM  # noqa: E402


def _sibling(name: str):
    """Another benchmark's module, loaded by path (benchmarks/memory.py would shadow the memory package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


latency = _sibling("latency")
memory_benchmark = _sibling("memory")
SPEECH = latency.SPEECH


def build_large(data_dir: Path, config, engines, items: int, people: int, per_other: int) -> dict:
    """Dana's real seed turns plus `items` synthetic ones; `people - 1` others with items and voiceprints."""
    store = open_store(data_dir, engines.embedder)
    memory = latency.seeded_memory(store, replace(config, data_dir=str(data_dir)), engines)
    dana = memory.person.person_id
    started = time.perf_counter()
    memory_benchmark.synth(store, dana, items)
    rng = np.random.default_rng(7)
    book = SpeakerBook(store)
    book.enrol("Dana", _unit(rng, 3))
    for n in range(1, people):
        pid = book.enrol(f"Person {n}", _unit(rng, 3))
        memory_benchmark.synth(store, pid, per_other, entities=20, seed=n)
    build_s = time.perf_counter() - started
    counts = dict(zip(("people", "items", "voiceprints"), store.conn.execute(
        "SELECT (SELECT count(*) FROM people), (SELECT count(*) FROM items), "
        "(SELECT count(*) FROM voiceprints)").fetchone()))
    counts["dana_items"] = store.conn.execute("SELECT count(*) FROM items WHERE person_id = ?", (dana,)).fetchone()[0]
    store.close()
    return {"build_s": build_s, **counts}


def _unit(rng, n: int, dim: int = 256) -> list[np.ndarray]:
    v = rng.standard_normal((n, dim)).astype(np.float32)
    return list(v / np.linalg.norm(v, axis=1, keepdims=True))


def identification_ms(store, engines, clips: list[Path], repeats: int = 5) -> dict:
    """Time to score a real voice against every enrolled person's voiceprints (the embedding excluded)."""
    book = SpeakerBook(store)
    embeddings = [engines.voice.embed(read_audio_file(c)) for c in clips[:6]]
    book.identify(embeddings[0])  # loads the voiceprints once, as the first turn of a session does
    times = []
    for _ in range(repeats):
        for e in embeddings:
            t0 = time.perf_counter()
            book.identify(e)
            times.append(time.perf_counter() - t0)
    return {"p50": 1000 * percentile(times, 50), "p95": 1000 * percentile(times, 95), "n": len(times)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clips", nargs="*", type=Path, help="recordings to replay (default: the shared asr clips)")
    parser.add_argument("--items", type=int, default=100_000, help="synthetic memory items for Dana")
    parser.add_argument("--people", type=int, default=50, help="people in the large store, Dana included")
    parser.add_argument("--items-per-other", type=int, default=1000)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    if not SPEECH.is_dir():
        print(f"scale: shared speech data not found at {SPEECH}", file=sys.stderr)
        return 2
    clips = args.clips or latency.default_clips()

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = replace(load_config(), data_dir=str(tmp / "small"))
        engines = load_engines(config)
        engines.llm.complete([{"role": "user", "content": "hello"}], max_tokens=4)  # warm up, as start-up does
        report: dict = {"clips": [str(c) for c in clips], "models": engines.describe()}
        print(f"building the large store: {args.items} items for Dana, {args.people} people", file=sys.stderr)
        report["large_store"] = build_large(tmp / "large", config, engines, args.items, args.people,
                                            args.items_per_other)
        small = open_store(tmp / "small", engines.embedder)
        large = open_store(tmp / "large", engines.embedder)
        dana = large.find_person("Dana")
        t0 = time.perf_counter()
        large.matrix(dana, ITEM)
        report["matrix_load_s"] = time.perf_counter() - t0
        report["recall"] = memory_benchmark.measure_recall(large, dana, engines.embedder)
        report["speaker_identification_ms"] = identification_ms(large, engines, clips)

        rows: dict[str, list[dict]] = {"small": [], "large": []}
        for n, clip in enumerate(clips):
            for name, store in (("small", small), ("large", large)):
                rows[name] += latency.replay_all([clip], engines, config, store, latency.PIPELINES["streaming"],
                                                 tmp / name / f"{n:03d}")
        small.close()
        large.close()

    report["loop"] = {name: summarize([r["stages"] for r in got if r["answered"]]) for name, got in rows.items()}
    report["turns"] = rows
    s = report["large_store"]
    print(f"\nlarge store: {s['people']} people, {s['items']} items ({s['dana_items']} Dana's), "
          f"{s['voiceprints']} voiceprints; built in {s['build_s']:.0f} s; Dana's matrix loads in "
          f"{report['matrix_load_s']:.2f} s")
    r = report["recall"]
    print(f"recall for Dana: after prepare p50 {r['after_prepare_ms']['p50']:.1f} / p95 "
          f"{r['after_prepare_ms']['p95']:.1f} ms (goal < 10), cold p50 {r['cold_ms']['p50']:.1f} / p95 "
          f"{r['cold_ms']['p95']:.1f} ms (goal < 50)")
    i = report["speaker_identification_ms"]
    print(f"speaker identification over {s['people']} people: p50 {i['p50']:.2f} / p95 {i['p95']:.2f} ms")
    for name in ("small", "large"):
        print(f"\nturn loop, {name} store ({sum(x['answered'] for x in rows[name])} answered turns, streaming, "
              f"real-time replay)")
        print(format_summary(report["loop"][name]))
    p50 = {name: report["loop"][name].get("speech_end_to_first_audio", {}).get("p50") for name in rows}
    if p50["small"] and p50["large"]:
        report["ratio_large_over_small_p50"] = p50["large"] / p50["small"]
        print(f"\nspeech end to first audio, p50: large / small = {report['ratio_large_over_small_p50']:.3f} "
              f"(goal at most 1.10)")
    write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
