"""When a reply gave way to a person talking over it, read from the loop's events (echo.py, backchannels.py)."""

from __future__ import annotations

from typing import Iterable

from assistant import events as ev


def fell_silent(events: Iterable[ev.Event], stopped_at: float) -> float:
    """When the reply that stopped at `stopped_at` was last heard: from the pause it was held in
    until then, if it was (nothing more of it played), or the stop itself."""
    paused_at = None
    for e in sorted((e for e in events if isinstance(e, ev.ReplyPaused) and e.t <= stopped_at), key=lambda e: e.t):
        paused_at = e.t if e.paused else None
    return stopped_at if paused_at is None else paused_at


def silent_for(events: Iterable[ev.Event]) -> float:
    """Seconds the reply was held silent in pauses it played on from (a backchannel's, or an echo's)."""
    held, paused_at = 0.0, None
    for e in sorted((e for e in events if isinstance(e, ev.ReplyPaused)), key=lambda e: e.t):
        if e.paused and paused_at is None:
            paused_at = e.t
        elif not e.paused and paused_at is not None:
            held, paused_at = held + e.t - paused_at, None
    return held
