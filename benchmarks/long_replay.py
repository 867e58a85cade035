"""A long recording built from the shared clips, and what a replay of it left behind: its events and
its store, checked as Hearth would open it after a crash. Shared by benchmarks/crash.py and soak.py."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
from collections import Counter
from dataclasses import dataclass, field
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


def p50_by_window(series: list[tuple[float, float]], window: float) -> list[float]:
    """The median of a (t, value) series in each consecutive `window` seconds from its start, so a
    drift reads as a trend and memory filling from empty as a rise that levels off."""
    if not series:
        return []
    t0 = series[0][0]
    bins: dict[int, list[float]] = {}
    for t, v in series:
        bins.setdefault(int((t - t0) // window), []).append(v)
    return [float(np.median(bins[i])) if i in bins else float("nan") for i in range(max(bins) + 1)]


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


def problems(check: StoreCheck) -> str:
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


def hearth_env(work: Path) -> dict:
    from assistant.config import Config

    env = dict(os.environ)
    env["HEARTH_CACHE_DIR"] = str(Config().cache_dir if "HEARTH_CACHE_DIR" not in os.environ
                                  else os.environ["HEARTH_CACHE_DIR"])
    # The recording's many readers stand in for one person talking for a long time: every voice is
    # theirs (a desk that learned one reader's voice would keep the others' turns out of memory).
    config = work / "one-person.toml"
    config.write_text("[assistant]\nlearn_owner_voice = false\n", encoding="utf-8")
    env["HEARTH_CONFIG"] = str(config)
    env.pop("HEARTH_DATA_DIR", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env
