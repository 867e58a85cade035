"""Start-up, as a person meets it: from launching `hearth --no-tui` to listening, to each model
ready, and to the first reply of a question said as soon as it listens.

    .venv/bin/python benchmarks/startup.py [--runs N] [--first-ever] [--clip CLIP] [--json FILE]

Each run is a fresh process on PortAudio over a PulseAudio server with virtual devices
(tests/soundstack.py; needs Debian's pulseaudio, pulseaudio-utils and libportaudio2, which
.ci/run installs), with its own empty memory. The person (a real recording, default the shared
asr/LJ001-0002.wav) speaks into the virtual microphone the moment Hearth prints that it listens;
the first reply is its first audio. Every model is the bundled one, as a new user has them.
Warm runs keep the caches a user has after the first start (the assembled model, compiled code);
`--first-ever` adds a start with empty ones (HEARTH_CACHE_DIR and NUMBA_CACHE_DIR in a temporary
folder), the cost of the very first start, and one after `hearth prepare` has filled them as
`make install` does.
JSON: `listening_s` and `first_reply_s` (medians of the warm runs) at the top level, `models` (each
model's median seconds to ready), `runs`, and `first_ever` when asked.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from audio.sources import read_audio_file  # noqa: E402
from soundstack import PersonVoice, SoundStack, missing  # noqa: E402

SPEECH = ROOT.parent / "shared" / "data" / "speech"
READY = re.compile(r"^\s+(\w+)\s+ready in ([\d.]+) s$")
TIMEOUT_S = 180.0


def one_start(stack: SoundStack, clip, folder: Path, env_extra: dict) -> dict:
    """Launch, wait for listening, say the clip, wait for the first audio; stop with Ctrl-C."""
    folder.mkdir(parents=True, exist_ok=True)
    events = folder / "events.jsonl"
    config = folder / "config.toml"
    config.write_text("[assistant]\ntemperature = 0.0\n")
    env = dict(stack.env, HEARTH_CONFIG=str(config), HEARTH_DATA_DIR=str(folder / "data"), PYTHONUNBUFFERED="1",
               **env_extra)
    lines: list[tuple[float, str]] = []
    launched = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "assistant.modes.cli", "--no-tui", "--input-device", "pulse",
                             "--output-device", "pulse", "--events", str(events)],
                            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)

    def read() -> None:
        for line in proc.stderr:
            lines.append((time.monotonic(), line.rstrip("\n")))

    threading.Thread(target=read, daemon=True).start()
    voice = PersonVoice(stack.fifo)
    try:
        listening = _wait(lambda: next((t for t, line in lines if line.startswith("listening on")), None), proc)
        voice.say(clip)
        first_audio = _wait(lambda: _first(events, "first_audio"), proc)
    finally:
        voice.close()
        proc.send_signal(2)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    models = {m.group(1): float(m.group(2)) for _, line in lines if (m := READY.match(line))}
    return {"listening_s": listening - launched, "first_reply_s": first_audio - launched, "models": models}


def first_ever(stack: SoundStack, clip, tmp: Path) -> dict:
    """The first start with empty caches: as is, and after `hearth prepare` (which make install runs)."""
    def caches(name: str) -> dict:
        return {"HEARTH_CACHE_DIR": str(tmp / name / "cache"), "NUMBA_CACHE_DIR": str(tmp / name / "numba")}

    unprepared = one_start(stack, clip, tmp / "first-ever", caches("empty"))
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "assistant.modes.cli", "prepare"], cwd=ROOT, check=True,
                   env=dict(stack.env, **caches("prepared")), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    prepare_s = time.monotonic() - started
    prepared = one_start(stack, clip, tmp / "after-prepare", caches("prepared"))
    return {"unprepared": unprepared, "prepare_s": prepare_s, "prepared": prepared}


def _wait(found, proc: subprocess.Popen) -> float:
    deadline = time.monotonic() + TIMEOUT_S
    while (value := found()) is None:
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"hearth exited or hung during start-up (exit {proc.poll()})")
        time.sleep(0.02)
    return value


def _first(events: Path, kind: str) -> float | None:
    if not events.exists():
        return None
    for line in events.read_text(encoding="utf-8").splitlines():
        if line.endswith("}"):
            event = json.loads(line)
            if event["event"] == kind:
                return float(event["t"])  # the child's monotonic clock: the same clock as this process's
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="warm starts (default 3)")
    parser.add_argument("--first-ever", action="store_true", help="also one start with empty caches")
    parser.add_argument("--clip", default="asr/LJ001-0002.wav", help="what the person says, under the shared speech")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    why = missing()
    if why is not None:
        print(f"startup: no sound server for the benchmark: {why}", file=sys.stderr)
        return 2
    clip = read_audio_file(SPEECH / args.clip)
    report: dict = {"clip": args.clip, "runs": []}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        stack = SoundStack(tmp / "sound", echo_volume="0%")
        stack.start()
        try:
            one_start(stack, clip, tmp / "warm-up", {})  # the caches a user has after the first start
            for n in range(args.runs):
                run = one_start(stack, clip, tmp / f"run-{n}", {})
                report["runs"].append(run)
                print(f"  run {n + 1}: listening {run['listening_s']:.1f} s, first reply {run['first_reply_s']:.1f} s",
                      file=sys.stderr)
            if args.first_ever:
                report["first_ever"] = first_ever(stack, clip, tmp)
        finally:
            stack.stop()
    runs = report["runs"]
    report["listening_s"] = statistics.median(r["listening_s"] for r in runs)
    report["first_reply_s"] = statistics.median(r["first_reply_s"] for r in runs)
    names = list(dict.fromkeys(name for r in runs for name in r["models"]))
    report["models"] = {name: statistics.median(r["models"].get(name, 0.0) for r in runs) for name in names}

    print(f"\nstart-up of hearth --no-tui ({len(runs)} warm runs, medians; the person says {args.clip})")
    print(f"  listening      {report['listening_s']:6.1f} s")
    print(f"  first reply    {report['first_reply_s']:6.1f} s")
    for name, seconds in report["models"].items():
        print(f"    {name:<10} ready in {seconds:5.1f} s")
    if "first_ever" in report:
        fe = report["first_ever"]
        for label, run in (("first-ever start, nothing prepared", fe["unprepared"]),
                           (f"first start after hearth prepare ({fe['prepare_s']:.0f} s)", fe["prepared"])):
            print(f"  {label}: listening {run['listening_s']:.1f} s, first reply {run['first_reply_s']:.1f} s; "
                  + ", ".join(f"{k} {v:.1f} s" for k, v in run["models"].items()))
    write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
