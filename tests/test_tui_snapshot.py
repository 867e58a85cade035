"""Snapshots of the main screen on a fixed, recorded sequence of events (no models, no live timings).

Update after an intended change of the screen: `pytest tests/test_tui_snapshot.py --snapshot-update`.
"""

from __future__ import annotations

from tui.app import HearthApp
from tui.sample import SAMPLE_NOW, sample_items
from tui.state import EngineProgress


def test_main_screen(snap_compare):
    app = HearthApp(events=sample_items(), now=lambda: SAMPLE_NOW)
    assert snap_compare(app, terminal_size=(160, 45))


def test_main_screen_muted_with_push_to_talk(snap_compare):
    app = HearthApp(events=sample_items(), now=lambda: SAMPLE_NOW)
    assert snap_compare(app, terminal_size=(160, 45), press=["m", "p"])


def test_startup_screen(snap_compare):
    app = HearthApp(events=[EngineProgress("vad", "ready", 0.31), EngineProgress("asr", "ready", 1.12),
                            EngineProgress("llm", "loading")])
    assert snap_compare(app, terminal_size=(100, 30))
