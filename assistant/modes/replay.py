"""Replay recordings through the same loop as the microphone, writing what happened to a folder.

Per input file: DIR/<name>/reply-NNN.wav (one per answered turn), transcript.txt and events.jsonl.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from audio.sinks import WavSink
from audio.sources import FileSource

from assistant import events as ev
from assistant.clock import MonotonicClock, ReplayClock, follow
from assistant.config import Config
from assistant.engines import Engines
from assistant.pipeline.loop import TurnLoop
from assistant.pipeline.loop_types import LoopOptions, TurnRecord
from assistant.memory_access.routing import SpeakerRouting
from assistant.timings import format_turn_table, stage_durations


@dataclass
class ReplayResult:
    source: Path
    folder: Path
    records: list[TurnRecord]
    reply_wavs: list[Path]

    @property
    def answered(self) -> list[TurnRecord]:
        return [r for r in self.records if r.reply]


class EventLog:
    """Writes every event as one JSON line, flushed as it happens."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "w", encoding="utf-8")

    def __call__(self, event: ev.Event) -> None:
        self._file.write(event.to_json() + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def output_folder(out_dir: Path, source: Path, used: set[str]) -> Path:
    """A folder per input, named after it; two inputs with one name get distinct folders."""
    name, n = source.stem, 1
    while name in used:
        n += 1
        name = f"{source.stem}-{n}"
    used.add(name)
    return Path(out_dir) / name


def replay_options(realtime: bool, sequential: bool = False) -> LoopOptions:
    """Real-time replays behave as a microphone conversation would. A fast replay cannot overlap
    speech with work, so it waits for each reply (as a person would) and skips partials and the
    prompt evaluation done ahead of time."""
    # (nor tune the endpoint: what the speculative transcript would tell it arrives after the
    # recording's silence was read)
    extra = {} if realtime else {"wait_for_reply": True, "partials": False, "prefill": False,
                                 "adaptive_endpoint": False}
    return replace(LoopOptions.sequential() if sequential else LoopOptions(), **extra)


def replay_file(path: Path, folder: Path, engines: Engines, config: Config, realtime: bool = False,
                routing: SpeakerRouting | None = None, bus: ev.EventBus | None = None,
                options: LoopOptions | None = None) -> ReplayResult:
    # raises the clear error before anything is written; the silence after the recording lets its
    # last utterance reach an endpoint lengthened for a trailing word, or for an unfinished sound
    tail = max(1.0, 2 * config.end_silence_ms / 1000, config.end_silence_unfinished_ms / 1000 + 0.3)
    source = FileSource(path, realtime=realtime, tail_silence=tail)
    sink = WavSink(folder, realtime=realtime)
    bus = bus or ev.EventBus()
    log = EventLog(folder / "events.jsonl")
    bus.subscribe(log)
    clock = MonotonicClock() if realtime else ReplayClock()
    loop = TurnLoop(engines, sink, bus, clock, config, routing=routing, options=options or replay_options(realtime))
    try:
        records = loop.run(follow(clock, source.frames()))
    finally:
        log.close()
        sink.close()
    write_transcript(folder / "transcript.txt", records)
    return ReplayResult(Path(path), folder, records, list(sink.written))


def replay_session(path: Path, folder: Path, engines: Engines, config: Config, routing: SpeakerRouting,
                   realtime: bool = False, options: LoopOptions | None = None) -> ReplayResult:
    """Replay one recording as one session of memory, which is closed (consolidated) afterwards."""
    try:
        return replay_file(path, folder, engines, config, realtime=realtime, routing=routing, options=options)
    finally:
        routing.end_session()


def write_transcript(path: Path, records: list[TurnRecord]) -> None:
    lines = []
    for r in records:
        if r.heard:
            lines.append(f"user: {r.heard}")
        if r.reply:
            lines.append(f"hearth: {r.reply}")
    path.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")


def turn_rows(results: list[ReplayResult]) -> list[tuple[str, str, str, dict[str, float]]]:
    return [(res.source.name, r.heard, r.reply, stage_durations(r.events)) for res in results for r in res.answered]


def print_table(results: list[ReplayResult]) -> None:
    print(format_turn_table(turn_rows(results)))
    print(json.dumps({"inputs": len(results), "turns": sum(len(r.answered) for r in results)}))
