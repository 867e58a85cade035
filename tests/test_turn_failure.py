"""A turn that fails (here: the memory store was closed under the loop) is reported, and the loop
goes on to the next utterance instead of falling silent."""

from __future__ import annotations

from dataclasses import replace

from assistant import events as ev
from assistant.memory_access.remembering import open_memory_store, session_memory
from assistant.memory_access.routing import OneMemory
from assistant.modes.replay import replay_file


def test_a_failing_turn_does_not_stop_the_loop(speech_dir, engines, test_config, tmp_path):
    config = replace(test_config, data_dir=str(tmp_path / "data"))
    store = open_memory_store(config, engines)
    memory = session_memory(store, config, engines)
    store.close()  # every recall now fails with a real error from the store
    result = replay_file(speech_dir / "conversation/three-speakers.wav", tmp_path / "out", engines, config,
                         routing=OneMemory(memory))
    skipped = [e for r in result.records for e in r.events if isinstance(e, ev.TurnSkipped)]
    assert len(result.records) >= 3  # every utterance was still heard and handled
    assert skipped and all(e.reason.startswith("failed:") for e in skipped if e.reason != "too short")
