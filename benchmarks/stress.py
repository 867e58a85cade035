"""Keeps working and loses nothing: crash safety under SIGKILL, and a long soak, with a summary table.

    python benchmarks/stress.py                 # 20 kills on 30 min of audio, then a 60 min soak
    python benchmarks/stress.py --quick         # a smoke run: 3 kills on 2 min, a 3 min soak
    python benchmarks/stress.py --kills 5 --minutes 10 --soak-minutes 0 --json stress.json

Crash safety. A long recording is built from the shared clips (speech with pauses, some room noise)
and replayed by `hearth replay` in a subprocess, memory on, which is killed with SIGKILL at a random
moment 8-40 s after it starts (model loading takes ~10 s, so kills land during loading, listening,
answering and background memory writes). After every kill the database must open as Hearth opens
it, pass `PRAGMA integrity_check`, hold every user turn whose reply had started (a `first_audio`
event in events.jsonl; the turn's `asr_done` carries the text), and have no broken version chain.
Each restart resumes the recording about where the killed run got to (`--restart same` replays it
from the start instead), into a fresh --out folder and the same data folder.

Soak. At least `--soak-minutes` of audio replayed in this process as fast as the models allow,
memory on, into a store an earlier session of `--soak-lived-in` minutes of other audio filled (an
empty store's first minutes have few notes to evaluate, so they answer faster, and the hour would
read as a drift that is only memory filling): RSS growth per hour after the first ten minutes (of
the run's wall time), p50 speech end to first audio in the first and the last ten minutes (of the
session clock) and its least-squares trend after the first ten, the prompt tokens evaluated before
the first word (what makes latency climb as memory fills), and the database size against the
characters said. Between turns the replay waits, as a person listening to the reply would, for the
memory writes and the next prompt's start to be evaluated; the session clock counts that as the
person's pause. `--paced` reads speech in real time (pauses are still skipped), so
partial transcripts, anticipation and speculation run as they do live.

The crash test lives in benchmarks/crash.py, the soak in soak.py, and the recording they replay and
the checks of what a run left behind in long_replay.py; this script runs them and prints the table.
The shared data (../shared/data/speech) must be present; the bundled LLM must be assembled in the
cache (any earlier `make demo` or `make test` did it). Scratch files go to --work (default /tmp/rel).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from crash import CrashReport, crash_test
from json_report import write_json
from long_replay import SPEECH
from soak import SoakReport, soak


# -- the table ---------------------------------------------------------------------------------------

def table(crash: CrashReport | None, soaked: SoakReport | None) -> str:
    rows: list[tuple[str, str, str]] = []
    if crash is not None:
        phases = Counter(("loading" if k.phase == "loading" else "finished" if k.finished_first else
                          "replying" if k.phase in ("asr_done", "speaker_identified", "recall_done",
                                                    "llm_first_token", "sentence_ready", "first_audio")
                          else "listening") for k in crash.kills)
        bad = [k for k in crash.kills if not k.check.ok]
        rows += [
            ("crash", "recording", f"{crash.recording_seconds / 60:.1f} min"),
            ("crash", "SIGKILLs", f"{sum(not k.finished_first for k in crash.kills)} "
                                  f"({', '.join(f'{v} {k}' for k, v in sorted(phases.items()))})"),
            ("crash", "turns checked (reply had started)", str(crash.turns_checked)),
            ("crash", "store opened after kill", f"{sum(k.check.opened for k in crash.kills)}/{len(crash.kills)}"),
            ("crash", "integrity_check ok", f"{sum(k.check.integrity == 'ok' for k in crash.kills)}/{len(crash.kills)}"),
            ("crash", "started turns missing", str(sum(len(k.check.missing_turns) for k in crash.kills))),
            ("crash", "broken version chains", str(sum(len(k.check.broken_chains) for k in crash.kills))),
            ("crash", "items / versions at the end", f"{crash.kills[-1].check.items if crash.kills else 0} / "
                                                     f"{crash.kills[-1].check.versions if crash.kills else 0}"),
            ("crash", "restart adds new turns", f"{'yes' if crash.resumed else 'NO'} (+{crash.resume_new_turns})"),
            ("crash", "verdict", "ok" if crash.ok and not bad else f"FAILED ({len(bad)} bad checks)"),
        ]
    if soaked is not None:
        s = soaked
        rows += [
            ("soak", "audio / wall time", f"{s.audio_minutes:.1f} min / {s.wall_minutes:.1f} min"
                                          + (" (speech in real time)" if s.paced else "")),
            ("soak", "store at the start", f"{s.lived_in_items} memory items from {s.lived_in_minutes:.0f} min "
                                           "of an earlier session" if s.lived_in_minutes else "empty"),
            ("soak", "turns / answered", f"{s.turns} / {s.answered}"),
            ("soak", "RSS start / after warm-up / end", f"{s.rss_start_mb:.0f} / {s.rss_after_warmup_mb:.0f} / "
                                                         f"{s.rss_end_mb:.0f} MB"),
            ("soak", f"RSS growth after {s.warmup_minutes:.1f} min", f"{s.rss_growth_mb_per_hour:+.0f} MB/h"),
            ("soak", f"p50 speech end → first audio, first {s.window_minutes:.1f} min", f"{s.p50_first_window:.2f} s"),
            ("soak", f"p50 speech end → first audio, last {s.window_minutes:.1f} min", f"{s.p50_last_window:.2f} s"),
            ("soak", f"p50 speech end → first audio, each {s.window_minutes:.1f} min",
             " ".join(f"{v:.2f}" for v in s.p50_by_window) + " s"),
            ("soak", f"speech end → first audio, trend after the first {s.window_minutes:.1f} min",
             f"{s.latency_trend_s_per_hour:+.2f} s/h (least squares over every turn)"),
            ("soak", "p50 prompt tokens evaluated before the first word, first / last",
             f"{s.tokens_first_window:.0f} / {s.tokens_last_window:.0f}"),
            ("soak", f"p50 prompt tokens evaluated, each {s.window_minutes:.1f} min",
             " ".join(f"{v:.0f}" for v in s.tokens_by_window)),
            ("soak", "p50 share of the prompt found in the cache", f"{s.prompt_cached_share:.0%}"),
            ("soak", "database / characters said" + (" (both sessions)" if s.lived_in_minutes else ""),
             f"{s.db_bytes / 1024:.0f} KiB / {s.chars_said} chars ({s.bytes_per_char:.0f} B/char)"),
        ]
    w0, w1 = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    lines = [f"{'part':<{w0}}  {'measure':<{w1}}  value", f"{'-' * w0}  {'-' * w1}  {'-' * 24}"]
    lines += [f"{a:<{w0}}  {b:<{w1}}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def _jsonable(obj):
    if hasattr(obj, "__dataclass_fields__"):
        out = {k: _jsonable(getattr(obj, k)) for k in obj.__dataclass_fields__}
        for prop in ("ok", "turns_checked", "bytes_per_char"):
            if hasattr(type(obj), prop):
                out[prop] = getattr(obj, prop)
        return out
    if isinstance(obj, (list, tuple)):
        return [_jsonable(x) for x in obj]
    if isinstance(obj, float) and obj != obj:
        return None
    return obj


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=20, help="SIGKILLs in the crash test (default 20; 0 skips it)")
    ap.add_argument("--minutes", type=float, default=30.0, help="minutes of audio in the crash test's recording")
    ap.add_argument("--kill-range", default="8,40", help="kill between these seconds after start (default 8,40)")
    ap.add_argument("--restart", choices=("resume", "same"), default="resume",
                    help="after a kill, go on from where the run got to (default) or replay from the start")
    ap.add_argument("--soak-minutes", type=float, default=60.0, help="minutes of audio in the soak (0 skips it)")
    ap.add_argument("--soak-lived-in", type=float, default=30.0, metavar="MIN",
                    help="minutes of other audio replayed into the store first, as an earlier session, so the "
                         "soak starts from a lived-in memory (default 30, about when the notes stop growing; "
                         "0 starts from an empty store)")
    ap.add_argument("--paced", action="store_true",
                    help="soak with speech read in real time, so partials, anticipation and speculation run")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 3 kills on 2 min, a 3 min soak")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=Path("/tmp/rel/stress"), help="scratch folder (emptied first)")
    ap.add_argument("--json", type=Path, help="write the results here too")
    args = ap.parse_args(argv)
    if not SPEECH.is_dir():
        print(f"stress: shared speech data not found at {SPEECH}", file=sys.stderr)
        return 2
    if args.quick:
        args.kills, args.minutes, args.soak_minutes, args.kill_range = min(args.kills, 3), 2.0, 3.0, "8,30"
        args.soak_lived_in = min(args.soak_lived_in, 2.0)
    low, high = (float(x) for x in args.kill_range.split(","))
    import shutil

    shutil.rmtree(args.work, ignore_errors=True)
    crash = crash_test(args.work / "crash", args.kills, args.minutes, args.seed, (low, high),
                       args.restart) if args.kills > 0 else None
    soaked = soak(args.work / "soak", args.soak_minutes, seed=args.seed + 1, paced=args.paced,
                  lived_in_minutes=args.soak_lived_in) \
        if args.soak_minutes > 0 else None
    print()
    print(table(crash, soaked))
    write_json(args.json, {"crash": _jsonable(crash), "soak": _jsonable(soaked)})
    return 0 if crash is None or crash.ok else 1


if __name__ == "__main__":
    sys.exit(main())
