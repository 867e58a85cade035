"""What Hearth says: reply-quality scenarios replayed through the real loop, every spoken reply judged.

    .venv/bin/python benchmarks/replies.py [--scenarios FILE] [--only ID ...] [--json FILE]
        [--llm-model GGUF | --llm-endpoint URL] [--config FILE]

For each scenario (default: ../shared/data/replies/dev.json, format in its README): a fresh memory
database; the person's sessions synthesized with the bundled Piper voice (as the demo does) and
replayed through the real loop (VAD, Whisper, recall, the language model, Piper) as that person,
one session after another on its own date; then, in a new session two days after the last, each
probe is said and the reply that was voiced is checked: the scenario's expectations (expect_any,
expect_unknown, avoid_any) and the general checks of assistant/reply/general_checks.py (perspective,
parroting, empty, refusal, notes layout). Prints one row per probe and the totals; the replies to
what the person told Hearth in the sessions are held to the general checks too (JSON `sessions`).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time as dtime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from assistant.reply import doings, general_checks  # noqa: E402
from assistant.config import Config, load_config  # noqa: E402
from assistant.modes.demo import synthesize_user  # noqa: E402
from assistant.engines import load_engines  # noqa: E402
from assistant.memory_access.remembering import open_memory_store, session_memory  # noqa: E402
from assistant.modes.replay import replay_session  # noqa: E402
from assistant.memory_access.routing import OneMemory  # noqa: E402

SCENARIOS = ROOT.parent / "shared" / "data" / "replies" / "dev.json"
PROBE_DAYS_LATER = 2


@dataclass
class ProbeRow:
    scenario: str
    said: str
    heard: str
    replied: str
    failed: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failed


def dated_clock(day: date):
    """The session's wall clock: its date, from 10:00, running at real speed."""
    start, began = datetime.combine(day, dtime(10, 0)), datetime.now()
    return lambda: start + (datetime.now() - began)


def expectation_failures(probe: dict, reply: str, unknown_phrases: list[str]) -> list[str]:
    """The scenario's own expectations of one reply (the general checks are separate)."""
    low = reply.lower()
    failed = []
    if probe.get("expect_any") and not any(s.lower() in low for s in probe["expect_any"]):
        failed.append("fact")
    if probe.get("expect_unknown") and not any(p.lower() in low for p in unknown_phrases):
        failed.append("fact")
    if any(s.lower() in low for s in probe.get("avoid_any", [])):
        failed.append("avoid")
    return failed


def run_scenario(scenario: dict, engines, config: Config, unknown_phrases: list[str], work: Path,
                 told: list | None = None) -> list[ProbeRow]:
    """One scenario through the real loop; a row per probe. `told`, if given, gets a row for each
    reply to what the person told Hearth in the sessions before (the general checks only)."""
    person = scenario["person"]
    folder = work / scenario["id"]
    folder.mkdir(parents=True, exist_ok=True)
    config = replace(config, data_dir=str(folder / "memory"))
    store = open_memory_store(config, engines)
    said_before = [t for s in scenario["sessions"] for t in s["turns"]]
    told = told if told is not None else []
    things_told = doings.their_things(said_before)
    try:
        for n, session in enumerate(scenario["sessions"], 1):
            day = date.fromisoformat(session["date"])
            wav = synthesize_user(engines.tts, tuple(session["turns"]), folder / f"session-{n}.wav")
            memory = session_memory(store, config, engines, person, clock=dated_clock(day))
            result = replay_session(wav, folder / f"session-{n}", engines, config, OneMemory(memory))
            heard = [r for r in result.records if r.heard]
            for said, r in zip(session["turns"], heard):
                told.append(ProbeRow(scenario["id"], said, r.heard, r.reply,
                                     general_checks.failed_checks(r.reply, r.heard, person, things_told, said_before)))
        last = max(date.fromisoformat(s["date"]) for s in scenario["sessions"])
        probes = scenario["probes"]
        wav = synthesize_user(engines.tts, tuple(p["say"] for p in probes), folder / "probes.wav")
        memory = session_memory(store, config, engines, person,
                                clock=dated_clock(last + timedelta(days=PROBE_DAYS_LATER)))
        result = replay_session(wav, folder / "probes", engines, config, OneMemory(memory))
    finally:
        if store is not None:
            store.close()
    turns = [r for r in result.records if r.heard]
    rows = []
    for i, probe in enumerate(probes):
        record = turns[i] if i < len(turns) else None
        heard, reply = (record.heard, record.reply) if record else ("", "")
        things = doings.their_things(said_before + [probe["say"]])
        failed = general_checks.failed_checks(reply, heard, person, things)
        failed += expectation_failures(probe, reply, unknown_phrases)
        rows.append(ProbeRow(scenario["id"], probe["say"], heard, reply, failed))
    if len(turns) != len(probes):  # an utterance split in two, or one missed: say so in the table
        rows[-1].failed.append(f"heard {len(turns)} turns for {len(probes)} probes")
    return rows


def session_summary(told: list[ProbeRow]) -> dict:
    """The replies to what the person told Hearth: not scored as probes, but a person hears them."""
    names = ("perspective", "parrot", "empty", "refusal", "layout")
    return {"replies": len(told), "passed": sum(r.passed for r in told) / max(1, len(told)),
            **{name: sum(name in r.failed for r in told) for name in names},
            "rows": [vars(r) | {"passed": r.passed} for r in told]}


def summarize(rows: list[ProbeRow], scenarios: list[dict]) -> dict:
    probes = [p for s in scenarios for p in s["probes"]]
    factual = [(row, p) for row, p in zip(rows, probes) if p.get("expect_any") or p.get("expect_unknown")]

    def count(name: str) -> int:
        return sum(name in r.failed for r in rows)

    return {
        "probes": len(rows),
        "passed": sum(r.passed for r in rows) / max(1, len(rows)),
        "fact": sum("fact" not in r.failed for r, _ in factual) / max(1, len(factual)),
        "perspective_errors": count("perspective"),
        "parrots": count("parrot"),
        "empty": count("empty"),
        "refusals": count("refusal"),
        "layout": count("layout"),
        "avoided_broken": count("avoid"),
        "rows": [vars(r) | {"passed": r.passed} for r in rows],
    }


def print_table(summary: dict) -> None:
    print(f"{'scenario':<16} {'said':<40} {'heard':<40} {'replied':<60} failed")
    for r in summary["rows"]:
        print(f"{r['scenario'][:16]:<16} {r['said'][:40]:<40} {r['heard'][:40]:<40} {r['replied'][:60]:<60} "
              f"{','.join(r['failed']) or 'ok'}")
    print()
    print(f"probes {summary['probes']}  passed {summary['passed']:.2f}  fact {summary['fact']:.2f}  "
          f"perspective {summary['perspective_errors']}  parrots {summary['parrots']}  empty {summary['empty']}  "
          f"refusals {summary['refusals']}  layout {summary['layout']}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenarios", type=Path, default=SCENARIOS)
    ap.add_argument("--only", nargs="*", help="scenario ids to run (default: all)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--config", type=Path, help="a Hearth config file (default: the built-in settings)")
    ap.add_argument("--llm-model", help="a GGUF file to answer with instead of the bundled model")
    ap.add_argument("--llm-endpoint", help="an OpenAI-compatible server to answer with")
    args = ap.parse_args(argv)
    data = json.loads(args.scenarios.read_text())
    scenarios = [s for s in data["scenarios"] if not args.only or s["id"] in args.only]
    config = load_config(args.config) if args.config else Config()
    if args.llm_model:
        config = replace(config, llm_model=args.llm_model)
    if args.llm_endpoint:
        config = replace(config, llm_endpoint=args.llm_endpoint)
    engines = load_engines(config)
    rows: list[ProbeRow] = []
    told: list[ProbeRow] = []
    with tempfile.TemporaryDirectory(prefix="hearth-replies-") as work:
        for scenario in scenarios:
            rows += run_scenario(scenario, engines, config, data["unknown_phrases"], Path(work), told)
            for r in rows[-len(scenario["probes"]):]:
                print(f"  {r.scenario}: {r.said!r} -> {r.replied!r} {','.join(r.failed) or 'ok'}", flush=True)
    summary = summarize(rows, scenarios) | {"model": engines.llm.name, "sessions": session_summary(told)}
    print_table(summary)
    t = summary["sessions"]
    print(f"replies to what was told in the sessions: {t['replies']}  passed {t['passed']:.2f}  perspective "
          f"{t['perspective']}  parrots {t['parrot']}  empty {t['empty']}  refusals {t['refusal']}  layout {t['layout']}")
    write_json(args.json, summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
