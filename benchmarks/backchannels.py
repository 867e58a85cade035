"""Speech over a reply: do backchannels let Hearth play on, and do interruptions stop it?

    .venv/bin/python benchmarks/backchannels.py [--overlaps FILE] [--backchannel-ms N] [--json FILE]

A scripted person says a line, waits for the reply to start playing, and 0.5 s later says one of the
overlaps (default: benchmarks/data/overlaps.json, cuts of the shared real recordings, each marked
"backchannel" or "interruption"), at real-time pace through the full loop with the real VAD,
speech recogniser, end-of-turn model and voice. The reply is a fixed long one (tests/fakes.py's
ScriptedChat): what is measured is what happens around a reply that is still playing, whatever the
bundled model would say, and the same reply every time. Reported: the fraction of each kind that
stopped the reply, and for those that stopped it (or paused it while they were judged) the time
from the onset of their speech: to the reply's first pause, to its falling silent never to play on
(paused, then stopped), and to the rest of it being dropped; and how long the reply was held silent
for those it played on after. --backchannel-ms 0 is Hearth before backchannels were told apart: any speech stops it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))  # fakes.ScriptedChat: the fixed reply
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)
from giving_way import fell_silent, silent_for  # noqa: E402
from latency import SPEECH  # noqa: E402

from assistant import events as ev  # noqa: E402
from assistant.clock import MonotonicClock  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.modes.scripted import scripted_person  # noqa: E402
from assistant.pipeline.loop import TurnLoop  # noqa: E402
from audio.sinks import WavSink  # noqa: E402
from audio.sources import SAMPLE_RATE, read_audio_file  # noqa: E402
from fakes import ScriptedChat  # noqa: E402

OVERLAPS = ROOT / "benchmarks" / "data" / "overlaps.json"
FIRST_LINE = "asr/cards-001.wav"  # "ten of clubs": what the reply answers
LONG_REPLY = ("That is a lovely thing to say. Printing has always had its champions. "
              "I wonder what the first printers would make of it all today. Tell me more about it.")


def load_overlaps(path: Path = OVERLAPS) -> list[dict]:
    """The labelled overlaps, each with its audio (`samples`) cut from the shared recordings."""
    overlaps = json.loads(Path(path).read_text())["overlaps"]
    for o in overlaps:
        audio = read_audio_file(SPEECH / o["path"])
        start, end = o.get("start", 0.0), o.get("end", len(audio) / SAMPLE_RATE)
        o["samples"] = audio[int(start * SAMPLE_RATE):int(end * SAMPLE_RATE)]
    return overlaps


def trial(engines, config, overlap: dict, folder: Path, reply: str = LONG_REPLY) -> dict:
    """One reply, talked over by one overlap: what happened to the reply."""
    engines = replace(engines, llm=ScriptedChat(reply))
    config = replace(config, max_reply_tokens=120, max_reply_sentences=10)
    sink = WavSink(folder, realtime=True)
    loop = TurnLoop(engines, sink, ev.EventBus(), MonotonicClock(), config)
    first = read_audio_file(SPEECH / FIRST_LINE)
    records = loop.run(scripted_person([first, overlap["samples"]], lambda: loop.busy, lambda: loop.talking,
                                       talk_over_after=0.5))
    sink.close()
    over = [r for r in records if r.turn_id > records[0].turn_id] if records else []
    events = [e for r in over for e in r.events]
    onset = next((e.t for e in events if isinstance(e, ev.SpeechStart)), None)
    stop = next((e.t for e in events if isinstance(e, ev.PlaybackStopped)), None)
    everything = [e for r in records for e in r.events]  # a pause is told of under the reply's turn
    silent = None if stop is None else fell_silent(everything, stop)
    pause = min((e.t for e in everything if isinstance(e, ev.ReplyPaused) and e.paused), default=None)
    return {"said": overlap["said"], "kind": overlap["kind"], "heard": [r.heard for r in over],
            "skipped": [r.skipped for r in over], "stopped": stop is not None, "heard_as_speech": onset is not None,
            "stop_ms": None if silent is None or onset is None else (silent - onset) * 1000,
            "ruled_ms": None if stop is None or onset is None else (stop - onset) * 1000,
            "pause_ms": None if pause is None or onset is None else (pause - onset) * 1000,
            "held_ms": None if stop is not None else silent_for(everything) * 1000}


def _p50_p95(values: list[float]) -> dict:
    """The nearest measured values (no interpolation between trials), None without any."""
    def at(q: float) -> float | None:
        return float(np.percentile(values, q, method="nearest")) if values else None
    return {"p50": at(50), "p95": at(95)}


def summary(trials: list[dict]) -> dict:
    """The fractions the issue asks for, the stop and pause times of interruptions, and how long
    the reply was held silent for the speech it played on after."""
    def fraction(kind: str) -> float | None:
        of_kind = [t for t in trials if t["kind"] == kind]
        return sum(t["stopped"] for t in of_kind) / len(of_kind) if of_kind else None

    stops = [t["stop_ms"] for t in trials if t["kind"] == "interruption" and t["stop_ms"] is not None]
    ruled = [t["ruled_ms"] for t in trials if t["kind"] == "interruption" and t["ruled_ms"] is not None]
    pauses = [t["pause_ms"] for t in trials if t["pause_ms"] is not None]
    held = [t["held_ms"] for t in trials if t["held_ms"]]
    return {"stopped_by_backchannel": fraction("backchannel"), "stopped_by_interruption": fraction("interruption"),
            "stop_ms": _p50_p95(stops), "ruled_ms": _p50_p95(ruled), "pause_ms": _p50_p95(pauses),
            "held_ms": _p50_p95(held)}


def measure(engines, config, overlaps: list[dict], tmp: Path) -> dict:
    trials = [trial(engines, config, o, tmp / f"overlap-{n}") for n, o in enumerate(overlaps)]
    return {**summary(trials), "backchannel_ms": config.backchannel_ms, "trials": trials}


def print_table(report: dict) -> None:
    print(f"\nspeech over a playing reply (backchannel_ms {report['backchannel_ms']})")
    print(f"{'kind':14}{'said':34}{'stopped':>9}{'pause ms':>9}{'stop ms':>9}{'ruled ms':>9}{'held ms':>9}  heard")
    for t in report["trials"]:
        def ms(name):
            return "-" if t.get(name) is None else f"{t[name]:.0f}"
        print(f"{t['kind']:14}{t['said'][:32]:34}{'yes' if t['stopped'] else 'no':>9}{ms('pause_ms'):>9}"
              f"{ms('stop_ms'):>9}{ms('ruled_ms'):>9}{ms('held_ms'):>9}  "
              f"{' | '.join(h for h in t['heard'] if h)}")
    for kind in ("backchannel", "interruption"):
        value = report[f"stopped_by_{kind}"]
        print(f"{kind}s that stopped the reply: {'-' if value is None else f'{value:.0%}'}")
    for name, what in (("pause_ms", "paused after the onset of speech"),
                       ("stop_ms", "an interruption's reply silent for good after its onset"),
                       ("ruled_ms", "its rest dropped after its onset"),
                       ("held_ms", "held silent, then played on")):
        p = report[name]
        if p["p50"] is not None:
            print(f"{what}: p50 {p['p50']:.0f} ms, p95 {p['p95']:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--overlaps", type=Path, default=OVERLAPS, help="labelled overlaps (JSON, as the default)")
    parser.add_argument("--backchannel-ms", type=int, help="the setting to measure (default: the config's)")
    parser.add_argument("--config", type=Path, help="a Hearth config file (default: yours, if any)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    from assistant.engines import load_engines

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = replace(load_config(args.config), data_dir=str(tmp / "memory"), memory=False)
        if args.backchannel_ms is not None:
            config = replace(config, backchannel_ms=args.backchannel_ms)
        report = measure(load_engines(config), config, load_overlaps(args.overlaps), tmp)
    print_table(report)
    write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
