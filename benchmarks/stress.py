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
memory on: RSS growth per hour after the first ten minutes (of the run's wall time), p50 speech end
to first audio in the first and the last ten minutes (of the session clock), the prompt tokens
evaluated before the first word (what makes latency drift as memory fills), and the database size
against the characters said. Between turns the replay waits, as a person listening to the reply
would, for the memory writes and the next prompt's start to be evaluated; the session clock counts
that as the person's pause. `--paced` reads speech in real time (pauses are still skipped), so
partial transcripts, anticipation and speculation run as they do live.

The shared data (../shared/data/speech) must be present; the bundled LLM must be assembled in the
cache (any earlier `make demo` or `make test` did it). Scratch files go to --work (default /tmp/rel).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SPEECH = ROOT.parent / "shared" / "data" / "speech"
RATE = 16_000


# -- the recording ---------------------------------------------------------------------------------

@dataclass
class Recording:
    path: Path
    seconds: float
    starts: list[float]  # where each clip (speech or noise) begins, seconds
    speech_clips: int = 0
    noise_clips: int = 0


def _load_16k(path: Path) -> np.ndarray:
    import soundfile as sf

    from audio.convert import resample, to_mono

    data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    return resample(to_mono(data), rate, RATE)


def speech_clips(speech_dir: Path = SPEECH) -> list[Path]:
    clips = sorted(p for p in (speech_dir / "asr").iterdir() if p.suffix in (".wav", ".flac"))
    clips += sorted(p for p in (speech_dir / "speakers").glob("*/*") if p.suffix in (".wav", ".flac"))
    return clips


def build_recording(path: Path, minutes: float, seed: int = 0, speech_dir: Path = SPEECH,
                    noise_every: int = 6, pause: tuple[float, float] = (1.2, 2.5),
                    max_clip_seconds: float = 20.0) -> Recording:
    """Speech clips in random order with pauses, now and then a few seconds of quiet room noise,
    until `minutes` of audio; written as 16 kHz 16-bit wav."""
    import soundfile as sf

    rng = random.Random(seed)
    clips = speech_clips(speech_dir)
    noises = sorted(p for p in (speech_dir / "noise").iterdir() if p.suffix in (".wav", ".flac"))
    if not clips:
        raise SystemExit(f"no speech clips under {speech_dir}")
    cache: dict[Path, np.ndarray] = {}

    def load(p: Path) -> np.ndarray:
        if p not in cache:
            cache[p] = _load_16k(p)[: int(max_clip_seconds * RATE)]
        return cache[p]

    parts, starts, at, n_speech, n_noise = [], [], 0, 0, 0
    target = int(minutes * 60 * RATE)
    while at < target:
        if noises and n_speech and n_speech % noise_every == 0 and n_noise < n_speech // noise_every:
            noise = load(rng.choice(noises))
            begin = rng.randrange(max(1, len(noise) - 3 * RATE))
            segment = noise[begin:begin + 3 * RATE]
            segment = segment * (0.02 / max(float(np.sqrt(np.mean(segment ** 2))), 1e-6))  # quiet: -34 dBFS
            n_noise += 1
        else:
            segment = load(rng.choice(clips))
            n_speech += 1
        starts.append(at / RATE)
        parts.append(np.clip(segment, -1, 1).astype(np.float32))
        gap = np.zeros(int(rng.uniform(*pause) * RATE), dtype=np.float32)
        parts.append(gap)
        at += len(segment) + len(gap)
    audio = np.concatenate(parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), audio, RATE, subtype="PCM_16")
    return Recording(path, len(audio) / RATE, starts, n_speech, n_noise)


def cut_from(recording: Recording, clip_index: int, path: Path) -> Recording:
    """The recording from clip `clip_index` on (for resuming where a killed run got to)."""
    import soundfile as sf

    clip_index = max(0, min(clip_index, len(recording.starts) - 1))
    start = recording.starts[clip_index]
    audio, _ = sf.read(str(recording.path), dtype="float32", start=int(start * RATE))
    sf.write(str(path), audio, RATE, subtype="PCM_16")
    return Recording(path, len(audio) / RATE, [s - start for s in recording.starts[clip_index:]])


# -- what a run wrote --------------------------------------------------------------------------------

def read_events(path: Path) -> list[dict]:
    """events.jsonl as dicts; a last line cut off by a kill is ignored."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def started_replies(events: list[dict]) -> list[tuple[int, str]]:
    """(turn_id, text) of every turn whose reply had started to play."""
    heard = {e["turn_id"]: e.get("text", "") for e in events if e["event"] == "asr_done"}
    return [(e["turn_id"], heard.get(e["turn_id"], "")) for e in events if e["event"] == "first_audio"]


def _per_answered_turn(events: list[dict], event: str, value) -> list[tuple[float, float]]:
    """(speech end t, value(event, speech end t)) for each turn's first `event` after its speech end."""
    end: dict[int, float] = {}
    out = []
    for e in events:
        if e["event"] == "speech_end":
            end.setdefault(e["turn_id"], e["t"])
        elif e["event"] == event and e["turn_id"] in end:
            v = value(e, end[e["turn_id"]])
            if v is not None:
                out.append((end[e["turn_id"]], v))
    return out


def first_audio_latencies(events: list[dict]) -> list[tuple[float, float]]:
    """(speech end t, speech end to first audio seconds) per answered turn."""
    return _per_answered_turn(events, "first_audio", lambda e, end: e["t"] - end)


def prompt_tokens_evaluated(events: list[dict]) -> list[tuple[float, float]]:
    """(speech end t, prompt tokens the model evaluated before its first word) per generated reply:
    what a missed prompt cache costs shows here first."""
    return _per_answered_turn(events, "llm_first_token",
                              lambda e, end: float(e["evaluated_tokens"]) if e.get("evaluated_tokens") else None)


def prompt_cached_shares(events: list[dict]) -> list[float]:
    """Per generated reply: the share of its prompt found in llama.cpp's cache."""
    out = []
    for e in events:
        if e["event"] == "llm_first_token" and e.get("evaluated_tokens"):
            cached = e.get("cached_tokens") or 0
            out.append(cached / (cached + e["evaluated_tokens"]))
    return out


def first_and_last(series: list[tuple[float, float]], window: float) -> tuple[list[float], list[float]]:
    """The values in the first and in the last `window` seconds of a (t, value) series."""
    if not series:
        return [], []
    t0, t1 = series[0][0], series[-1][0]
    return [v for t, v in series if t - t0 <= window], [v for t, v in series if t1 - t <= window]


# -- checking the store ------------------------------------------------------------------------------

@dataclass
class StoreCheck:
    opened: bool = False
    error: str = ""
    integrity: str = ""
    user_turns: int = 0
    missing_turns: list[str] = field(default_factory=list)
    items: int = 0
    versions: int = 0
    broken_chains: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.opened and self.integrity == "ok" and not self.missing_turns and not self.broken_chains


CHAIN_CHECKS = (
    ("an item without a current version",
     "SELECT id FROM items WHERE current_version IS NULL"),
    ("an item whose current version is missing or another item's",
     "SELECT i.id FROM items i LEFT JOIN item_versions v ON v.id = i.current_version "
     "WHERE i.current_version IS NOT NULL AND (v.id IS NULL OR v.item_id != i.id)"),
    ("a version whose previous version is missing or another item's",
     "SELECT v.id FROM item_versions v LEFT JOIN item_versions p ON p.id = v.previous_id "
     "WHERE v.previous_id IS NOT NULL AND (p.id IS NULL OR p.item_id != v.item_id)"),
    ("an item with versions the chain from its current version does not reach",
     "WITH RECURSIVE chain(item_id, vid) AS ("
     " SELECT id, current_version FROM items WHERE current_version IS NOT NULL"
     " UNION SELECT c.item_id, v.previous_id FROM chain c JOIN item_versions v ON v.id = c.vid"
     " WHERE v.previous_id IS NOT NULL) "
     "SELECT v.item_id FROM item_versions v GROUP BY v.item_id "
     "HAVING count(*) != (SELECT count(*) FROM chain c WHERE c.item_id = v.item_id)"),
    ("a version of an item that does not exist",
     "SELECT v.id FROM item_versions v LEFT JOIN items i ON i.id = v.item_id WHERE i.id IS NULL"),
)


def check_store(data_dir: Path, expected_user_turns: Counter) -> StoreCheck:
    """Open the store as Hearth would after a crash, then check it; `expected_user_turns` counts the
    texts of user turns whose reply had started, over every run on this data folder so far."""
    from memory import MemoryStoreError, open_store

    result = StoreCheck()
    try:
        store = open_store(data_dir, embedder=None)
    except MemoryStoreError as exc:
        result.error = str(exc)
        return result
    result.opened = True
    try:
        conn = store.conn
        result.integrity = "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check").fetchall())
        stored = Counter(r[0] for r in conn.execute("SELECT text FROM turns WHERE role = 'user'"))
        result.user_turns = sum(stored.values())
        for text, n in expected_user_turns.items():
            if stored[text] < n:
                result.missing_turns.append(f"{text[:60]!r} x{n - stored[text]}")
        result.items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
        result.versions = conn.execute("SELECT count(*) FROM item_versions").fetchone()[0]
        for what, sql in CHAIN_CHECKS:
            bad = [r[0] for r in conn.execute(sql).fetchall()]
            if bad:
                result.broken_chains.append(f"{what}: {bad[:5]}")
    finally:
        store.close()
    return result


def user_turn_count(data_dir: Path) -> int:
    """User turns in the store, read without opening it as Hearth does (while a run is writing)."""
    db = Path(data_dir) / "hearth.db"
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
        try:
            return conn.execute("SELECT count(*) FROM turns WHERE role = 'user'").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


# -- crash safety --------------------------------------------------------------------------------------

def hearth_env(work: Path) -> dict:
    from assistant.config import Config

    env = dict(os.environ)
    env["HEARTH_CACHE_DIR"] = str(Config().cache_dir if "HEARTH_CACHE_DIR" not in os.environ
                                  else os.environ["HEARTH_CACHE_DIR"])
    env["HEARTH_CONFIG"] = str(work / "no-such-config.toml")
    env.pop("HEARTH_DATA_DIR", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def start_replay(recording: Path, out: Path, data_dir: Path, env: dict, log: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "assistant.cli", "replay", str(recording), "--out", str(out), "--no-tui",
           "--data-dir", str(data_dir)]
    with open(log, "wb") as sink:
        return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                start_new_session=True)


@dataclass
class Kill:
    run: int
    after_seconds: float
    phase: str  # what the run was doing: the last event it logged, or "loading"
    finished_first: bool
    replies_started: int
    check: StoreCheck


@dataclass
class CrashReport:
    recording_seconds: float
    kills: list[Kill]
    resumed: bool
    resume_new_turns: int
    resume_check: StoreCheck | None

    @property
    def turns_checked(self) -> int:
        return sum(k.replies_started for k in self.kills)

    @property
    def ok(self) -> bool:
        return (all(k.check.ok for k in self.kills) and self.resumed
                and (self.resume_check is None or self.resume_check.ok))


def _phase(events: list[dict]) -> str:
    return events[-1]["event"] if events else "loading"


def crash_test(work: Path, kills: int = 20, minutes: float = 30.0, seed: int = 1,
               kill_range: tuple[float, float] = (8.0, 40.0), restart: str = "resume",
               resume_timeout: float = 120.0, recording: Recording | None = None,
               say=print) -> CrashReport:
    """Kill `hearth replay` `kills` times, checking the store after each, then restart it once more
    and wait until it stores new turns."""
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    data_dir = work / "data"
    env = hearth_env(work)
    recording = recording or build_recording(work / "long.wav", minutes, seed=seed)
    say(f"crash: {recording.seconds / 60:.1f} min recording, {kills} kills at {kill_range[0]:g}-{kill_range[1]:g} s")
    expected: Counter = Counter()
    done: list[Kill] = []
    clip = 0  # where the next run starts in the recording (restart="resume")
    for n in range(1, kills + 1):
        source = recording.path
        if restart == "resume" and clip:
            source = cut_from(recording, clip, work / f"resume-{n:02d}.wav").path
        out = work / f"out-{n:02d}"
        proc = start_replay(source, out, data_dir, env, work / f"run-{n:02d}.log")
        delay = rng.uniform(*kill_range)
        started = time.monotonic()
        try:
            proc.wait(timeout=delay)
            finished = True
        except subprocess.TimeoutExpired:
            finished = False
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        elapsed = time.monotonic() - started
        events = read_events(out / source.stem / "events.jsonl")
        replies = started_replies(events)
        expected.update(text for _, text in replies if text)
        check = check_store(data_dir, expected)
        done.append(Kill(n, elapsed, _phase(events), finished, len(replies), check))
        if finished and proc.returncode != 0:
            check.error = check.error or f"the run exited with {proc.returncode} before the kill"
            check.opened = False
        say(f"  kill {n:>2} at {elapsed:5.1f} s during {_phase(events):<18} replies started {len(replies):>2}  "
            f"user turns stored {check.user_turns:>4}  {'ok' if check.ok else 'PROBLEM: ' + _problems(check)}")
        endpoints = sum(1 for e in events if e["event"] == "endpoint")
        clip = clip + max(0, endpoints - 1) if restart == "resume" else 0
        if clip >= len(recording.starts) - 2:
            clip = 0  # wrapped around the whole recording
    # Restart once more: the store opens and new turns are added.
    before = user_turn_count(data_dir)
    source = recording.path
    if restart == "resume" and clip:
        source = cut_from(recording, clip, work / "resume-final.wav").path
    out = work / "out-final"
    proc = start_replay(source, out, data_dir, env, work / "run-final.log")
    deadline, resumed = time.monotonic() + resume_timeout, False
    while time.monotonic() < deadline and proc.poll() is None:
        if user_turn_count(data_dir) > before:
            resumed = True
            break
        time.sleep(0.5)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    events = read_events(out / source.stem / "events.jsonl")
    expected.update(text for _, text in started_replies(events) if text)
    resume_check = check_store(data_dir, expected)
    new_turns = resume_check.user_turns - before
    resumed = resumed or new_turns > 0
    say(f"  restart: {new_turns} new user turn(s) stored; {'ok' if resume_check.ok else _problems(resume_check)}")
    return CrashReport(recording.seconds, done, resumed, new_turns, resume_check)


def _problems(check: StoreCheck) -> str:
    parts = []
    if not check.opened:
        parts.append(f"did not open: {check.error}")
    if check.integrity and check.integrity != "ok":
        parts.append(f"integrity: {check.integrity[:120]}")
    if check.missing_turns:
        parts.append(f"missing turns: {check.missing_turns[:3]}")
    if check.broken_chains:
        parts.append(f"broken chains: {check.broken_chains[:3]}")
    return "; ".join(parts) or "ok"


# -- soak ---------------------------------------------------------------------------------------------

def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def heap_mb() -> str:
    """Where resident memory is: what malloc holds from the system across all arenas and how much of
    it is free (glibc's malloc_info), and Python's live blocks, so a creeping RSS says whether objects
    pile up or the heap fragments."""
    import ctypes
    import re
    import tempfile

    py = f"py blocks {sys.getallocatedblocks() / 1e6:.2f}M, threads {threading.active_count()}"
    try:
        libc = ctypes.CDLL(None)
        libc.fopen.restype = ctypes.c_void_p
        libc.fclose.argtypes = [ctypes.c_void_p]
        libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    except AttributeError:  # not glibc
        return py
    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        stream = libc.fopen(out.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        xml = Path(out.name).read_text()
    # the last <total>/<system> lines are the sums over all arenas
    free = sum(int(n) for n in re.findall(r'<total type="(?:fast|rest)" count="\d+" size="(\d+)"/>', xml)[-2:])
    held = int(re.findall(r'<system type="current" size="(\d+)"/>', xml)[-1])
    mapped = int(re.findall(r'<total type="mmap" count="\d+" size="(\d+)"/>', xml)[-1])
    arenas = len(re.findall(r"<heap nr=", xml))
    return (f"malloc holds {held / 2**20:.0f} MB in {arenas} arenas, {free / 2**20:.0f} MB of it free, "
            f"{mapped / 2**20:.0f} MB mapped; {py}")


class RssSampler:
    def __init__(self, every: float = 5.0, pid: int | str = "self") -> None:
        self.samples: list[tuple[float, float]] = []
        self._every, self._pid, self._stop = every, pid, threading.Event()
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic() - self._t0, rss_mb(self._pid)))
            self._stop.wait(self._every)

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        self._thread.join()
        self.samples.append((time.monotonic() - self._t0, rss_mb(self._pid)))
        return self.samples


def growth_per_hour(samples: list[tuple[float, float]], warmup: float) -> float:
    """MB per hour, the least-squares slope of RSS over wall time after `warmup` seconds."""
    after = [(t, m) for t, m in samples if t >= warmup]
    if len(after) < 3 or after[-1][0] - after[0][0] < 30:
        return float("nan")
    t, m = np.array(after).T
    return float(np.polyfit(t, m, 1)[0] * 3600)


@dataclass
class SoakReport:
    audio_minutes: float
    wall_minutes: float
    turns: int
    answered: int
    rss_start_mb: float
    rss_after_warmup_mb: float
    rss_end_mb: float
    warmup_minutes: float
    rss_growth_mb_per_hour: float
    p50_first_window: float
    p50_last_window: float
    window_minutes: float
    db_bytes: int
    chars_said: int
    tokens_first_window: float  # prompt tokens evaluated before the first word, p50
    tokens_last_window: float
    prompt_cached_share: float  # p50 share of a reply's prompt found in the cache
    paced: bool = False  # speech read in real time (partials, anticipation and speculation ran)

    @property
    def bytes_per_char(self) -> float:
        return self.db_bytes / max(self.chars_said, 1)


def _p50(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _progress(started: float, audio_seconds: float, say, every: int = 25):
    """A line every `every` replies, so an hour-long run shows it is alive and how it is going."""
    from assistant import events as ev

    replies = 0

    def on_event(event) -> None:
        nonlocal replies
        if isinstance(event, ev.ReplyDone):
            replies += 1
            if replies % every == 0:
                # the replay clock is the recording's time plus the time it waited for replies
                say(f"soak: {replies} replies, replay clock {event.t / 60:.1f} min "
                    f"({audio_seconds / 60:.0f} min of audio in all), wall {(time.monotonic() - started) / 60:.1f} min, "
                    f"RSS {rss_mb():.0f} MB ({heap_mb()})")
    return on_event


def _soak_options(paced: bool = False):
    """A fast replay that still evaluates the next prompt's start between turns, as a live session
    does while the reply plays and the person answers (the replay clock counts that as the person's
    pause, not as the next turn's latency). Unpaced, the audio outruns partial transcripts, so there
    are none; paced, speech is read in real time and the whole streaming pipeline runs as live."""
    from assistant.loop import LoopOptions

    if paced:
        return LoopOptions(wait_for_reply=True, pace_speech=True)
    return LoopOptions(wait_for_reply=True, partials=False, prefill=True)


def soak(work: Path, minutes: float = 60.0, seed: int = 2, say=print, engines=None, config=None,
         paced: bool = False) -> SoakReport:
    from assistant import events as ev
    from assistant.config import Config
    from assistant.engines import load_engines
    from assistant.household import Household
    from assistant.replay import replay_file
    from memory import open_store

    work.mkdir(parents=True, exist_ok=True)
    recording = build_recording(work / "soak.wav", minutes, seed=seed)
    say(f"soak: {recording.seconds / 60:.1f} min of audio, memory on, as fast as the models allow"
        + (", speech in real time" if paced else ""))
    data_dir = work / "soak-data"
    config = replace(config, data_dir=str(data_dir)) if config else \
        Config(data_dir=str(data_dir), cache_dir=hearth_env(work)["HEARTH_CACHE_DIR"])
    engines = engines or load_engines(config)
    store = open_store(data_dir, engines.embedder)
    household = Household(store, config, engines)
    sampler = RssSampler(every=5.0)
    started = time.monotonic()
    bus = ev.EventBus()
    bus.subscribe(_progress(started, recording.seconds, say))
    try:
        result = replay_file(recording.path, work / "soak-out", engines, config, realtime=False, memory=household,
                             bus=bus, options=_soak_options(paced))
    finally:
        household.end_session()
        store.close()
    wall = time.monotonic() - started
    samples = sampler.stop()
    warmup = min(600.0, wall / 3)  # the first ten minutes, or a third of a short run
    window = min(600.0, recording.seconds / 3)
    events = read_events(result.folder / "events.jsonl")
    first, last = first_and_last(first_audio_latencies(events), window)
    tokens_first, tokens_last = first_and_last(prompt_tokens_evaluated(events), window)
    cached_share = _p50(prompt_cached_shares(events))
    db = data_dir / "hearth.db"
    db_bytes = sum(p.stat().st_size for p in data_dir.glob("hearth.db*"))
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    chars = conn.execute("SELECT coalesce(sum(length(text)), 0) FROM turns").fetchone()[0]
    conn.close()
    rss_after = next((m for t, m in samples if t >= warmup), samples[-1][1])
    return SoakReport(recording.seconds / 60, wall / 60, len(result.records), len(result.answered),
                      samples[0][1], rss_after, samples[-1][1], warmup / 60, growth_per_hour(samples, warmup),
                      _p50(first), _p50(last), window / 60, db_bytes, chars, _p50(tokens_first), _p50(tokens_last),
                      cached_share, paced)


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
            ("soak", "turns / answered", f"{s.turns} / {s.answered}"),
            ("soak", "RSS start / after warm-up / end", f"{s.rss_start_mb:.0f} / {s.rss_after_warmup_mb:.0f} / "
                                                         f"{s.rss_end_mb:.0f} MB"),
            ("soak", f"RSS growth after {s.warmup_minutes:.1f} min", f"{s.rss_growth_mb_per_hour:+.0f} MB/h"),
            ("soak", f"p50 speech end → first audio, first {s.window_minutes:.1f} min", f"{s.p50_first_window:.2f} s"),
            ("soak", f"p50 speech end → first audio, last {s.window_minutes:.1f} min", f"{s.p50_last_window:.2f} s"),
            ("soak", "p50 prompt tokens evaluated before the first word, first / last",
             f"{s.tokens_first_window:.0f} / {s.tokens_last_window:.0f}"),
            ("soak", "p50 share of the prompt found in the cache", f"{s.prompt_cached_share:.0%}"),
            ("soak", "database / characters said", f"{s.db_bytes / 1024:.0f} KiB / {s.chars_said} chars "
                                                   f"({s.bytes_per_char:.0f} B/char)"),
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
    low, high = (float(x) for x in args.kill_range.split(","))
    import shutil

    shutil.rmtree(args.work, ignore_errors=True)
    crash = crash_test(args.work / "crash", args.kills, args.minutes, args.seed, (low, high),
                       args.restart) if args.kills > 0 else None
    soaked = soak(args.work / "soak", args.soak_minutes, seed=args.seed + 1, paced=args.paced) \
        if args.soak_minutes > 0 else None
    print()
    print(table(crash, soaked))
    if args.json:
        args.json.write_text(json.dumps({"crash": _jsonable(crash), "soak": _jsonable(soaked)}, indent=2))
    return 0 if crash is None or crash.ok else 1


if __name__ == "__main__":
    sys.exit(main())
