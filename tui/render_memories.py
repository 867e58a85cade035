"""Pure formatting of the memories a turn drew on: a ViewState's facts and feelings in, Rich text out.
No Textual, no clocks read here (`now` is passed in)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from rich.text import Text


def when(said_at: Any, now: datetime | None) -> str:
    """A said_at timestamp relative to now: "just now", "5 min ago", "3 days ago", or the date."""
    if not said_at:
        return ""
    try:
        t = datetime.fromisoformat(str(said_at))
    except ValueError:
        return str(said_at)
    if now is None:
        return t.strftime("%Y-%m-%d")
    if t.tzinfo is not None and now.tzinfo is None:
        t = t.replace(tzinfo=None)
    seconds = (now - t).total_seconds()
    if seconds < 0:
        return t.strftime("%Y-%m-%d")
    for limit, unit, size in ((60, "", 0), (3600, "min", 60), (86400, "h", 3600), (86400 * 14, "day", 86400),
                              (86400 * 60, "week", 86400 * 7)):
        if seconds < limit:
            if not size:
                return "just now"
            n = int(seconds // size)
            return f"{n} {unit}{'s' if unit in ('day', 'week') and n != 1 else ''} ago"
    return t.strftime("%Y-%m-%d")


def source_mark(memory: Mapping[str, Any]) -> Text:
    source = str(memory.get("source") or "")
    if source == "pool":
        return Text("pool", style="green")
    if source == "fallback":
        return Text("fallback", style="yellow")
    return Text(source or "-", style="dim")


def score(memory: Mapping[str, Any]) -> str:
    value = memory.get("score")
    return f"{value:.2f}" if isinstance(value, (int, float)) else ""


def fact_row(memory: Mapping[str, Any], now: datetime | None) -> tuple:
    return (source_mark(memory), str(memory.get("entity") or "-"), str(memory.get("schema") or "-"),
            str(memory.get("text") or ""), score(memory), when(memory.get("said_at"), now))


def _bullet(out: Text, memory: Mapping[str, Any]) -> None:
    source = memory.get("source")
    out.append("● " if source == "pool" else "○ " if source == "fallback" else "· ",
               style="green" if source == "pool" else "yellow" if source == "fallback" else "dim")


def _tail(out: Text, memory: Mapping[str, Any], now: datetime | None) -> None:
    bits = [score(memory), when(memory.get("said_at"), now)]
    out.append("  " + " · ".join(b for b in bits if b) + (" · " if any(bits) else ""), style="dim")
    out.append_text(source_mark(memory))


def facts_text(memories: Sequence[Mapping[str, Any]], now: datetime | None) -> Text:
    """Each fact as two lines: ● entity · schema  score · when · pool, then the memory sentence."""
    out = Text()
    for n, m in enumerate(memories):
        if n:
            out.append("\n")
        _bullet(out, m)
        out.append(str(m.get("entity") or "(no entity)"), style="bold")
        if m.get("schema"):
            out.append(f" · {m['schema']}", style="magenta")
        _tail(out, m, now)
        out.append("\n  " + str(m.get("text") or ""))
    return out


def affect_label(memory: Mapping[str, Any]) -> str:
    for key in ("label", "affect", "emotion"):
        value = memory.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, Mapping) and value.get("label"):
            return str(value["label"])
    return ""


def _number(memory: Mapping[str, Any], key: str) -> float | None:
    value = memory.get(key)
    if isinstance(value, Mapping):
        return None
    if value is None:
        affect = memory.get("affect")
        value = affect.get(key) if isinstance(affect, Mapping) else None
    return float(value) if isinstance(value, (int, float)) else None


def persona_text(memories: Sequence[Mapping[str, Any]], now: datetime | None) -> Text:
    """Each persona node: ● label (valence, arousal) [entity]  score · when · pool, then the node and its cause."""
    out = Text()
    if not memories:
        out.append("no persona node recalled", style="dim")
        return out
    for n, m in enumerate(memories):
        if n:
            out.append("\n")
        _bullet(out, m)
        label = affect_label(m)
        valence, arousal = _number(m, "valence"), _number(m, "arousal")
        style = "bold green" if (valence or 0) > 0.15 else "bold red" if (valence or 0) < -0.15 else "bold"
        out.append(label or "(no affect)", style=style)
        dims = [f"valence {valence:+.1f}" if valence is not None else "",
                f"arousal {arousal:.1f}" if arousal is not None else ""]
        if any(dims):
            out.append(f" ({', '.join(d for d in dims if d)})", style="dim")
        if m.get("entity"):
            out.append(f" · {m['entity']}", style="bold")
        _tail(out, m, now)
        out.append("\n  " + str(m.get("text") or ""))
        if m.get("cause"):
            out.append(f" ← because {m['cause']}", style="italic")
    return out
