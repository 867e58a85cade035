"""Latency of the voice loop, streaming against sequential, on real recordings at real-time pace.

    .venv/bin/python benchmarks/latency.py [CLIP ...] [--clips CLIP ...] [--json FILE]
        [--pipelines streaming,sequential] [--no-memory] [--no-demo] [--no-barge-in] [--no-cutoffs]
        [--config FILE]

Each clip (default: the shared asr clips) and the demo conversation are replayed at real-time
pace through the full loop, memory on, once per pipeline:
  streaming   partials, anticipation, speculation in the silence window, first clause voiced early
  sequential  none of those: transcribe after the endpoint, then recall, then the whole reply
              synthesized before it plays
It prints p50/p95 per stage and the sequential/streaming ratio of speech end to first audio,
the CPU time spent on speculative work that was thrown away, the barge-in stop time (a scripted
person talks over the reply), and how often the endpoint cut a speaker off on the shared
conversation clips, fixed against adaptive.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from assistant import events as ev  # noqa: E402
from assistant.clock import MonotonicClock  # noqa: E402
from assistant.config import Config, load_config  # noqa: E402
from assistant.modes.demo import SCRIPT, synthesize_user  # noqa: E402
from assistant.engines import load_engines  # noqa: E402
from assistant.pipeline.loop import TurnLoop  # noqa: E402
from assistant.pipeline.loop_types import LoopOptions  # noqa: E402
from assistant.memory_access.remembering import open_memory_store, session_memory  # noqa: E402
from assistant.modes.replay import replay_session  # noqa: E402
from assistant.memory_access.routing import OneMemory  # noqa: E402
from assistant.modes.scripted import scripted_person  # noqa: E402
from assistant.timings import format_summary, stage_durations, summarize  # noqa: E402
from audio.sinks import WavSink  # noqa: E402
from audio.sources import read_audio_file  # noqa: E402

SPEECH = ROOT.parent / "shared" / "data" / "speech"
# A little of what Dana said before, so recall has a real pool to search.
SEED_TURNS = (
    "My dog Biscuit is a three year old beagle and he loves the park near my flat.",
    "I work as a nurse at the hospital and the night shifts are exhausting.",
    "My sister Anna and I are planning a trip to Portugal in June.",
    "I'm worried because Biscuit has been limping since Sunday.",
)
PIPELINES = {"streaming": LoopOptions(), "sequential": LoopOptions.sequential()}


def default_clips() -> list[Path]:
    manifest = json.loads((SPEECH / "manifest.json").read_text())
    return [SPEECH / item["path"] for item in manifest["items"] if item["role"] == "asr"]


def seeded_memory(store, config, engines):
    memory = session_memory(store, config, engines, "Dana")
    if memory is not None and not memory.store.turns(memory.person.person_id):
        for turn in SEED_TURNS:
            memory.remember(turn, "")
        memory.flush()
    return memory


def replay_all(clips, engines, config, store, options, tmp: Path) -> list[dict]:
    rows = []
    for n, clip in enumerate(clips):
        memory = seeded_memory(store, config, engines)
        result = replay_session(clip, tmp / f"{n:03d}", engines, config, OneMemory(memory), realtime=True,
                                options=options)
        for record in result.records:
            dropped = sum(e.cpu_seconds for e in record.events if isinstance(e, ev.SpeculationDropped))
            first = next((e for e in record.events if isinstance(e, ev.LlmFirstToken)), None)
            partials = [e.text for e in record.events if isinstance(e, ev.PartialTranscript)]
            rows.append({"clip": clip.name, "heard": record.heard, "reply": record.reply,
                         "last_partial": partials[-1] if partials else None,  # what recall could anticipate
                         "first_piece": next((e.text for e in record.events if isinstance(e, ev.SentenceReady)), None),
                         "answered": bool(record.reply), "stages": stage_durations(record.events),
                         "wasted_cpu_seconds": dropped,
                         "prompt_tokens_cached": first.cached_tokens if first else 0,
                         "prompt_tokens_evaluated": first.evaluated_tokens if first else 0})
        print(f"  {clip.name}: {len(result.answered)} turn(s)", file=sys.stderr)
    return rows


def barge_in(engines, config, tmp: Path, runs: int = 3) -> list[dict]:
    """A scripted person says a line, waits for the reply to start, and talks over it 0.5 s later."""
    first = read_audio_file(SPEECH / "asr/1272-128104-0000.wav")
    second = read_audio_file(SPEECH / "asr/cards-003.wav")
    out = []
    for n in range(runs):
        sink = WavSink(tmp / f"barge-{n}", realtime=True)
        loop = TurnLoop(engines, sink, ev.EventBus(), MonotonicClock(), replace(config, max_reply_tokens=120))
        records = loop.run(scripted_person([first, second], lambda: loop.busy, lambda: loop.talking,
                                           talk_over_after=0.5))
        sink.close()
        events = [e for r in records for e in r.events]
        stops = [e for e in events if isinstance(e, ev.PlaybackStopped)]
        for stop in stops:
            start = next(e for e in events if isinstance(e, ev.SpeechStart) and e.turn_id == stop.turn_id)
            out.append({"stop_after_speech_start": stop.t - start.t, "heard_seconds": stop.heard_seconds})
    return out


def reference_segments(name: str) -> list[tuple[float, float]]:
    if name.endswith(".rttm"):
        segs = []
        for line in (SPEECH / name).read_text().splitlines():
            parts = line.split()
            segs.append((float(parts[3]), float(parts[3]) + float(parts[4])))
        return segs
    manifest = json.loads((SPEECH / "manifest.json").read_text())
    item = next(i for i in manifest["items"] if i["path"] == name)
    return [(s["start"], s["end"]) for s in item["segments"]]


def cutoffs(engines, config: Config) -> dict:
    """Endpoints on the meeting clips that fall while someone is still talking, with the fixed
    silence and as the loop decides (benchmarks/turns.py counts them)."""
    from turns import meeting_cutoffs  # (turns.py imports this module: here, not at the top)

    counted = meeting_cutoffs(engines, config, modes=("fixed", "loop"))
    return {"fixed": counted["fixed"], "adaptive": counted["loop"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clips", nargs="*", type=Path, help="recordings to replay (default: the shared asr clips)")
    parser.add_argument("--clips", dest="clip_list", nargs="+", type=Path, default=[], help="same, as an option")
    parser.add_argument("--pipelines", default="streaming,sequential")
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--no-demo", action="store_true", help="leave out the demo conversation")
    parser.add_argument("--no-barge-in", action="store_true")
    parser.add_argument("--no-cutoffs", action="store_true")
    parser.add_argument("--config", type=Path, help="a Hearth config file (default: yours, if any)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    clips = args.clips + args.clip_list or default_clips()
    pipelines = [p.strip() for p in args.pipelines.split(",") if p.strip()]

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = replace(load_config(args.config), data_dir=str(tmp / "memory"), memory=not args.no_memory)
        engines = load_engines(config)
        engines.llm.complete([{"role": "user", "content": "hello"}], max_tokens=4)  # warm up, as start-up does
        if not args.no_demo:
            clips = clips + [synthesize_user(engines.tts, SCRIPT, tmp / "demo-conversation.wav")]
        store = open_memory_store(config, engines)
        report: dict = {"clips": [str(c) for c in clips], "end_silence_ms": config.end_silence_ms,
                        "models": engines.describe(), "memory": store is not None, "pipelines": {}}
        started = time.monotonic()
        for name in pipelines:
            print(f"\n[{name}]", file=sys.stderr)
            rows = replay_all(clips, engines, config, store, PIPELINES[name], tmp / name)
            answered = [r["stages"] for r in rows if r["answered"]]
            report["pipelines"][name] = {
                "summary": summarize(answered), "turns": rows,
                "wasted_cpu_seconds": sum(r["wasted_cpu_seconds"] for r in rows)}
        if not args.no_barge_in:
            report["barge_in"] = barge_in(engines, config, tmp)
        if not args.no_cutoffs:
            report["endpoint_cutoffs"] = cutoffs(engines, config)
        report["wall_seconds"] = time.monotonic() - started
        if store:
            store.close()

    for name, body in report["pipelines"].items():
        print(f"\n{name} pipeline: {sum(r['answered'] for r in body['turns'])} answered turns from {len(clips)} clips, "
              f"real-time replay, memory {'on' if report['memory'] else 'off'}, {config.end_silence_ms} ms endpoint")
        print(format_summary(body["summary"]))
        print(f"speculative work thrown away: {body['wasted_cpu_seconds']:.2f} s CPU")
        evaluated = [r["prompt_tokens_evaluated"] for r in body["turns"] if r["answered"]]
        if evaluated:  # a reply whose prompt missed llama.cpp's cache shows up here
            print(f"prompt tokens evaluated before the first word: p50 {np.percentile(evaluated, 50):.0f}, "
                  f"p95 {np.percentile(evaluated, 95):.0f}, over 100 in {sum(n > 100 for n in evaluated)} of "
                  f"{len(evaluated)} replies")
    p50 = {n: b["summary"].get("speech_end_to_first_audio", {}).get("p50") for n, b in report["pipelines"].items()}
    if p50.get("streaming") and p50.get("sequential"):
        report["ratio_sequential_over_streaming_p50"] = p50["sequential"] / p50["streaming"]
        print(f"\nspeech end to first audio, p50: sequential / streaming = "
              f"{report['ratio_sequential_over_streaming_p50']:.2f}x")
    if report.get("barge_in"):
        stops = [b["stop_after_speech_start"] for b in report["barge_in"]]
        print(f"barge-in: playback stopped {', '.join(f'{s * 1000:.0f}' for s in stops)} ms after speech start")
    elif "barge_in" in report:
        print("barge-in: the reply never played before the person spoke again (no stop measured)")
    if "endpoint_cutoffs" in report:
        for mode, c in report["endpoint_cutoffs"].items():
            print(f"endpoint ({mode}): {c['cut_offs']} of {c['endpoints']} endpoints cut a speaker off")
    write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
