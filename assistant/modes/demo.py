"""The scripted demo: a short conversation through the full loop, with no microphone or speakers.

The user's side is synthesized with the bundled Piper voice, faster and higher-pitched than
Hearth's own so the two are easy to tell apart, written to a wav, and replayed like any recording.
The script spans two sessions: what Dana says in the first is recalled from memory in the second
(the conversation history starts empty there). Dana speaks in real time and waits for each reply,
as a person at the desk would, through the streaming pipeline, so the table it prints is the
latency a person would meet. The demo keeps its own memory database in its output folder, fresh
each run, so it never touches the user's memories.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import soundfile as sf

from audio.convert import resample
from models.tts import PiperSynthesizer

from audio.sinks import WavSink

from assistant import events as ev
from assistant.clock import MonotonicClock
from assistant.config import Config
from assistant.engines import Engines
from assistant.pipeline.loop import TurnLoop
from assistant.pipeline.loop_types import TurnRecord
from assistant.memory_access.remembering import open_memory_store, session_memory
from assistant.memory_access.routing import OneMemory, SpeakerRouting
from assistant.modes.replay import EventLog, ReplayResult, write_transcript
from assistant.modes.scripted import scripted_person

SESSIONS = (
    (
        "Hi Hearth, I'm Dana. I just got back from a long walk with my dog Max.",
        "I'm a bit worried, because Max has been limping on his back leg since Sunday.",
    ),
    (
        "Hello again. Can you remind me what my dog is called?",
        "What was I worried about last time?",
    ),
)
SCRIPT = tuple(line for session in SESSIONS for line in session)
PERSON = "Dana"
USER_SPEED = 1.1  # the user speaks a little faster than Hearth…
USER_PITCH = 1.12  # …and higher: the samples are played back 12% faster than they were made
PAUSE_SECONDS = 1.5


def user_lines(tts: PiperSynthesizer, lines: tuple[str, ...]) -> list[np.ndarray]:
    """The user's scripted lines as 16 kHz audio, in a voice unlike Hearth's own; the same line always
    sounds the same (Piper's noise off), so what Whisper hears of it, and so the runs of the demo,
    tests and benchmarks made from it, do not vary with the synthesis."""
    out = []
    for line in lines:
        voice = tts.synthesize(line, speed=USER_SPEED / USER_PITCH, steady=True)
        out.append(0.8 * resample(voice, int(tts.sample_rate * USER_PITCH), 16_000))  # same samples, read faster
    return out


def synthesize_user(tts: PiperSynthesizer, lines: tuple[str, ...], path: Path) -> Path:
    """Write the user's scripted lines separated by silence as a 16 kHz wav."""
    rate = 16_000
    pieces = [np.zeros(int(0.5 * rate), dtype=np.float32)]
    for audio in user_lines(tts, lines):
        pieces += [audio, np.zeros(int(PAUSE_SECONDS * rate), dtype=np.float32)]
    sf.write(str(path), np.concatenate(pieces), rate, subtype="PCM_16")
    return path


NOTE_CHARS = 90  # of a recalled note, shown in the printout


def session_printout(n: int, lines: tuple[str, ...], records: list[TurnRecord]) -> list[str]:
    """Pure. What the plain demo prints of one session: Dana's script, then each turn with its own
    heard words, reply and first recalled notes (a note that reads as one already shown, as an
    entity's summary repeats the fact it integrates, once). Turns are not paired with script lines: a line
    whose reply had not begun when Dana went on is carried into the next turn, and then one turn
    holds two lines (pairing them by position showed every reply beside the wrong line)."""
    out = [f"--- session {n} ---", *(f"script: {line}" for line in lines)]
    for record in records:
        out += [f" heard: {record.heard}", f"hearth: {record.reply or '(' + record.skipped + ')'}"]
        shown: dict[str, str] = {}  # the line shown for each note's first words, as cut
        for m in next((e.memories for e in record.events if isinstance(e, ev.RecallDone)), ()):
            words = m.get("text", "")[:NOTE_CHARS]
            shown.setdefault(words, f"  recalled ({m.get('source', '?')}, {m.get('score', 0):.2f}): {words}")
        out += list(shown.values())[:3]
    return out


def fresh_demo_config(config: Config, out_dir: Path) -> Config:
    """The demo's own, empty memory database in its output folder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    memory_dir = out_dir / "memory"
    shutil.rmtree(memory_dir, ignore_errors=True)
    return replace(config, data_dir=str(memory_dir))


def run_demo(engines: Engines, config: Config, out_dir: Path, replies_in_real_time: bool = True) -> list[ReplayResult]:
    """One conversation per session, each a new one with Dana's memory carried between them.
    Dana always speaks in real time; replies_in_real_time=False writes Hearth's replies out at once
    instead of at the pace a speaker plays them (a test's seconds, with the same turns)."""
    config = fresh_demo_config(config, out_dir)
    store = open_memory_store(config, engines)
    results = []
    try:
        for n, lines in enumerate(SESSIONS, 1):
            user_wav = synthesize_user(engines.tts, lines, out_dir / f"session-{n}-user.wav")
            routing = OneMemory(session_memory(store, config, engines, PERSON))
            try:
                results.append(converse(user_lines(engines.tts, lines), user_wav, out_dir / f"session-{n}", engines,
                                        config, routing, replies_in_real_time))
            finally:
                routing.end_session()
    finally:
        if store:
            store.close()
    return results


def converse(lines: list[np.ndarray], said: Path, folder: Path, engines: Engines, config: Config,
             routing: SpeakerRouting, replies_in_real_time: bool = True) -> ReplayResult:
    """Dana says each line in real time and waits for the reply, through the streaming loop; what
    happened goes to `folder` as a replay's does (replies, transcript.txt, events.jsonl)."""
    folder.mkdir(parents=True, exist_ok=True)
    sink = WavSink(folder, realtime=replies_in_real_time)
    bus = ev.EventBus()
    log = EventLog(folder / "events.jsonl")
    bus.subscribe(log)
    loop = TurnLoop(engines, sink, bus, MonotonicClock(), config, routing=routing)
    try:
        records = loop.run(scripted_person(lines, lambda: loop.busy, lambda: loop.talking))
    finally:
        log.close()
        sink.close()
    write_transcript(folder / "transcript.txt", records)
    return ReplayResult(said, folder, records, list(sink.written))
