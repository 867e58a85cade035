"""Hearth's own voice in its microphone: self-interruptions, echo turns, barge-in, on real speech.

    .venv/bin/python benchmarks/echo.py [--quick] [--levels -30,-20,-10,-6] [--runs N] [--long-replies]
        [--seed N] [--config FILE] [--echo-guard speakers|headphones|half-duplex] [--json FILE]

Each run is one conversation, a fresh session, replayed through the real loop in real time
(benchmarks/room.py): the person's questions are real recordings (the shared asr clips), and
everything Hearth plays reaches the microphone as a room would carry it, delayed 10-200 ms (drawn
per run), convolved with a real room's impulse response (../shared/data/speech/rooms/
seminar-room-clap.wav), at each level relative to the person. The person asks a question and
hears the answer out (nobody talks over it), asks a second, and at a random moment 0.3-2 s into
that reply says a third recording over it, then hears its answer out. What was said over Hearth
in one run is said in silence in the next, so the two WERs compare the same words. --long-replies
gives Hearth scripted replies of about ten seconds each (the bundled model's last one or two
sentences): a long echo, and a talk-over that lands mid-reply. --levels=-inf: nothing Hearth plays
reaches the microphone (headphones, with the guard still set for speakers).
Reported per level (under "levels" in the JSON):
  self_interruptions  playback stopped while no person was talking
  echo_turns          a turn made from Hearth's own voice (answered, or stopping playback); one begun
                      on the echo just before a person spoke that heard their words is theirs
                      (echo_turns_heard in each run: what each echo turn heard)
  barge_in_detected   fraction of talk-overs that stopped playback (of those where Hearth was still
                      playing 150 ms after the person's voice began, or had stopped by then)
  barge_in_ms         p50 / p95 from the person's speech onset to the reply falling silent, never to
                      play on: paused while judged, then stopped (or stopped at once)
  pause_ms            p50 / p95 from the person's speech onset to the reply's first pause for them
  ruled_ms            p50 / p95 from the person's speech onset to playback stopped (the rest of the
                      reply dropped, once the guard and the words ruled it a person's interruption)
  echo_pauses         the reply paused while no person was talking (Hearth's own voice, briefly
                      taken for one; it played on)
  double_talk_wer     word error rate of what the person said over Hearth
  clean_wer           word error rate of the same recordings said in silence
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "benchmarks"))  # after the packages: benchmarks/memory.py is no `memory`
sys.path.append(str(ROOT / "tests"))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from assistant import events as ev  # noqa: E402
from assistant.clock import MonotonicClock  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.engines import load_engines  # noqa: E402
from assistant.pipeline.loop import TurnLoop  # noqa: E402
from audio.sources import read_audio_file  # noqa: E402
from giving_way import fell_silent  # noqa: E402
from room import (Room, RoomSink, Said, active_rms, blocks, during, load_impulse, say, silence,  # noqa: E402
                  speech_onset, wait_for)
from fakes import ScriptedChat  # noqa: E402
from wer import word_errors  # noqa: E402

SPEECH = ROOT.parent / "shared" / "data" / "speech"
IMPULSE = SPEECH / "rooms" / "seminar-room-clap.wav"
QUESTIONS = ("asr/1272-128104-0000.wav", "asr/librivox-ss01-0880.wav", "asr/LJ001-0004.wav",
             "asr/librivox-ss01-0930.wav", "asr/cards-005.wav", "asr/librivox-ss01-0890.wav")
LEVELS = (-30.0, -20.0, -10.0, -6.0)
# --long-replies: each about ten seconds said, in words of its own (Hearth leaves out a sentence it said before)
LONG_REPLIES = (
    "That is a good thing to ask about. The short answer is that it depends on the weather, and on how much "
    "time you have in the morning. If the day is dry, a walk along the river takes about forty minutes.",
    "I would start with the basics. Keep a small notebook by the door and write down what you need each week. "
    "After a month you will see which things you buy again and again, and you can plan around them.",
    "There are a few ways to look at it. Some people like to finish the hardest task first, before lunch. Others "
    "warm up with easy jobs and save the big one for the afternoon, when the house is quiet.",
)


def transcripts() -> dict[str, str]:
    manifest = json.loads((SPEECH / "manifest.json").read_text())
    return {item["path"]: item["transcript"] for item in manifest["items"] if item["role"] == "asr"}


def voice_rms(engines) -> float:
    """Hearth's voice's active RMS (what a reply plays at), from a sentence said by it."""
    audio = np.concatenate(list(engines.tts.stream("Of course. Here is what I found about that, in a few words.")))
    from audio.convert import resample

    return active_rms(resample(audio, engines.tts.sample_rate, 16_000))


def one_run(engines, config, folder: Path, level_db: float, delay_ms: float, clips: list[str],
            audio: dict[str, np.ndarray], vrms: float, talk_over_after: float, texts: dict[str, str]) -> dict:
    """One conversation in a room, a fresh session: clips[0] asked, and answered while nobody talks;
    clips[1] asked after that reply; clips[2] said over the second reply, talk_over_after seconds
    after it began to play; then its answer is heard out."""
    person = float(np.mean([active_rms(audio[c]) for c in clips]))
    room = Room(load_impulse(IMPULSE), delay_ms, Room.level_gain(level_db, person, vrms))
    sink = RoomSink(folder, room)
    loop = TurnLoop(engines, sink, ev.EventBus(), MonotonicClock(), config)
    said: list[Said] = []
    over: list[bool] = []  # was Hearth playing when the person started to talk over it?

    def script(room: Room):
        yield from silence(0.5)
        yield from say(room, clips[0], audio[clips[0]], said)
        yield from wait_for(lambda: not loop.busy)
        yield from silence(0.8)
        yield from say(room, clips[1], audio[clips[1]], said)
        yield from wait_for(lambda: loop.talking)
        yield from silence(talk_over_after)
        # Hearth must still be playing 150 ms after the person's voice begins for a stop to be due
        voice = audio[clips[2]]
        due = int((speech_onset(voice) + 0.15) * 16_000)
        yield from say(room, clips[2], voice[:due], said)
        over.append(loop.talking)
        yield from blocks(voice[due:])
        said[-1].end = said[-1].start - speech_onset(voice) + len(voice) / 16_000
        yield from wait_for(lambda: not loop.busy)
        yield from silence(1.0)

    records = loop.run(room.frames(script))
    sink.close()
    t0 = room.started
    stops = [e.t - t0 for r in records for e in r.events if isinstance(e, ev.PlaybackStopped)]
    pauses = [e.t - t0 for r in records for e in r.events if isinstance(e, ev.ReplyPaused) and e.paused]
    self_interruptions = sum(during(t, said, before=0.0) is None for t in stops)
    echo_turns, heard, echo_heard = 0, {s.clip: [] for s in said}, []
    for r in records:
        start = next((e.t - t0 for e in r.events if isinstance(e, ev.SpeechStart)), None)
        if start is None:
            continue
        # a turn begun on the echo just before a person spoke, that heard their words, is theirs
        owner = during(start, said) or next((s for s in said if start < s.start and r.heard
                                             and _transcribes(r.heard, texts[s.clip])), None)
        if owner is None:
            made = bool(r.reply) or any(isinstance(e, (ev.FirstAudio, ev.PlaybackStopped)) for e in r.events)
            echo_turns += made
            if made:  # what it heard: Hearth's words alone, or a person's begun on them
                echo_heard.append({"at": round(start, 2), "heard": r.heard})
        elif r.heard:
            heard[owner.clip].append(r.heard)
    third = said[2]
    stop = next((t for t in stops if third.start - 0.1 <= t <= third.end + 0.6), None)
    pause = next((t for t in pauses if third.start - 0.1 <= t <= third.end + 0.6), None)
    silent = None if stop is None else fell_silent([e for r in records for e in r.events], stop + t0) - t0
    return {"clips": clips, "delay_ms": delay_ms, "talk_over_after": talk_over_after,
            "self_interruptions": self_interruptions, "echo_turns": echo_turns, "echo_turns_heard": echo_heard,
            "talk_over_at": round(third.start, 2),
            "echo_pauses": sum(during(t, said, before=0.0) is None for t in pauses),
            "echo_dropped": sum(r.skipped == "echo" for r in records),
            "heard": {c: " ".join(h) for c, h in heard.items()}, "stops": stops,
            "talked_over": bool(over and over[0]) or (silent is not None and silent - third.start <= 0.15),
            "stop_ms": None if silent is None else (silent - third.start) * 1000,
            "ruled_ms": None if stop is None else (stop - third.start) * 1000,
            "pause_ms": None if pause is None else (pause - third.start) * 1000}


def _transcribes(heard: str, text: str) -> bool:
    """The words heard are, for the most part, these words (word error rate at most a half)."""
    errors, n = word_errors(text, heard)
    return errors <= 0.5 * n


def _p50_p95(values: list[float]) -> dict:
    return {"p50": float(np.percentile(values, 50)) if values else None,
            "p95": float(np.percentile(values, 95)) if values else None}


def summarize(runs: list[dict], texts: dict[str, str]) -> dict:
    def wer(pairs):
        errors = total = 0
        for clip, hyp in pairs:
            e, n = word_errors(texts[clip], hyp)
            errors, total = errors + e, total + n
        return errors / max(total, 1) if total else None

    overs = [r for r in runs if r["talked_over"]]
    stops = [r["stop_ms"] for r in overs if r["stop_ms"] is not None]
    ruled = [r["ruled_ms"] for r in overs if r["ruled_ms"] is not None]
    pauses = [r["pause_ms"] for r in overs if r["pause_ms"] is not None]
    over_clips = {r["clips"][2] for r in overs}
    return {
        "self_interruptions": sum(r["self_interruptions"] for r in runs),
        "echo_turns": sum(r["echo_turns"] for r in runs),
        "echo_dropped": sum(r["echo_dropped"] for r in runs),
        "barge_in_runs": len(overs),
        "barge_in_detected": len(stops) / len(overs) if overs else None,
        "barge_in_ms": _p50_p95(stops),
        "pause_ms": _p50_p95(pauses),
        "ruled_ms": _p50_p95(ruled),
        "echo_pauses": sum(r["echo_pauses"] for r in runs),
        "double_talk_wer": wer([(r["clips"][2], r["heard"][r["clips"][2]]) for r in overs]),
        # the same recordings, said in silence (first or second in another run)
        "clean_wer": wer([(c, r["heard"][c]) for r in runs for c in r["clips"][:2] if c in over_clips]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two levels, a few runs each (a few minutes)")
    parser.add_argument("--levels", help="comma-separated dB relative to the person "
                                         "(default -30,-20,-10,-6; -inf: no echo at all)")
    parser.add_argument("--runs", type=int, help="conversations per level (default 5; quick 2)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--config", type=Path, help="a Hearth config file (default: yours, if any)")
    parser.add_argument("--echo-guard", help="override echo_guard")
    parser.add_argument("--long-replies", action="store_true",
                        help="Hearth's replies scripted, each several seconds long (the bundled model's are short)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    levels = [float(x) for x in args.levels.split(",")] if args.levels else ([-20.0, -6.0] if args.quick else LEVELS)
    n_runs = args.runs if args.runs is not None else (2 if args.quick else 5)
    rng = random.Random(args.seed)
    texts = transcripts()
    audio = {c: read_audio_file(SPEECH / c) for c in QUESTIONS}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        overrides = {"data_dir": str(tmp / "memory"), "memory": False}
        if args.echo_guard:
            overrides["echo_guard"] = args.echo_guard
        config = load_config(args.config, overrides=overrides)
        engines = load_engines(config)
        engines.llm.complete([{"role": "user", "content": "hello"}], max_tokens=4)  # warm up, as start-up does
        if args.long_replies:
            # A scripted model: the bundled one answers in a sentence or two, and an echo that lasts
            # is what a room makes hard. What the replies say does not matter here; how long they are does.
            engines = replace(engines, llm=ScriptedChat(*LONG_REPLIES))
            config = replace(config, max_reply_sentences=10, max_reply_tokens=200)
        vrms = voice_rms(engines)
        report = {"echo_guard": config.echo_guard, "models": engines.describe(), "seed": args.seed,
                  "long_replies": args.long_replies,
                  "impulse": IMPULSE.name, "levels": {}}
        n = 0
        for level in levels:
            # each recording said over Hearth in one run is said in silence in the next, so the
            # double-talk WER is measured against the same words said in silence
            overs = rng.sample(QUESTIONS, n_runs) if n_runs <= len(QUESTIONS) else rng.choices(QUESTIONS, k=n_runs)
            runs = []
            for k, over in enumerate(overs):
                first = overs[k - 1] if overs[k - 1] != over else rng.choice([q for q in QUESTIONS if q != over])
                second = rng.choice([q for q in QUESTIONS if q not in (first, over)])
                delay = float(rng.randint(10, 200))
                talk_over = round(rng.uniform(0.3, 2.0), 2)
                n += 1
                run = one_run(engines, config, tmp / f"run-{n:03d}", level, delay, [first, second, over], audio,
                              vrms, talk_over, texts)
                runs.append(run)
                print(f"  {level:+.0f} dB, delay {delay:.0f} ms, over at {talk_over:.2f} s: "
                      f"{run['self_interruptions']} self-interruptions, {run['echo_turns']} echo turns, "
                      f"{run['echo_dropped']} dropped as echo, {run['echo_pauses']} paused for echo, "
                      f"pause {run['pause_ms']} ms, silent {run['stop_ms']} ms, stop {run['ruled_ms']} ms "
                      f"(talked over: {run['talked_over']})", file=sys.stderr)
            report["levels"][f"{level:g}"] = {**summarize(runs, texts), "runs": runs}
        report["wall_seconds"] = time.monotonic() - started

    def f(x, fmt):
        return "-" if x is None else format(x, fmt)

    print(f"\necho benchmark: echo_guard = {report['echo_guard']}, room {IMPULSE.name}, delay 10-200 ms")
    print(f"{'level dB':>8} {'self-int':>8} {'echo turns':>10} {'dropped':>7} {'barge-in':>9} "
          f"{'stop p50':>8} {'stop p95':>8} {'pause p50':>9} {'ruled p50':>9} {'ruled p95':>9} {'echo pauses':>11} "
          f"{'dt WER':>7} {'clean WER':>9}")
    for level, s in report["levels"].items():
        detected = f"{f(s['barge_in_detected'], '.0%')} of {s['barge_in_runs']}"
        print(f"{level:>8} {s['self_interruptions']:>8} {s['echo_turns']:>10} {s['echo_dropped']:>7} {detected:>9} "
              f"{f(s['barge_in_ms']['p50'], '.0f'):>8} {f(s['barge_in_ms']['p95'], '.0f'):>8} "
              f"{f(s['pause_ms']['p50'], '.0f'):>9} {f(s['ruled_ms']['p50'], '.0f'):>9} "
              f"{f(s['ruled_ms']['p95'], '.0f'):>9} {s['echo_pauses']:>11} "
              f"{f(s['double_talk_wer'], '.2f'):>7} {f(s['clean_wer'], '.2f'):>9}")
    print(f"({report['wall_seconds']:.0f} s)")
    write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
