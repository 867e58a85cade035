"""Latency of the voice loop: replay real recordings and report p50/p95 per stage.

    .venv/bin/python benchmarks/latency.py [CLIP ...] [--fast] [--json FILE]

By default it replays the shared asr clips (../shared/data/speech) at real-time pace, as a
microphone would deliver them, and measures every stage from the loop's own events.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.config import load_config  # noqa: E402
from assistant.engines import load_engines  # noqa: E402
from assistant.replay import replay_file  # noqa: E402
from assistant.timings import format_summary, stage_durations, summarize  # noqa: E402

SPEECH = ROOT.parent / "shared" / "data" / "speech"


def default_clips() -> list[Path]:
    manifest = json.loads((SPEECH / "manifest.json").read_text())
    return [SPEECH / item["path"] for item in manifest["items"] if item["role"] == "asr"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clips", nargs="*", type=Path, help="recordings to replay (default: the shared asr clips)")
    parser.add_argument("--clips", dest="clip_list", nargs="+", type=Path, default=[], help="same, as an option")
    parser.add_argument("--fast", action="store_true", help="replay as fast as possible instead of real time")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    clips = args.clips + args.clip_list or default_clips()

    config = load_config()
    engines = load_engines(config)
    engines.llm.complete([{"role": "user", "content": "hello"}], max_tokens=4)  # warm up, as live start-up does
    per_turn, rows = [], []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for n, clip in enumerate(clips):
            result = replay_file(clip, Path(tmp) / f"{n:03d}", engines, config, realtime=not args.fast)
            for record in result.answered:
                d = stage_durations(record.events)
                per_turn.append(d)
                rows.append({"clip": clip.name, "heard": record.heard, "reply": record.reply, "stages": d})
            print(f"  {clip.name}: {len(result.answered)} turn(s)", file=sys.stderr)
    summary = summarize(per_turn)
    print(f"\nvoice loop latency, {len(per_turn)} turns from {len(clips)} clips, "
          f"{'fast' if args.fast else 'real-time'} replay, {engines.llm.name}, {config.end_silence_ms} ms endpoint\n")
    print(format_summary(summary))
    if args.json:
        args.json.write_text(json.dumps({
            "pipeline": "sequential-streamed-sentences", "pace": "fast" if args.fast else "realtime",
            "end_silence_ms": config.end_silence_ms, "models": engines.describe(), "clips": [str(c) for c in clips],
            "wall_seconds": time.monotonic() - started, "summary": summary, "turns": rows,
        }, indent=1))
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
