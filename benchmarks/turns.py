"""Turn ends on real speech: is a thinking pause taken for the end of a turn, and how long does a
person who has finished wait?

    .venv/bin/python benchmarks/turns.py [--clips FILE ...] [--pauses 0.6,1.0,1.5] [--no-loop] [--json FILE]

(a) Hesitations: each clip (default: the shared asr clips) with a silence of each pause length put
    in at one word boundary in the middle of a sentence (word times from Whisper: the boundary
    nearest the middle of the clip that ends no sentence or clause), where a person thinking would
    pause. An endpoint inside that pause is a cut-off.
(b) Finished turns: the same clips whole, then silence; the endpoint delay is from the end of the
    last word (Whisper's) to the endpoint: what the person waits.
(c) The meeting clips' cut-offs, as benchmarks/latency.py counts them.
(d) Speech end to first audio through the full streaming loop, real-time, on the same clips, and
    (e) backchannels and interruptions talked over a playing reply (benchmarks/backchannels.py)
    (--no-loop leaves both out: they are the slow part).

Each of (a)-(c) runs the endpointer as the loop does ("adaptive": once the person falls silent, the
utterance's transcript sets how long a silence ends it, assistant/pipeline/end_silence.py), and
with the fixed silence alone, for comparison. The JSON's top-level figures are the loop's
(adaptive): `cutoff_rate` keyed by pause length ("0.6", "1.0", "1.5"), `endpoint_delay_ms`
(`p50`, `p95`); `backchannel` is benchmarks/backchannels.py's figures on its default overlaps
(`stopped_by_backchannel`, `stopped_by_interruption`, `stop_ms`, `ruled_ms`, `pause_ms`, `held_ms`;
null with --no-loop).
Pauses are digital silence: a room's noise in a real pause only makes the VAD's task harder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks, as modules
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)
import backchannels  # noqa: E402
from latency import SPEECH, default_clips, reference_segments, replay_all  # noqa: E402  (puts the project on sys.path)

from assistant.config import load_config  # noqa: E402
from assistant.pipeline.end_silence import end_silence_heard  # noqa: E402
from assistant.pipeline.loop_types import LoopOptions, endpoint_settings  # noqa: E402
from assistant.timings import summarize  # noqa: E402
from audio.endpointer import Signal  # noqa: E402
from audio.listener import Listener  # noqa: E402
from audio.sources import SAMPLE_RATE, framer, read_audio_file  # noqa: E402

TAIL_SECONDS = 2.5  # silence after a finished turn: longer than any end silence the loop waits
_ENDS_CLAUSE = tuple(".?!,;:…-")


def pause_point(words: list[tuple[str, float, float]]) -> tuple[int, float] | None:
    """Where a thinking pause goes: (index of the word after it, the time between the two words),
    at the boundary nearest the clip's middle that ends no sentence or clause and has two words on
    either side. None for a clip too short to have one."""
    if len(words) < 5:
        return None
    middle = (words[0][1] + words[-1][2]) / 2
    candidates = [i for i in range(2, len(words) - 1) if not words[i - 1][0].endswith(_ENDS_CLAUSE)]
    if not candidates:
        return None
    i = min(candidates, key=lambda k: abs(words[k][1] - middle))
    return i, (words[i - 1][2] + words[i][1]) / 2


def endpoint_times(audio: np.ndarray, vad, asr, config, adaptive: bool, turn_end=None) -> list[float]:
    """The times (seconds into the audio) at which the endpointer ends a turn, as the loop runs it:
    adaptive, the silence is set as the voice stops, from the end-of-turn model's probability
    (`turn_end`, where given) and the utterance's transcript. With the model, as in the loop, the
    transcript decides only once it is made, as long after the voice stops as transcribing took
    here (until then a turn that sounds finished waits the base silence); by the words alone it
    decides at once (the loop has its partials' words then)."""
    vad.reset()
    listener = Listener(vad.probability, endpoint_settings(config), config.vad_threshold)
    times, pending = [], None  # pending: (the media time the transcript is made at, the decision it makes)
    c = config
    for heard in listener.hear(framer(iter([audio]))):
        signal = heard.step.signal
        now = heard.frame.media_end
        if signal is Signal.SPEECH_START:
            listener.endpointer.set_end_silence(c.end_silence_ms / 1000)
        elif signal is Signal.SPEECH_RESUMED:
            pending = None
        elif signal is Signal.SILENCE_START and adaptive:
            finished = turn_end.finished(listener.recent_audio()) if turn_end is not None else None
            started = time.perf_counter()
            text = asr.transcribe(listener.current_audio())
            took = time.perf_counter() - started
            whole = end_silence_heard(text, finished, c.end_silence_ms, c.end_silence_finished_ms,
                                      c.end_silence_unfinished_ms, whole=True)
            if finished is None:
                listener.endpointer.set_end_silence(whole.ms / 1000)
            else:
                before = end_silence_heard("", finished, c.end_silence_ms, c.end_silence_finished_ms,
                                           c.end_silence_unfinished_ms)
                listener.endpointer.set_end_silence(before.ms / 1000)
                pending = (now + took, whole)
        if pending is not None and now >= pending[0]:
            listener.endpointer.set_end_silence(pending[1].ms / 1000)
            pending = None
        if signal is Signal.ENDPOINT:
            times.append(now)
            pending = None
    return times


# How the endpoint is decided: as the loop does (the end-of-turn model and the words, where the
# model is on), by the words alone, and by the fixed silence alone.
MODES = ("loop", "words", "fixed")


def clip_rows(clip: Path, vad, asr, config, pauses: list[float], turn_end=None) -> list[dict]:
    audio = read_audio_file(clip)
    words = asr.word_times(audio)
    tail = np.zeros(int(TAIL_SECONDS * SAMPLE_RATE), dtype=np.float32)
    rows = []
    last_word_end = words[-1][2] if words else len(audio) / SAMPLE_RATE
    modes = {"loop": (True, turn_end), "words": (True, None), "fixed": (False, None)}
    for mode, (adaptive, model) in modes.items():
        ends = endpoint_times(np.concatenate([audio, tail]), vad, asr, config, adaptive, model)
        after = [t for t in ends if t >= last_word_end - 0.05]
        rows.append({"clip": clip.name, "kind": "whole", "mode": mode, "endpoints": ends,
                     "delay_ms": (after[0] - last_word_end) * 1000 if after else None,
                     "cut_before_the_end": sum(t < last_word_end - 0.05 for t in ends)})
    point = pause_point(words)
    if point is None:
        return rows
    index, at = point
    cut_at = int(at * SAMPLE_RATE)
    for pause in pauses:
        gap = np.zeros(int(pause * SAMPLE_RATE), dtype=np.float32)
        paused = np.concatenate([audio[:cut_at], gap, audio[cut_at:], tail])
        resumes = words[index][1] + pause  # the next word's start, moved by the pause
        for mode, (adaptive, model) in modes.items():
            ends = endpoint_times(paused, vad, asr, config, adaptive, model)
            rows.append({"clip": clip.name, "kind": "pause", "pause": pause, "mode": mode,
                         "after_word": words[index - 1][0], "at": round(at, 2), "endpoints": ends,
                         "cut": any(at < t < resumes for t in ends)})
    return rows


MEETING_CLIPS = (("conversation/ami-dev00.wav", "conversation/ami-dev00.rttm"),
                 ("conversation/ami-ES2011a-40s-46s.wav", "conversation/ami-ES2011a-40s-46s.wav"))


def meeting_cutoffs(engines, config, modes=MODES) -> dict:
    """Endpoints on the meeting clips that fall while the reference says someone is still talking."""
    out = {}
    for mode in modes:
        cut = total = 0
        for clip, ref in MEETING_CLIPS:
            segments = reference_segments(ref)
            model = engines.turn_end if mode == "loop" else None
            ends = endpoint_times(read_audio_file(SPEECH / clip), engines.vad, engines.asr, config, mode != "fixed",
                                  model)
            total += len(ends)
            cut += sum(any(a + 0.1 < t < b - 0.1 for a, b in segments) for t in ends)
        out[mode] = {"endpoints": total, "cut_offs": cut}
    return out


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "n": 0}
    return {"p50": float(np.percentile(values, 50)), "p95": float(np.percentile(values, 95)), "n": len(values)}


def summary(rows: list[dict], pauses: list[float], mode: str) -> dict:
    mine = [r for r in rows if r["mode"] == mode]
    rates = {}
    for pause in pauses:
        paused = [r for r in mine if r["kind"] == "pause" and r["pause"] == pause]
        rates[f"{pause:.1f}"] = sum(r["cut"] for r in paused) / len(paused) if paused else None
    whole = [r for r in mine if r["kind"] == "whole"]
    delays = [r["delay_ms"] for r in whole if r["delay_ms"] is not None]
    return {"cutoff_rate": rates, "endpoint_delay_ms": _percentiles(delays),
            "whole_clips_cut_before_the_end": sum(r["cut_before_the_end"] > 0 for r in whole), "whole_clips": len(whole)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clips", nargs="+", type=Path, default=[], help="recordings (default: the shared asr clips)")
    parser.add_argument("--pauses", default="0.6,1.0,1.5", help="pause lengths in seconds")
    parser.add_argument("--no-loop", action="store_true", help="leave out speech end to first audio through the loop")
    parser.add_argument("--config", type=Path, help="a Hearth config file (default: yours, if any)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    clips = args.clips or default_clips()
    pauses = [float(p) for p in args.pauses.split(",") if p.strip()]
    started = time.monotonic()

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = replace(load_config(args.config), data_dir=str(tmp / "memory"))
        if args.no_loop:  # the endpointer needs only these two
            from types import SimpleNamespace

            from assistant.engines import load_asr, load_vad

            from assistant.engines import load_turn_end

            engines = SimpleNamespace(vad=load_vad(config), asr=load_asr(config),
                                      turn_end=load_turn_end(config) if config.turn_end_model else None)
        else:
            from assistant.engines import load_engines
            from assistant.memory_access.remembering import open_memory_store

            engines = load_engines(config)
        rows = []
        for clip in clips:
            rows += clip_rows(clip, engines.vad, engines.asr, config, pauses, engines.turn_end)
            print(f"  {clip.name}", file=sys.stderr)
        report: dict = {"clips": [str(c) for c in clips], "end_silence_ms": config.end_silence_ms, "pauses": pauses}
        report["turn_end_model"] = engines.turn_end is not None
        report.update(summary(rows, pauses, "loop"))
        report["words"] = summary(rows, pauses, "words")
        report["fixed"] = summary(rows, pauses, "fixed")
        report["meeting_cutoffs"] = meeting_cutoffs(engines, config)
        report["backchannel"] = None
        if not args.no_loop:
            engines.llm.complete([{"role": "user", "content": "hello"}], max_tokens=4)  # warm, as start-up does
            store = open_memory_store(config, engines)
            turns = replay_all(clips, engines, config, store, LoopOptions(), tmp / "loop")
            report["speech_end_to_first_audio"] = summarize([t["stages"] for t in turns if t["answered"]]).get(
                "speech_end_to_first_audio")
            if store:
                store.close()
            report["backchannel"] = backchannels.measure(engines, config, backchannels.load_overlaps(),
                                                         tmp / "overlaps")
        report["rows"] = rows
        report["wall_seconds"] = time.monotonic() - started

    model = "with the end-of-turn model" if report["turn_end_model"] else "end-of-turn model off"
    print(f"\nturn ends on {len(clips)} clips ({model}; silences {config.end_silence_finished_ms}/"
          f"{config.end_silence_ms}/{config.end_silence_unfinished_ms} ms finished/base/unfinished)")
    columns = {"loop": report, "words": report["words"], "fixed": report["fixed"]}
    print(f"{'':28}{'the loop':>12}{'words alone':>14}{'fixed silence':>16}")
    for key in report["cutoff_rate"]:
        cells = "".join(f"{_fraction(c['cutoff_rate'][key]):>{w}}" for c, w in zip(columns.values(), (12, 14, 16)))
        print(f"{'cut-offs at a ' + key + ' s pause':28}{cells}")
    for name in ("p50", "p95"):
        cells = "".join(f"{_ms(c['endpoint_delay_ms'][name]):>{w}}" for c, w in zip(columns.values(), (12, 14, 16)))
        print(f"{'endpoint delay ' + name:28}{cells}")
    cells = "".join(f"{c['whole_clips_cut_before_the_end']:>{w}}" for c, w in zip(columns.values(), (12, 14, 16)))
    print(f"{'whole clips cut before end':28}{cells}")
    cells = "".join(f"{c['cut_offs']} of {c['endpoints']:<3}".rjust(w)
                    for c, w in zip(report["meeting_cutoffs"].values(), (12, 14, 16)))
    print(f"{'meeting clips: speaker cut':28}{cells}")
    first_audio = report.get("speech_end_to_first_audio")
    if first_audio:
        print(f"speech end to first audio (streaming loop): p50 {first_audio['p50'] * 1000:.0f} ms, "
              f"p95 {first_audio['p95'] * 1000:.0f} ms")
    if report["backchannel"]:
        backchannels.print_table(report["backchannel"])
    write_json(args.json, report)
    return 0


def _fraction(value) -> str:
    return "-" if value is None else f"{value:.0%}"


def _ms(value) -> str:
    return "-" if value is None else f"{value:.0f} ms"


if __name__ == "__main__":
    sys.exit(main())
