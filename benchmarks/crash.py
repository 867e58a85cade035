"""Crash safety: `hearth replay` of a long recording killed with SIGKILL again and again, the store
checked after every kill, then one restart that must add new turns. Run through benchmarks/stress.py."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from long_replay import (ROOT, Recording, StoreCheck, build_recording, check_store, cut_from, hearth_env,
                         problems, read_events, started_replies, user_turn_count)


def start_replay(recording: Path, out: Path, data_dir: Path, env: dict, log: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "assistant.modes.cli", "replay", str(recording), "--out", str(out), "--no-tui",
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


def _until_a_reply_starts(events: Path, proc: subprocess.Popen, timeout: float) -> float:
    """Seconds until the run's first reply began to play (or it ended, or `timeout` passed)."""
    started = time.monotonic()
    while proc.poll() is None and time.monotonic() - started < timeout and not started_replies(read_events(events)):
        time.sleep(0.1)
    return time.monotonic() - started


def crash_test(work: Path, kills: int = 20, minutes: float = 30.0, seed: int = 1,
               kill_range: tuple[float, float] = (8.0, 40.0), restart: str = "resume",
               resume_timeout: float = 120.0, recording: Recording | None = None,
               say=print, from_first_reply: bool = False) -> CrashReport:
    """Kill `hearth replay` `kills` times, checking the store after each, then restart it once more
    and wait until it stores new turns. `kill_range` is seconds from the run's start, or with
    `from_first_reply` from its first reply's start: a slow machine's model loading then leaves no
    run killed before it had anything to lose."""
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
        if from_first_reply:
            delay += _until_a_reply_starts(out / source.stem / "events.jsonl", proc, resume_timeout)
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
            f"user turns stored {check.user_turns:>4}  {'ok' if check.ok else 'PROBLEM: ' + problems(check)}")
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
    say(f"  restart: {new_turns} new user turn(s) stored; {'ok' if resume_check.ok else problems(resume_check)}")
    return CrashReport(recording.seconds, done, resumed, new_turns, resume_check)
