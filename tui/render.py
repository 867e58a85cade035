"""Pure formatting: a ViewState in, Rich text and table cells out. No Textual, no clocks read here."""

from __future__ import annotations

from statistics import median
from typing import Sequence

from rich.text import Text

from assistant import events as ev
from assistant.timings import TURN_COLUMNS, first_of

from .gate import level_dbfs
from .state import ENGINE_ORDER, LISTENING, SPEAKING, TALKING, THINKING, TurnView, ViewState

STAGE_TITLES = {
    "endpoint_delay": "endpoint",
    "asr": "transcribe",
    "recall": "recall",
    "llm_first_token": "LLM 1st tok",
    "first_audio": "1st audio",
    "first_sentence_audio": "1st audio",
    "speech_end_to_first_audio": "end→audio",
}


def stage_title(name: str) -> str:
    return STAGE_TITLES.get(name) or name.replace("_", " ")
VAD_STYLES = {LISTENING: "green", SPEAKING: "bold yellow", THINKING: "bold magenta", TALKING: "bold cyan"}
SLOW_FACTOR = 1.5  # a turn this many times the median speech-end-to-first-audio is marked slow
SLOW_FLOOR = 0.3  # …and only if it is slower than this many seconds (no alarms about 80 ms vs 50 ms)
BLOCKS = " ▏▎▍▌▋▊▉█"


def speaker_name(person: str | None) -> str:
    return person or "unknown"


# -- conversation ----------------------------------------------------------------------------------

def conversation(state: ViewState, max_turns: int = 200) -> Text:
    out = Text()
    turns = state.turns[-max_turns:]
    for turn in turns:
        if out:
            out.append("\n")
        _user_line(out, turn)
        if turn.answered:
            out.append("\n")
            _hearth_line(out, turn)
    if not turns and state.started:
        # live, the window listens before every model is ready: what is said now waits for them
        out.append("Say something…" if state.models else
                   "Listening. Still loading the models: what you say now is answered once they are ready.",
                   style="dim italic")
    return out


def _user_line(out: Text, turn: TurnView) -> None:
    out.append(f"{speaker_name(turn.speaker)}: ", style="bold green")
    if turn.asr_done:
        out.append(turn.heard.strip() or "…")
    elif turn.partial:
        out.append(turn.partial.strip() + " …", style="italic")
    else:
        out.append("…", style="dim")
    if turn.skipped:
        out.append(f"  (no reply: {turn.skipped})", style="dim")


def _hearth_line(out: Text, turn: TurnView) -> None:
    out.append("hearth: ", style="bold cyan")
    out.append(" ".join(s.strip() for s in turn.sentences))
    if turn.interrupted:
        out.append(" — cut off", style="bold red")
    elif not turn.reply_done:
        out.append(" ▍", style="cyan")


# -- timings ---------------------------------------------------------------------------------------

def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


# the timings table: the turn, how long its endpoint took and why it fell there, then each stage
TIMING_COLUMNS = (("turn", "turn"), (TURN_COLUMNS[0], stage_title(TURN_COLUMNS[0])), ("ended", "ended by"),
                  *((name, stage_title(name)) for name in TURN_COLUMNS[1:]))


def ended_by(turn: TurnView) -> str:
    """Why the turn ended where it did: "finished .91" (the end-of-turn model heard it finished, with
    its probability), "unfinished .20" (it did not, and the long silence passed), "unended .91" (it
    sounded finished, but its words end no sentence), "pending .91" (it sounded finished, and the
    base silence passed before its transcript came), "sure .98" (it sounded finished beyond doubt:
    no transcript waited for), "doubtful .40" (the model was unsure, and the transcript ended a
    sentence: the base silence passed), "question", "hanging" (how the words ended),
    "words", "fixed", "too long"."""
    endpoint = first_of(turn.events, ev.Endpoint)
    if endpoint is None or not endpoint.why:
        return "-"
    if endpoint.why in ("finished", "unfinished", "unended", "pending", "sure", "doubtful") and endpoint.finished is not None:
        return f"{endpoint.why} {endpoint.finished:.2f}".replace(" 0.", " .")
    return endpoint.why


def timing_rows(state: ViewState) -> list[tuple[str, ...]]:
    rows = []
    for turn in state.timed_turns:
        d = turn.durations
        rows.append((str(turn.turn_id), ms(d.get(TURN_COLUMNS[0])), ended_by(turn),
                     *(ms(d.get(c)) for c in TURN_COLUMNS[1:])))
    return rows


def end_to_audio(state: ViewState) -> list[tuple[int, float]]:
    return [(t.turn_id, t.durations["speech_end_to_first_audio"])
            for t in state.turns if "speech_end_to_first_audio" in t.durations]


def is_slow(value: float, values: Sequence[float]) -> bool:
    return len(values) >= 2 and value > SLOW_FLOOR and value > SLOW_FACTOR * median(values)


def bar(value: float, scale: float, width: int) -> str:
    """A horizontal bar of unicode eighth-blocks, `value/scale` of `width` cells."""
    if scale <= 0 or width <= 0:
        return ""
    eighths = max(1, round(min(1.0, value / scale) * width * 8)) if value > 0 else 0
    return "█" * (eighths // 8) + (BLOCKS[eighths % 8] if eighths % 8 else "")


def latency_chart(state: ViewState, width: int = 24, rows: int = 6) -> Text:
    """Speech end → first audio per turn (the latest `rows`), a slow turn in red."""
    points = end_to_audio(state)
    out = Text()
    if not points:
        out.append("no answered turn yet", style="dim")
        return out
    values = [v for _, v in points]
    scale = max(values)
    out.append(f"median {median(values):.2f} s over {len(values)} turn{'s' if len(values) != 1 else ''}", style="bold")
    for turn_id, value in points[-rows:]:
        slow = is_slow(value, values)
        out.append(f"\n#{turn_id:<3}")
        out.append(bar(value, scale, width).ljust(width), style="bold red" if slow else "cyan")
        out.append(f" {value:5.2f} s")
        if slow:
            out.append(" slow", style="bold red")
    return out


# -- start-up and status ---------------------------------------------------------------------------

def startup(state: ViewState) -> Text:
    out = Text("Loading models…\n\n", style="bold")
    names = list(ENGINE_ORDER) + [e.name for e in state.engines if e.name not in ENGINE_ORDER]
    for name in names:
        e = state.engine(name)
        if e is None:
            out.append(f"  ·  {name:<5} waiting\n", style="dim")
        elif e.state == "ready":
            out.append("  ✓  ", style="bold green")
            out.append(f"{name:<5} ready in {e.seconds:.1f} s\n")
        else:
            out.append("  …  ", style="bold yellow")
            out.append(f"{name:<5} loading\n")
    if state.error:
        out.append(f"\n{state.error}\n", style="bold red")
    return out


def level_meter(rms: float, width: int = 12) -> str:
    """The level from -60 dBFS (empty) to 0 dBFS (full) as eighth-blocks."""
    fraction = (level_dbfs(rms) + 60) / 60
    return bar(fraction, 1.0, width).ljust(width, "·") if fraction > 0 else "·" * width


def status(state: ViewState) -> Text:
    c = state.controls
    out = Text()
    out.append("in ", style="dim")
    out.append(state.input_name or "-", style="bold")
    out.append(" ")
    out.append(level_meter(0.0 if c.muted else state.level), style="red" if c.muted else "green")
    if state.input_lost:
        out.append(" INPUT LOST", style="bold white on red")
    if c.muted:
        out.append(" MUTED", style="bold white on red")
    if c.push_to_talk:
        out.append(" PTT:" + ("talk" if c.talk_open else "hold"), style="bold black on yellow" if c.talk_open else "bold yellow")
    out.append("  │  ", style="dim")
    vad = "ended" if state.ended else state.vad
    out.append(vad, style=VAD_STYLES.get(vad, "dim"))
    out.append("  │  speaker ", style="dim")
    out.append(speaker_name(state.speaker), style="bold")
    if state.speaker_score is not None and state.speaker:
        out.append(f" {state.speaker_score:.2f}")
    out.append("  │  ", style="dim")
    out.append(" ".join(f"{k}:{v}" for k, v in state.models) if state.models else "models loading…", style="dim")
    return out
