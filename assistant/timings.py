"""Per-stage durations computed from a turn's events, once, and the tables that show them."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Sequence

from assistant import events as ev

# name -> (from event, to event); each duration is to.t - from.t
# Stages measured "after speech end" are comparable between the sequential pipeline and the
# streaming one, whose work may start before the endpoint.
STAGES: tuple[tuple[str, type[ev.Event], type[ev.Event]], ...] = (
    ("endpoint_delay", ev.SpeechEnd, ev.Endpoint),
    ("asr_after_speech_end", ev.SpeechEnd, ev.AsrDone),
    ("recall_after_speech_end", ev.SpeechEnd, ev.RecallDone),
    ("llm_first_token_after_speech_end", ev.SpeechEnd, ev.LlmFirstToken),
    ("speech_end_to_first_audio", ev.SpeechEnd, ev.FirstAudio),
    ("llm_first_token", ev.RecallDone, ev.LlmFirstToken),  # prompt processing + first token
    ("first_sentence_audio", ev.LlmFirstToken, ev.FirstAudio),  # first sentence generated and voiced
    ("reply_total", ev.Endpoint, ev.ReplyDone),
)


def group_by_turn(events: Iterable[ev.Event]) -> dict[int, list[ev.Event]]:
    turns: dict[int, list[ev.Event]] = defaultdict(list)
    for e in events:
        turns[e.turn_id].append(e)
    return dict(turns)


def first_of(turn_events: Sequence[ev.Event], kind: type[ev.Event]) -> ev.Event | None:
    return next((e for e in turn_events if type(e) is kind), None)


def stage_durations(turn_events: Sequence[ev.Event]) -> dict[str, float]:
    """Seconds per stage for one turn; a stage whose events are missing is left out."""
    out: dict[str, float] = {}
    for name, start, end in STAGES:
        a, b = first_of(turn_events, start), first_of(turn_events, end)
        if a is not None and b is not None:
            out[name] = b.t - a.t
    # compute time of the stages themselves, from the start times their events carry
    for name, kind in (("asr", ev.AsrDone), ("recall", ev.RecallDone)):
        e = first_of(turn_events, kind)
        if e is not None and e.started:
            out[name] = e.t - e.started
    return out


def events_complete_and_ordered(turn_events: Sequence[ev.Event]) -> bool:
    """Every moment of an answered turn is present once and their times never go back."""
    at: dict[type, float] = {}
    for kind in ev.TURN_MOMENTS:
        found = [e for e in turn_events if type(e) is kind]
        if len(found) != 1:
            return False
        at[kind] = found[0].t
    return all(at[a] <= at[b] for chain in ev.ORDERED_CHAINS for a, b in zip(chain, chain[1:]))


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 100]."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(per_turn: Sequence[dict[str, float]]) -> dict[str, dict[str, float]]:
    """p50/p95/count per stage over many turns."""
    out: dict[str, dict[str, float]] = {}
    for name in STAGE_NAMES:
        values = [d[name] for d in per_turn if name in d]
        if values:
            out[name] = {"p50": percentile(values, 50), "p95": percentile(values, 95), "n": len(values)}
    return out


STAGE_NAMES = tuple(name for name, _, _ in STAGES) + ("asr", "recall")


def format_summary(summary: dict[str, dict[str, float]]) -> str:
    lines = [f"{'stage':<34}{'p50 ms':>10}{'p95 ms':>10}{'n':>6}"]
    for name, row in summary.items():
        lines.append(f"{name:<34}{row['p50'] * 1000:>10.0f}{row['p95'] * 1000:>10.0f}{int(row['n']):>6}")
    return "\n".join(lines)


TURN_COLUMNS = ("endpoint_delay", "asr", "recall", "llm_first_token", "first_sentence_audio",
                "speech_end_to_first_audio")


def format_turn_table(rows: Sequence[tuple[str, str, str, dict[str, float]]]) -> str:
    """rows: (source label, heard text, reply text, durations) -> a table in milliseconds."""
    short = {"endpoint_delay": "endpt", "asr": "asr", "recall": "recall", "llm_first_token": "llm1st",
             "first_sentence_audio": "sent1st", "speech_end_to_first_audio": "end→audio"}
    head = f"{'#':>3} {'source':<18}" + "".join(f"{short[c]:>10}" for c in TURN_COLUMNS) + "  heard → reply"
    lines = [head]
    for n, (label, heard, reply, d) in enumerate(rows, 1):
        cells = "".join(f"{d[c] * 1000:>10.0f}" if c in d else f"{'-':>10}" for c in TURN_COLUMNS)
        lines.append(f"{n:>3} {label[:18]:<18}{cells}  {_clip(heard, 40)!r} → {_clip(reply, 50)!r}")
    return "\n".join(lines)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
