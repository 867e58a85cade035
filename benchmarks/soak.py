"""The soak: an hour of audio replayed in this process, memory on, watching resident memory, latency
drift, the prompt cache and the database's size. Run through benchmarks/stress.py."""

from __future__ import annotations

import sqlite3
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from long_replay import (build_recording, first_and_last, first_audio_latencies, hearth_env, p50_by_window,
                         prompt_cached_shares, prompt_tokens_evaluated, read_events)


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
    """Units per hour, the least-squares slope of a (seconds, value) series after `warmup` seconds
    from its first sample: RSS over wall time, or latency over the session clock."""
    if not samples:
        return float("nan")
    after = [(t, m) for t, m in samples if t - samples[0][0] >= warmup]
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
    p50_by_window: list[float] = field(default_factory=list)  # speech end → first audio, each window in turn
    tokens_by_window: list[float] = field(default_factory=list)
    latency_trend_s_per_hour: float = float("nan")  # least-squares slope after the first window
    lived_in_minutes: float = 0.0  # audio replayed into the store before the measured session
    lived_in_items: int = 0  # memory items the store held when the measured session began

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
    from assistant.pipeline.loop_types import LoopOptions

    if paced:
        return LoopOptions(wait_for_reply=True, pace_speech=True)
    return LoopOptions(wait_for_reply=True, partials=False, prefill=True, adaptive_endpoint=False)


def _session(recording, out: Path, engines, config, options, say) -> tuple:
    """One session of the loop on `recording`, memory on, in the store at config.data_dir, with a
    progress line now and then: (what the replay left, memory items the store then holds)."""
    from assistant import events as ev
    from assistant.memory_access.household import Household
    from assistant.modes.replay import replay_file
    from memory import open_store

    store = open_store(Path(config.data_dir), engines.embedder)
    household = Household(store, config, engines)
    bus = ev.EventBus()
    bus.subscribe(_progress(time.monotonic(), recording.seconds, say))
    try:
        result = replay_file(recording.path, out, engines, config, realtime=False, routing=household, bus=bus,
                             options=options)
    finally:
        household.end_session()
        items = store.conn.execute("SELECT count(*) FROM items").fetchone()[0]
        store.close()
    return result, items


def live_in(work: Path, minutes: float, seed: int, engines, config, say=print) -> int:
    """Replay `minutes` of other audio into the soak's store as an earlier session, so the measured
    one starts where a desk assistant that has been talked to for a while is, not from an empty
    store (whose first minutes have few notes to evaluate and so answer faster). Returns the
    memory items the store then holds."""
    recording = build_recording(work / "lived-in.wav", minutes, seed=seed + 1000)
    say(f"soak: first an earlier session, {recording.seconds / 60:.1f} min of other audio, not measured")
    _, items = _session(recording, work / "lived-in-out", engines, config, _soak_options(),
                        lambda line: say(line.replace("soak:", "earlier:")))
    return items


def soak(work: Path, minutes: float = 60.0, seed: int = 2, say=print, engines=None, config=None,
         paced: bool = False, lived_in_minutes: float = 0.0) -> SoakReport:
    from assistant.config import Config
    from assistant.engines import load_engines

    work.mkdir(parents=True, exist_ok=True)
    recording = build_recording(work / "soak.wav", minutes, seed=seed)
    say(f"soak: {recording.seconds / 60:.1f} min of audio, memory on, as fast as the models allow"
        + (", speech in real time" if paced else ""))
    data_dir = work / "soak-data"
    config = replace(config, data_dir=str(data_dir)) if config else \
        Config(data_dir=str(data_dir), cache_dir=hearth_env(work)["HEARTH_CACHE_DIR"])
    # the recording's many readers stand in for one person: every voice is theirs
    config = replace(config, learn_owner_voice=False)
    engines = engines or load_engines(config)
    lived_in_items = live_in(work, lived_in_minutes, seed, engines, config, say) if lived_in_minutes > 0 else 0
    sampler = RssSampler(every=5.0)
    started = time.monotonic()
    result, _ = _session(recording, work / "soak-out", engines, config, _soak_options(paced), say)
    wall = time.monotonic() - started
    samples = sampler.stop()
    warmup = min(600.0, wall / 3)  # the first ten minutes, or a third of a short run
    window = min(600.0, recording.seconds / 3)
    events = read_events(result.folder / "events.jsonl")
    latencies, tokens = first_audio_latencies(events), prompt_tokens_evaluated(events)
    first, last = first_and_last(latencies, window)
    tokens_first, tokens_last = first_and_last(tokens, window)
    cached_share = _p50(prompt_cached_shares(events))
    db = data_dir / "hearth.db"
    db_bytes = sum(p.stat().st_size for p in data_dir.glob("hearth.db*"))
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    chars = conn.execute("SELECT coalesce(sum(length(text)), 0) FROM turns").fetchone()[0]
    conn.close()
    rss_after = next((m for t, m in samples if t >= warmup), samples[-1][1])
    return SoakReport(
        audio_minutes=recording.seconds / 60, wall_minutes=wall / 60, turns=len(result.records),
        answered=len(result.answered), rss_start_mb=samples[0][1], rss_after_warmup_mb=rss_after,
        rss_end_mb=samples[-1][1], warmup_minutes=warmup / 60, rss_growth_mb_per_hour=growth_per_hour(samples, warmup),
        p50_first_window=_p50(first), p50_last_window=_p50(last), window_minutes=window / 60, db_bytes=db_bytes,
        chars_said=chars, tokens_first_window=_p50(tokens_first), tokens_last_window=_p50(tokens_last),
        prompt_cached_share=cached_share, paced=paced, p50_by_window=p50_by_window(latencies, window),
        tokens_by_window=p50_by_window(tokens, window),
        latency_trend_s_per_hour=growth_per_hour(latencies, window), lived_in_minutes=lived_in_minutes,
        lived_in_items=lived_in_items)
