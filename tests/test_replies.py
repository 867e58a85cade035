"""End to end: a reply-quality scenario through the real loop (Piper's voice, VAD, Whisper, recall,
the bundled model, Piper), its probes asked two days later and every spoken reply held to the checks."""

from __future__ import annotations

import json

import pytest

from conftest import SHARED_DATA, load_benchmark

SCENARIOS = SHARED_DATA / "replies" / "dev.json"


@pytest.fixture(scope="module")
def scenarios():
    if not SCENARIOS.exists():
        pytest.skip(f"shared reply scenarios not found at {SCENARIOS}")
    return json.loads(SCENARIOS.read_text())


def test_a_wedding_told_of_is_recalled_and_said_to_the_person(engines, test_config, scenarios, tmp_path):
    replies = load_benchmark("replies")
    scenario = next(s for s in scenarios["scenarios"] if s["id"] == "sister-wedding")
    rows = replies.run_scenario(scenario, engines, test_config, scenarios["unknown_phrases"], tmp_path)
    assert [r.failed for r in rows] == [[] for _ in scenario["probes"]], [vars(r) for r in rows]
