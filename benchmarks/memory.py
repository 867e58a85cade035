"""Memory benchmark: update scenarios, LoCoMo dev recall against a raw-turn baseline, speed at scale.

    .venv/bin/python benchmarks/memory.py [--scenarios FILE] [--requests FILE] [--locomo FILE] [--writes FILE]
                                          [--json FILE] [--skip-scale]
                                          [--llm | --no-llm] [--locomo-llm] [--sizes 1000,10000,100000]
                                          [--answers N] [--answer-prompt real,short,qa]
                                          [--clusters [--cluster-coherence A]]

`--clusters`: LoCoMo's questions asked in order as the persons' queries, by memories with clusters
emerging from them (memory/clusters.py) and without, in one run; evidence recall at the top 1, 3 and 5
results and in the 200-token block, and how many clusters formed holding what share of the items.
With `--llm` the bundled model judges each candidate cluster; without, every coherent group is promoted.

LoCoMo answers (`--answers N`, default 150, 0 = off): a fixed, seeded sample of N questions, as even across
the four categories as they allow, each answered by the bundled model at temperature 0 three ways, from
Hearth's memory block, from the raw-turn top-5 baseline block and with no memory, with Hearth's real reply
prompt (assistant/reply/prompt.py's build_messages, asked by the speaker the question names), each answer scored
with LoCoMo's own token F1 (benchmarks/locomo_f1.py). `--answer-prompt` names the prompts, comma-separated,
the first reported as the figure: `real` (that prompt), `short` (it with a short-answer instruction appended),
`qa` (LoCoMo's own plain question-answering instruction, the notes as they are written, no reply persona).

LoCoMo categories are read as LoCoMo's own evaluation code reads them: 1 multi-hop, 2 temporal,
3 open-domain, 4 single-hop (5, adversarial, is skipped).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from memory import MemoryStore, PersonMemory, open_store  # noqa: E402
from memory.ranking import block_results, estimate_tokens, memory_block  # noqa: E402
from memory.store import ITEM  # noqa: E402
from memory.emergence import answer_set  # noqa: E402

from locomo_f1 import locomo_f1  # noqa: E402  (a sibling: benchmarks/ is on the path when run as a script)
from memory_writes import print_writes, run_writes  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
STOP = set("""a an the and or but of to in on at for with from by as is are was were be been it its this that
these those he she they his her their i me my we our you your what when where which who how did does do has have
had not no so if then than there here about into over after before during s""".split())


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def load_llm():
    from assistant.config import Config

    try:
        from assistant.engines import load_llm as load

        return load(Config())
    except Exception:
        from models.bundled import bundled_llm
        from models.llm_local import LlamaCppChat

        return LlamaCppChat(bundled_llm(Config().cache_path))


# -- (a) update scenarios ---------------------------------------------------------------------

def run_scenarios(path: Path, embedder, llm, by_voice: bool = False) -> dict:
    """by_voice: each turn is taken as the loop takes it, so that a request of memory ("Forget
    that", "That's wrong, …") is answered and acted on (assistant/memory_access/commands.py); a
    probe's absent_any then lists words none of which may be recalled."""
    data = json.loads(path.read_text())
    criteria = ("history", "current", "emotion", "cause", "absent")
    passed = {c: [0, 0] for c in criteria}
    probes_ok = [0, 0]
    failures = []
    used_llm = [0, 0]
    for sc in data["scenarios"]:
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(Path(tmp), embedder)
            pid = store.add_person(sc["user"])
            clock = {"now": datetime(2000, 1, 1)}
            for n, session in enumerate(sc["sessions"], start=1):
                clock["now"] = datetime.fromisoformat(session["date"]).replace(hour=10)
                if by_voice:
                    pm = said_by_voice(store, pid, llm, lambda: clock["now"], session["turns"],
                                       lambda: clock.update(now=clock["now"] + timedelta(minutes=1)))
                else:
                    pm = PersonMemory(store, pid, llm=llm, clock=lambda: clock["now"])
                    for turn in session["turns"]:
                        pm.remember(turn, "")
                        clock["now"] += timedelta(minutes=1)
                    pm.end_session()
                for probe in (p for p in sc["probes"] if p["after_session"] == n):
                    results = pm.results(probe["query"], k=5)
                    text = " ".join(r.candidate.text for r in results).lower()
                    ok_all = True
                    for c in criteria:
                        words = probe.get(f"{c}_any")
                        if not words:
                            continue
                        hit = any(w.lower() in text for w in words) != (c == "absent")
                        passed[c][0] += hit
                        passed[c][1] += 1
                        ok_all &= hit
                        if not hit:
                            failures.append(f"{sc['id']} after {n}: {c} {words}")
                    probes_ok[0] += ok_all
                    probes_ok[1] += 1
            rows = store.conn.execute("SELECT method, count(*) FROM item_versions GROUP BY method").fetchall()
            counts = dict(rows)
            used_llm[0] += counts.get("llm", 0)
            used_llm[1] += counts.get("llm", 0) + counts.get("compose", 0)
            store.close()
    checks = sum(v[0] for v in passed.values()), sum(v[1] for v in passed.values())
    return {"per_criterion": {c: v[0] / v[1] for c, v in passed.items() if v[1]},
            "checks": checks[0] / checks[1], "probes": probes_ok[0] / probes_ok[1], "failures": failures,
            "updates_by_llm": used_llm[0], "updates_total": used_llm[1]}


def said_by_voice(store: MemoryStore, pid: int, llm, clock, turns: list[str], tick) -> PersonMemory:
    """One session's turns as the loop takes them: a request of memory answered and acted on, any
    other turn remembered; every write finished before the next turn."""
    from assistant.memory_access.remembering import LoopMemory

    memory = LoopMemory(store, pid, llm=llm, clock=clock)
    for turn in turns:
        answer = memory.request_reply(turn)
        memory.finish_turn(memory.begin_turn(turn), answer or "")
        memory.flush()
        tick()
    memory.end_session()
    return memory.person


def print_scenarios(label: str, r: dict) -> None:
    print(f"\n(a) update scenarios, {label}")
    print("  criterion   pass rate")
    for c, v in r["per_criterion"].items():
        print(f"  {c:<10}  {pct(v)}")
    print(f"  all checks  {pct(r['checks'])}   whole probes {pct(r['probes'])}   "
          f"updates written by the model: {r['updates_by_llm']}/{r['updates_total']}")
    for f in r["failures"]:
        print(f"    miss: {f}")


# -- (b) LoCoMo -------------------------------------------------------------------------------

def parse_locomo_date(text: str) -> datetime:
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", str(text).lower()) if w not in STOP}


def answer_recall(answer, block: str) -> float:
    words = content_words(answer)
    if not words:
        return 1.0
    have = set(re.findall(r"[a-z0-9]+", block.lower()))
    return sum(w in have for w in words) / len(words)


class CachedEmbedder:
    """The embedder with a text -> vector cache kept in a file between runs (benchmark iterations only)."""

    def __init__(self, embedder, path: Path | None) -> None:
        import pickle

        self.inner, self.path, self.dim = embedder, path, embedder.dim
        self.cache = pickle.loads(path.read_bytes()) if path and path.exists() else {}
        self.added = 0

    def embed(self, texts):
        texts = list(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing)):
                self.cache[t] = v
            self.added += len(missing)
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, self.dim), dtype=np.float32)

    def embed_one(self, text):
        return self.embed([text])[0]

    def save(self) -> None:
        import pickle

        if self.path and self.added:
            self.path.write_bytes(pickle.dumps(self.cache))


def wordpieces(embedder, text: str) -> int:
    """The block's length in the embedder's own (WordPiece) tokens: a second, real tokenizer as a check."""
    inner = getattr(embedder, "inner", embedder)
    tok = getattr(getattr(inner, "_model", None), "tokenizer", None)
    return len(tok(text, add_special_tokens=False)["input_ids"]) if tok is not None else estimate_tokens(text)


def stratified_sample(keys_by_category: dict, n: int, seed: int = 0) -> list:
    """A fixed sample of n keys, as even across the categories as they allow: the quota goes round the
    categories (in sorted order) one key at a time, skipping a category once it has none left, then each
    category's keys are drawn with random.Random(seed) from its sorted keys. Returns them sorted."""
    pools = {c: sorted(keys_by_category[c]) for c in sorted(keys_by_category)}
    quota = dict.fromkeys(pools, 0)
    while n > sum(quota.values()) and any(quota[c] < len(pools[c]) for c in pools):
        for c in pools:
            if quota[c] < len(pools[c]) and sum(quota.values()) < n:
                quota[c] += 1
    rng = random.Random(seed)
    return sorted(k for c in pools for k in rng.sample(pools[c], quota[c]))


def locomo_answer_keys(path: Path, n: int, seed: int = 0) -> set:
    """(sample_id, index in its qa list) of the n LoCoMo questions to answer with the model."""
    by_cat: dict[int, list] = {c: [] for c in CATEGORIES}
    for sample in json.loads(path.read_text()):
        for i, qa in enumerate(sample["qa"]):
            if qa.get("category") in CATEGORIES and "answer" in qa:
                by_cat[qa["category"]].append((sample["sample_id"], i))
    return set(stratified_sample(by_cat, n, seed))


def named_speakers(question: str, speakers: list[str]) -> dict[str, int]:
    """The speakers a LoCoMo question names, each with where it first names them."""
    return {s: m.start() for s in speakers if (m := re.search(rf"\b{re.escape(s)}\b", question))}


def whose_memory(question: str, speakers: list[str]) -> list[str]:
    """Whose memory a LoCoMo question is answered from: the one speaker it names, else both."""
    named = list(named_speakers(question, speakers))
    return named if len(named) == 1 else speakers


def asking_speaker(question: str, speakers: list[str]) -> str:
    """Who asks a LoCoMo question: the speaker it names (the first named, if both are), else speaker_a."""
    at = named_speakers(question, speakers)
    return min(at, key=at.get) if at else speakers[0]


SHORT_ANSWER = "Answer with only the answer, in a few words."  # the QA-style variant, appended to the question
# LoCoMo's own question-answering instruction (its evaluation code), with "notes" for "context": a plain
# prompt with the notes as they are written, no reply persona, the same for all three blocks
QA_SYSTEM = "You answer questions about people from notes of their conversations."
QA_INSTRUCTION = ("Based on the notes above, write an answer in the form of a short phrase for the following "
                  "question. Answer with exact words from the notes whenever possible.")
ANSWER_PROMPTS = ("real", "short", "qa")
ANSWER_WAYS = ("ours", "baseline", "none")


def answer_messages(question: str, block: str, speaker: str, prompt: str = "real") -> list[dict]:
    """The messages that ask `question` with `block` as the notes: Hearth's real reply prompt asked by
    `speaker` ("real"), it with the short-answer instruction ("short"), or LoCoMo's plain QA prompt ("qa")."""
    from assistant.reply.prompt import History, build_messages

    if prompt == "qa":
        notes = f"Notes:\n{block}\n\n" if block else ""
        return [{"role": "system", "content": QA_SYSTEM},
                {"role": "user", "content": f"{notes}{QA_INSTRUCTION}\n\nQuestion: {question} Short answer:"}]
    messages = build_messages(question, History(), block, speaker)
    if prompt == "short":
        messages[-1] = {**messages[-1], "content": f"{messages[-1]['content']}\n\n{SHORT_ANSWER}"}
    return messages


def answer_locomo(items: list[dict], llm, prompts: tuple[str, ...] = ("real",), max_tokens: int = 40) -> dict:
    """Each item answered by the model at temperature 0 from Hearth's block, the baseline block and no
    memory, scored with LoCoMo's token F1 (0-100), per category and overall, for each prompt."""
    out: dict = {"n": {}, "max_tokens": max_tokens, "prompts": {}}
    for prompt in prompts:
        rows = []
        t0 = time.perf_counter()
        for it in items:
            row = {"category": CATEGORIES[it["category"]], "q": it["question"], "gold": str(it["gold"]),
                   "speaker": it["speaker"]}
            for way in ANSWER_WAYS:
                block = "" if way == "none" else it[way]
                reply = llm.complete(answer_messages(it["question"], block, it["speaker"], prompt),
                                     max_tokens=max_tokens, temperature=0.0).strip()
                row[way] = reply
                row[f"f1_{way}"] = 100 * locomo_f1(reply, it["gold"], it["category"])
            rows.append(row)
        seconds = time.perf_counter() - t0
        f1 = {}
        for cat in [*CATEGORIES.values(), "overall"]:
            mine = [r for r in rows if cat in ("overall", r["category"])]
            if mine:
                f1[cat] = {way: statistics.mean(r[f"f1_{way}"] for r in mine) for way in ANSWER_WAYS}
                out["n"][cat] = len(mine)
        out["prompts"][prompt] = {"f1": f1, "seconds": seconds,
                                  "ms_per_answer": 1000 * seconds / max(1, len(ANSWER_WAYS) * len(rows)),
                                  "rows": rows}
    first = out["prompts"][prompts[0]]
    out["prompt"] = prompts[0]
    out["f1"] = first["f1"]  # the figure reported: the first prompt's (the real reply prompt unless only short ran)
    out["examples"] = [{k: r[k] for k in ("category", "q", "gold", *ANSWER_WAYS)}
                       for r in first["rows"][:: max(1, len(first["rows"]) // 6)][:6]]
    return out


def print_answers(r: dict) -> None:
    for prompt, p in r["prompts"].items():
        how = {"real": "Hearth's reply prompt", "short": f"reply prompt + \"{SHORT_ANSWER}\"",
               "qa": "LoCoMo's plain QA prompt, the notes as written"}[prompt]
        print(f"\n(b2) LoCoMo answers by the model, {how}, temperature 0, max {r['max_tokens']} tokens "
              f"({p['seconds']:.0f} s, {p['ms_per_answer']:.0f} ms an answer); LoCoMo token F1, 0-100")
        print("  category      n   |   ours  baseline    none")
        for cat, v in p["f1"].items():
            print(f"  {cat:<11} {r['n'][cat]:4d}   | {v['ours']:6.1f}  {v['baseline']:8.1f}  {v['none']:6.1f}")
    for e in r["examples"]:
        print(f"    [{e['category']}] {e['q']}  gold: {e['gold']}")
        for way in ANSWER_WAYS:
            print(f"        {way:<8} {e[way]!r}")


def ingest_locomo(conv: dict, store: MemoryStore, llm, ingest_times: list[float]) -> tuple[dict, dict, list, datetime]:
    """Each speaker's turns said to their own memory, session by session on the sessions' dates.
    Returns (speaker -> person id, turn id -> dia_id, the raw turns, the day after the last session)."""
    speakers = [conv["speaker_a"], conv["speaker_b"]]
    people = {s: store.add_person(s) for s in speakers}
    turn_to_dia: dict[int, str] = {}
    raw: list[tuple[str, str]] = []
    n = 1
    last = None
    while f"session_{n}" in conv:
        start = parse_locomo_date(conv[f"session_{n}_date_time"])
        clock = {"now": start}
        mems = {s: PersonMemory(store, pid, llm=llm, clock=lambda: clock["now"]) for s, pid in people.items()}
        for turn in conv[f"session_{n}"]:
            text = turn["text"] + (f" [shares a photo of {turn['blip_caption']}]" if turn.get("blip_caption") else "")
            raw.append((turn["dia_id"], f"{turn['speaker']}: {text}"))
            t0 = time.perf_counter()
            mems[turn["speaker"]].remember(text, "")
            ingest_times.append(time.perf_counter() - t0)
            turn_to_dia[store.conn.execute("SELECT max(id) FROM turns").fetchone()[0]] = turn["dia_id"]
            clock["now"] += timedelta(seconds=30)
        for pm in mems.values():
            pm.end_session()
        last = clock["now"]
        n += 1
    return people, turn_to_dia, raw, last + timedelta(days=1)


def run_locomo(path: Path, embedder, llm, budget: int | None = None, k: int = 40,
               answer_keys: set | None = None) -> dict:
    """Evidence recall of our block against the raw-turn baseline (top-5 turns by similarity).

    Both blocks are counted with the same `estimate_tokens`; ours gets, per question, a budget of exactly
    the baseline block's token count (or `budget` when given), so it never uses more tokens. The questions
    in `answer_keys` ((sample_id, qa index)) come back in "answer_items" with both blocks, to be answered."""
    samples = json.loads(path.read_text())
    answer_items = []
    ours = {c: {"evidence": [], "answer": [], "tokens": [], "wordpieces": [], "single": []} for c in CATEGORIES}
    base = {c: {"evidence": [], "answer": [], "tokens": [], "wordpieces": []} for c in CATEGORIES}
    examples: list | None = []
    ingest_times = []
    for sample in samples:
        conv = sample["conversation"]
        speakers = [conv["speaker_a"], conv["speaker_b"]]
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(Path(tmp), embedder)
            people, turn_to_dia, raw, now = ingest_locomo(conv, store, llm, ingest_times)
            raw_vecs = embedder.embed([t for _, t in raw])
            mems = {s: PersonMemory(store, pid, llm=None, clock=lambda: now) for s, pid in people.items()}
            for qi, qa in enumerate(sample["qa"]):
                cat = qa.get("category")
                if cat not in CATEGORIES or "answer" not in qa:
                    continue
                q = qa["question"]
                results = []
                for s in whose_memory(q, speakers):
                    results += mems[s].results(q, k=k)
                results = sorted(results, key=lambda r: -r.score)[:k]
                qv = embedder.embed_one(q)
                top = np.argsort(-(raw_vecs @ qv))[:5]
                bblock = "\n".join(f"- {raw[i][1]}" for i in top)
                bprov = {raw[i][0] for i in top}
                room = budget or estimate_tokens(bblock)
                block = memory_block(results, now, room, query=q)
                kept = block_results(results, now, room, query=q)
                prov = {turn_to_dia.get(t) for r in kept for t in r.candidate.provenance}
                evidence = set(qa["evidence"])
                ours[cat]["evidence"].append(len(evidence & prov) / len(evidence) if evidence else 1.0)
                single = {turn_to_dia.get(t) for r in kept if len(r.candidate.provenance) == 1
                          for t in r.candidate.provenance}
                ours[cat]["single"].append(len(evidence & single) / len(evidence) if evidence else 1.0)
                ours[cat]["answer"].append(answer_recall(qa["answer"], block))
                ours[cat]["tokens"].append(estimate_tokens(block))
                ours[cat]["wordpieces"].append(wordpieces(embedder, block))
                base[cat]["wordpieces"].append(wordpieces(embedder, bblock))
                if examples is not None and len(examples) < 40:
                    examples.append({"q": q, "evidence": sorted(evidence), "ours": block, "baseline": bblock})
                base[cat]["evidence"].append(len(evidence & bprov) / len(evidence) if evidence else 1.0)
                base[cat]["answer"].append(answer_recall(qa["answer"], bblock))
                base[cat]["tokens"].append(estimate_tokens(bblock))
                if answer_keys and (sample["sample_id"], qi) in answer_keys:
                    answer_items.append({"category": cat, "question": q, "gold": qa["answer"],
                                         "speaker": asking_speaker(q, speakers), "ours": block, "baseline": bblock})
            store.close()

    def summary(table):
        out = {}
        for c, v in table.items():
            if v["evidence"]:
                out[CATEGORIES[c]] = {m: statistics.mean(x) for m, x in v.items()} | {"n": len(v["evidence"])}
        allv = {m: [x for v in table.values() for x in v[m]] for m in next(iter(table.values()))}
        out["overall"] = {m: statistics.mean(x) for m, x in allv.items()} | {"n": len(allv["evidence"])}
        return out

    return {"ours": summary(ours), "baseline": summary(base), "examples": examples, "answer_items": answer_items,
            "ingest_ms_per_turn": {"mean": 1000 * statistics.mean(ingest_times),
                                   "p95": 1000 * float(np.percentile(ingest_times, 95))}}


def print_locomo(label: str, r: dict) -> None:
    print(f"\n(b) LoCoMo dev, {label}  (categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)")
    print("  tokens: estimate_tokens (words and marks) / the embedder's WordPiece tokens, same counter for both")
    print("  category      n   | ours: evidence  answer  tokens (wp) | baseline: evidence  answer  tokens (wp)")
    for cat in [*CATEGORIES.values(), "overall"]:
        o, b = r["ours"].get(cat), r["baseline"].get(cat)
        if not o:
            continue
        print(f"  {cat:<11} {o['n']:4d}   |      {pct(o['evidence'])}  {pct(o['answer'])}  {o['tokens']:6.1f} "
              f"({o['wordpieces']:5.1f}) |        {pct(b['evidence'])}  {pct(b['answer'])}  {b['tokens']:6.1f} "
              f"({b['wordpieces']:5.1f})")
    print(f"  ours, evidence counted from single-turn lines only (facts, not summaries): "
          f"{pct(r['ours']['overall']['single'])}")
    print(f"  ingest per turn: mean {r['ingest_ms_per_turn']['mean']:.1f} ms, p95 {r['ingest_ms_per_turn']['p95']:.1f} ms")


CLUSTER_KS = (1, 3, 5)


def run_clusters(path: Path, embedder, judge, alpha: float, budget: int = 200, k: int = 40) -> dict:
    """Evidence recall with clusters against without, in one run: each conversation is said to memory
    once, then its questions are asked in order twice, as the persons' queries, by memories without
    clusters and by memories where clusters emerge from those very queries (memory/emergence.py, every
    few recalls, judged by `judge`: the model, or None to promote every coherent group). Recall is
    scored on the top K results (K = 1, 3, 5) and on the block at `budget` tokens."""
    scores = {way: {f"k{n}": [] for n in CLUSTER_KS} | {"budget": []} for way in ("with", "without")}
    formed, items, in_clusters, names = 0, 0, 0, []
    ingest_times: list[float] = []
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        speakers = [conv["speaker_a"], conv["speaker_b"]]
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(Path(tmp), embedder)
            people, turn_to_dia, _, now = ingest_locomo(conv, store, None, ingest_times)
            for way in ("without", "with"):
                mems = {s: PersonMemory(store, pid, llm=judge, clock=lambda: now,
                                        cluster_coherence=alpha if way == "with" else None)
                        for s, pid in people.items()}
                for qa in sample["qa"]:
                    if qa.get("category") not in CATEGORIES or "answer" not in qa:
                        continue
                    q, evidence = qa["question"], set(qa["evidence"])
                    per = {s: mems[s].results(q, k=k) for s in whose_memory(q, speakers)}
                    results = sorted((r for rs in per.values() for r in rs), key=lambda r: -r.score)[:k]

                    def found(rs) -> float:
                        prov = {turn_to_dia.get(t) for r in rs for t in r.candidate.provenance}
                        return len(evidence & prov) / len(evidence) if evidence else 1.0

                    for n in CLUSTER_KS:
                        scores[way][f"k{n}"].append(found(results[:n]))
                    scores[way]["budget"].append(found(block_results(results, now, budget, query=q)))
                    for s, rs in per.items():  # what each person's recall drew on, as the loop logs it
                        kept = block_results(rs, now, budget, query=q)
                        mems[s].note_recall(q, answer_set([r.as_dict() for r in kept]))
            for s, pid in people.items():
                active = store.clusters(pid, "active")
                members = sorted({e for c in active for e in c.members})
                formed += len(active)
                names += [c.name for c in active]
                items += store.rows("SELECT count(*) FROM items WHERE person_id = ?", (pid,))[0][0]
                if members:
                    marks = ",".join("?" * len(members))
                    in_clusters += store.rows(f"SELECT count(*) FROM items WHERE person_id = ? AND entity_id IN "
                                              f"({marks})", (pid, *members))[0][0]
            store.close()
    out = {key: {way: statistics.mean(scores[way][key]) for way in ("with", "without")}
           for key in [*(f"k{n}" for n in CLUSTER_KS), "budget"]}
    return out | {"questions": len(scores["with"]["budget"]), "formed": formed,
                  "item_share": in_clusters / items if items else 0.0, "names": names, "coherence": alpha,
                  "judge": getattr(judge, "name", None) or "none (every coherent group promoted)"}


def print_clusters(r: dict) -> None:
    print(f"\n(b3) LoCoMo dev, evidence recall with clusters against without ({r['questions']} questions asked "
          f"in order; coherence {r['coherence']}, judge: {r['judge']})")
    print("  budget        without    with")
    for key in [*(f"k{n}" for n in CLUSTER_KS), "budget"]:
        label = f"top {key[1:]}" if key != "budget" else "200 tokens"
        print(f"  {label:<12} {pct(r[key]['without'])}  {pct(r[key]['with'])}")
    print(f"  clusters formed: {r['formed']}, holding {pct(r['item_share'])} of the items; "
          f"e.g. {', '.join(repr(n) for n in r['names'][:6])}")


# -- (c) speed and scale ----------------------------------------------------------------------

QUERIES = ["How is my dog doing after the surgery?", "What did I say about work last week?",
           "Do you remember my sister's wedding?", "I'm nervous about the exam tomorrow",
           "Where did we go on holiday?", "What should I cook tonight?", "How's the garden?",
           "Did I tell you about my new job?", "I feel tired all the time", "What's my cat called?"]


def synth(store: MemoryStore, pid: int, n: int, entities: int = 200, seed: int = 0) -> None:
    """n items with random unit vectors over `entities` entities, inserted directly (no embedding)."""
    rng = np.random.default_rng(seed)
    now = datetime(2026, 1, 1).isoformat()
    schemas = ["health", "work", "family and friends", "home", "travel", "pets", "hobbies", "food"]
    with store.transaction():
        for e in range(entities):
            store.add_entity(pid, f"thing{e}", schemas[e % len(schemas)], [f"alias{e}"], datetime(2026, 1, 1))
        eids = [e.id for e in store.entities(pid)]
        first = (store.conn.execute("SELECT coalesce(max(id), 0) FROM items").fetchone()[0]) + 1
        ids = list(range(first, first + n))
        store.conn.executemany("INSERT INTO items(id, person_id, entity_id, created, updated) VALUES (?, ?, ?, ?, ?)",
                               [(i, pid, eids[i % len(eids)], now, now) for i in ids])
        store.conn.executemany("INSERT INTO item_versions(id, item_id, text, said_at, provenance, created) "
                               "VALUES (?, ?, ?, ?, '[]', ?)",
                               [(i, i, f"synthetic memory {i} about thing{i % len(eids)}", now, now) for i in ids])
        store.conn.execute("UPDATE items SET current_version = id WHERE person_id = ?", (pid,))
    for lo in range(0, n, 20000):
        chunk = ids[lo:lo + 20000]
        v = rng.standard_normal((len(chunk), 384)).astype(np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        store.bulk_vectors(ITEM, pid, chunk, v)


def measure_recall(store: MemoryStore, pid: int, embedder) -> dict:
    """Recall latency for one person: after prepare (the partial equals the final words), cold (entities,
    edges and the query embedding from scratch), the query embedding alone and sqlite-vec's KNN."""
    pm = PersonMemory(store, pid, clock=lambda: datetime(2026, 2, 1))
    for q in QUERIES[:3]:
        pm.results(q)  # warm up torch and caches
    queries = [f"{q} thing{i % 200}" if i % 2 else q for i, q in enumerate(QUERIES * 3)]
    cold, warm, sqlvec, embed = [], [], [], []
    for q in queries:
        pm.recaller.invalidate()
        pm.recaller.forget_queries()
        t0 = time.perf_counter()
        pm.results(q)
        cold.append(time.perf_counter() - t0)
        pm.prepare(q[: len(q) // 2])
        pm.prepare(q)
        t0 = time.perf_counter()
        pm.results(q)
        warm.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        qv = embedder.embed_one(q)
        embed.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        store.search_sql(pid, qv, 10)
        sqlvec.append(time.perf_counter() - t0)
    ms = lambda xs, p: 1000 * float(np.percentile(xs, p))  # noqa: E731
    return {"after_prepare_ms": {"p50": ms(warm, 50), "p95": ms(warm, 95)},
            "cold_ms": {"p50": ms(cold, 50), "p95": ms(cold, 95)},
            "query_embedding_ms": {"p50": ms(embed, 50)},
            "sqlite_vec_knn_ms": {"p50": ms(sqlvec, 50), "p95": ms(sqlvec, 95)}}


def run_scale(embedder, sizes: list[int]) -> dict:
    out = {}
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(Path(tmp), embedder)
            pid = store.add_person("Dana")
            other = store.add_person("Eli")
            t0 = time.perf_counter()
            synth(store, pid, n)
            synth(store, other, min(n, 1000), seed=1)
            insert_s = time.perf_counter() - t0
            store.close()
            store = open_store(Path(tmp), embedder)
            t0 = time.perf_counter()
            store.matrix(pid, ITEM)
            load_s = time.perf_counter() - t0
            out[n] = {"insert_s": insert_s, "matrix_load_s": load_s, **measure_recall(store, pid, embedder)}
            store.close()
    return out


def print_scale(r: dict) -> None:
    print("\n(c) recall latency for one person (cold: query embedding included; after prepare: the partial that "
          "equals the final text was embedded by prepare)")
    print("  items    after prepare p50/p95   cold p50/p95    embed p50   sqlite-vec KNN p50/p95   matrix load")
    for n, v in r.items():
        print(f"  {n:>7}  {v['after_prepare_ms']['p50']:7.1f} /{v['after_prepare_ms']['p95']:6.1f} ms  "
              f"{v['cold_ms']['p50']:6.1f} /{v['cold_ms']['p95']:6.1f} ms  {v['query_embedding_ms']['p50']:6.1f} ms  "
              f"{v['sqlite_vec_knn_ms']['p50']:8.1f} /{v['sqlite_vec_knn_ms']['p95']:7.1f} ms  {v['matrix_load_s']:6.2f} s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenarios", type=Path, default=SHARED / "memory-updates" / "dev.json")
    ap.add_argument("--locomo", type=Path, default=SHARED / "locomo" / "locomo-dev.json")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--skip-scale", action="store_true")
    ap.add_argument("--skip-locomo", action="store_true")
    ap.add_argument("--llm", action=argparse.BooleanOptionalAction, default=False,
                    help="also run the scenarios with the bundled model rewriting updates")
    ap.add_argument("--locomo-llm", action="store_true", help="LoCoMo with the model too (slow: minutes per conversation)")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--embed-cache", type=Path, help="keep text embeddings in this file between runs (LoCoMo only)")
    ap.add_argument("--skip-scenarios", action="store_true")
    ap.add_argument("--requests", type=Path, default=ROOT / "benchmarks" / "data" / "memory-requests.json",
                    help="scenarios of requests of memory by voice (forget, correct), in the update scenarios' format")
    ap.add_argument("--writes", type=Path, default=SHARED / "memory-writes" / "dev.json",
                    help="labelled turns: the emotion, cause and entity memory writes for each (benchmarks/memory_writes.py)")
    ap.add_argument("--skip-writes", action="store_true")
    ap.add_argument("--clusters", action="store_true",
                    help="LoCoMo evidence recall with clusters against without (judged by the model with --llm)")
    ap.add_argument("--cluster-coherence", type=float, default=0.4)
    ap.add_argument("--examples", type=Path, help="write some LoCoMo blocks (ours and baseline) to this file")
    ap.add_argument("--answers", type=int, default=150,
                    help="answer a fixed sample of N LoCoMo questions with the model three ways (0: off)")
    ap.add_argument("--answer-prompt", default="real",
                    help="comma-separated: real (Hearth's reply prompt), short (it plus a short-answer "
                         "instruction), qa (LoCoMo's plain QA prompt); the first is the figure reported")
    ap.add_argument("--answer-seed", type=int, default=0)
    ap.add_argument("--answer-max-tokens", type=int, default=40)
    args = ap.parse_args(argv)
    answer_prompts = tuple(p.strip() for p in args.answer_prompt.split(","))
    if unknown := set(answer_prompts) - set(ANSWER_PROMPTS):
        ap.error(f"--answer-prompt: unknown {', '.join(sorted(unknown))} (one of {', '.join(ANSWER_PROMPTS)})")

    from assistant.config import Config
    from models.embedder import TextEmbedder

    embedder = TextEmbedder(cache_dir=Config().cache_path)
    report: dict = {}
    if not args.skip_scenarios:
        report["scenarios_no_llm"] = r = run_scenarios(args.scenarios, embedder, None)
        print_scenarios("deterministic rewriter (no model)", r)
        report["requests"] = r = run_scenarios(args.requests, embedder, None, by_voice=True)
        print_scenarios("requests of memory by voice (no model)", r)
    llm = load_llm() if args.llm or args.locomo_llm else None
    if not args.skip_writes and args.writes.exists():
        # as the loop writes: the model checks which way an implied feeling goes (memory/implied.py)
        writer_llm = llm if llm is not None else load_llm()
        report["writes"] = r = run_writes(args.writes, embedder, writer_llm)
        print_writes(f"with the model ({getattr(writer_llm, 'name', 'llm')})", r)
    if llm is not None:
        t0 = time.perf_counter()
        report["scenarios_llm"] = r = run_scenarios(args.scenarios, embedder, llm)
        r["seconds"] = time.perf_counter() - t0
        print_scenarios(f"model rewriter ({getattr(llm, 'name', 'llm')}, {r['seconds']:.0f} s)", r)
    if not args.skip_locomo and args.locomo.exists():
        t0 = time.perf_counter()
        cached = CachedEmbedder(embedder, args.embed_cache)
        keys = locomo_answer_keys(args.locomo, args.answers, args.answer_seed) if args.answers > 0 else None
        report["locomo_no_llm"] = r = run_locomo(args.locomo, cached, None, answer_keys=keys)
        cached.save()
        r["seconds"] = time.perf_counter() - t0
        items = r.pop("answer_items")
        if args.examples:
            args.examples.write_text(json.dumps(r.pop("examples"), indent=1))
        else:
            r.pop("examples")
        print_locomo(f"deterministic rewriter ({r['seconds']:.0f} s)", r)
        if items:
            answerer = llm if llm is not None else load_llm()
            report["locomo_answers"] = r = answer_locomo(items, answerer, answer_prompts, args.answer_max_tokens)
            r["model"] = getattr(answerer, "name", type(answerer).__name__)
            print_answers(r)
        if args.locomo_llm and llm is not None:
            t0 = time.perf_counter()
            report["locomo_llm"] = r = run_locomo(args.locomo, embedder, llm)
            r.pop("answer_items")
            r["seconds"] = time.perf_counter() - t0
            print_locomo(f"model rewriter ({r['seconds']:.0f} s)", r)
    if args.clusters and args.locomo.exists():
        t0 = time.perf_counter()
        cached = CachedEmbedder(embedder, args.embed_cache)
        report["clusters"] = r = run_clusters(args.locomo, cached, llm, args.cluster_coherence)
        cached.save()
        r["seconds"] = time.perf_counter() - t0
        print_clusters(r)
    if not args.skip_scale:
        report["scale"] = r = run_scale(embedder, [int(s) for s in args.sizes.split(",")])
        print_scale(r)
    write_json(args.json, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
