"""The Textual app driven by a pilot: on injected events (no models) and on a real replay with the real models."""

from __future__ import annotations

import asyncio
import time

import numpy as np
import pytest

from assistant import events as ev
from audio.sources import Frame
from tui.app import HearthApp
from tui.sample import SAMPLE_NOW, sample_items
from tui.session import Session, renumber
from tui.state import EngineProgress, SessionStarted
from tui.widgets import ConversationPanel, MemoriesPanel, StartupPanel, StatusBar, TimingsTable

SIZE = (160, 45)


def plain(widget) -> str:
    """What a Static-based widget shows, as plain text."""
    from textual.widgets import Static

    if isinstance(widget, Static):
        return str(widget.render())
    return "\n".join(str(s.render()) for s in widget.query(Static))


async def wait_for(pilot, condition, timeout: float, step: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await pilot.pause(step)
    return condition()


# -- injected events -------------------------------------------------------------------------------

def test_injected_events_fill_every_panel():
    asyncio.run(_injected_events_fill_every_panel())


async def _injected_events_fill_every_panel():
    app = HearthApp(events=sample_items(), now=lambda: SAMPLE_NOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.query_one(StartupPanel).display
        conversation = plain(app.query_one(ConversationPanel))
        assert "Dana: Can you remind me what my dog is called?" in conversation and "— cut off" in conversation
        table = app.query_one(TimingsTable)
        assert table.row_count == 3 and table.get_row("2")[-1].plain == "3650"
        memories = plain(app.query_one(MemoriesPanel))
        assert "Biscuit the dog · pets" in memories and "fallback" in memories and "worried" in memories
        assert "speaker Dana 0.86" in plain(app.query_one(StatusBar))


def test_events_posted_from_another_thread_appear_on_the_next_tick():
    asyncio.run(_events_posted_from_another_thread_appear_on_the_next_tick())


async def _events_posted_from_another_thread_appear_on_the_next_tick():
    app = HearthApp(events=sample_items()[:5])
    async with app.run_test(size=SIZE) as pilot:
        def speak():
            for e in (ev.SpeechStart(1, 0.0), ev.PartialTranscript(1, 0.3, text="hello the"),):
                app.post_item(e)

        await asyncio.get_running_loop().run_in_executor(None, speak)
        assert await wait_for(pilot, lambda: "hello the …" in plain(app.query_one(ConversationPanel)), 2)
        assert "speaking" in plain(app.query_one(StatusBar))


def test_startup_panel_shows_progress_until_the_session_starts():
    asyncio.run(_startup_panel_shows_progress_until_the_session_starts())


async def _startup_panel_shows_progress_until_the_session_starts():
    app = HearthApp(events=[EngineProgress("vad", "ready", 0.3), EngineProgress("asr", "loading")])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        startup = app.query_one(StartupPanel)
        assert startup.display and "asr   loading" in plain(startup) and "llm   waiting" in plain(startup)
        app.feed(SessionStarted("mic"))
        await pilot.pause()
        assert not startup.display


def test_keys_mute_push_to_talk_and_quit():
    asyncio.run(_keys_mute_push_to_talk_and_quit())


async def _keys_mute_push_to_talk_and_quit():
    app = HearthApp(events=sample_items())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        assert app.gate.muted and app.state.controls.muted
        assert "MUTED" in plain(app.query_one(StatusBar))
        await pilot.press("m")
        assert not app.gate.muted
        await pilot.press("p")
        assert app.gate.push_to_talk and not app.gate.open
        await pilot.press("space")
        assert app.gate.open and "PTT:talk" in plain(app.query_one(StatusBar))
        await pilot.press("space")
        assert not app.gate.open
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


def test_renumbered_frames_continue_across_files():
    one = [Frame(np.zeros(512, np.float32), i, (i + 1) * 0.032) for i in range(3)]
    out = list(renumber(one + one))
    assert [f.index for f in out] == list(range(6)) and out[-1].media_end == pytest.approx(6 * 0.032)


def test_session_rejects_unknown_modes_and_missing_files(test_config, tmp_path):
    from audio.sources import AudioInputError

    with pytest.raises(ValueError):
        Session(test_config, "karaoke")
    with pytest.raises(AudioInputError):
        Session(test_config, "replay", [tmp_path / "missing.wav"], out=tmp_path).check()


# -- a real replay with the real models ------------------------------------------------------------

def test_replay_of_a_real_recording_fills_the_screen(speech_dir, test_config, tmp_path):
    asyncio.run(_replay_of_a_real_recording_fills_the_screen(speech_dir, test_config, tmp_path))


async def _replay_of_a_real_recording_fills_the_screen(speech_dir, test_config, tmp_path):
    clip = speech_dir / "asr" / "LJ001-0002.wav"
    if not clip.exists():
        pytest.skip(f"{clip} not found")
    session = Session(test_config, "replay", [clip], out=tmp_path)
    session.check()
    app = HearthApp(session)
    async with app.run_test(size=SIZE) as pilot:
        # (whether the startup panel is still up at this moment depends on how fast the models load:
        # the panel itself is checked above, on injected progress)
        assert await wait_for(pilot, lambda: app.state.started, 120), app.state
        assert [e.state for e in app.state.engines if e.name in ("vad", "asr", "llm", "tts")] == ["ready"] * 4
        assert not app.query_one(StartupPanel).display
        assert await wait_for(pilot, lambda: any(t.reply_done for t in app.state.turns) or app.state.ended, 120)
        assert session.error is None, session.error
        turn = next(t for t in app.state.turns if t.reply_done)
        # LJ001-0002: "In being comparatively modern."
        assert "modern" in turn.heard.lower()
        conversation = plain(app.query_one(ConversationPanel))
        assert "unknown: " in conversation and "hearth: " in conversation and turn.sentences[0].strip() in conversation
        table = app.query_one(TimingsTable)
        assert table.row_count >= 1
        row = table.get_row(str(turn.turn_id))
        assert row[-1].plain == f"{turn.durations['speech_end_to_first_audio'] * 1000:.0f}"
        assert "LJ001-0002.wav" in plain(app.query_one(StatusBar))
        assert app.state.memories_turn == turn.turn_id  # RecallDone arrived (no memory store: nothing recalled)
        assert await wait_for(pilot, lambda: app.state.ended, 30)
        await pilot.press("m")
        assert session.gate.muted
        await pilot.press("q")
        await pilot.pause()
    assert session.join(timeout=15)
    assert (tmp_path / "events.jsonl").read_text().count("reply_done") >= 1
    assert list(tmp_path.glob("reply-*.wav"))


# -- the memory browser on a real store ------------------------------------------------------------

def vec(seed):
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def _store_with_memories(tmp_path):
    from datetime import datetime

    from memory import MemoryStore

    now = datetime(2026, 3, 18, 9, 0)
    store = MemoryStore(tmp_path / "hearth.db")
    pid = store.add_person("Dana", now=now)
    dog = store.add_entity(pid, "Biscuit the dog", "pets", ["Biscuit"], now)
    item, _ = store.add_item(pid, dog, {"text": "Has a beagle called Biscuit.", "said_at": now, "provenance": [1]},
                             vec(1), now)
    store.update_item(item, {"text": "Has a beagle called Biscuit with a bad knee; vet on Friday.", "said_at": now,
                             "provenance": [1, 2], "method": "rewrite", "emotion": "worried", "cause": "surgery"},
                      vec(2), now)
    walk = store.add_entity(pid, "evening walks", "hobbies", [], now)
    store.add_item(pid, walk, {"text": "Walks by the river most evenings.", "said_at": now, "provenance": [3]},
                   vec(3), now)
    store.add_cluster(pid, "walks with Biscuit", frozenset({dog, walk}), "active", 0.6, 1, "judged", now)
    return store


def test_memory_browser_lists_versions_searches_and_forgets_after_confirmation(tmp_path):
    asyncio.run(_memory_browser(tmp_path))


async def _memory_browser(tmp_path):
    from textual.widgets import DataTable, Static

    from tui.browser import ConfirmForget, MemoryBrowser

    store = _store_with_memories(tmp_path)
    pid = store.find_person("Dana")
    app = HearthApp(events=sample_items(), now=lambda: SAMPLE_NOW, memory_store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, MemoryBrowser) and browser.person == "Dana"
        table = browser.query_one("#items", DataTable)
        assert table.row_count == 2
        # the cluster that emerged is shown beside each of its members' memories, and named above them
        assert [table.get_row_at(i)[2] for i in range(2)] == ["walks with Biscuit"] * 2
        assert "clusters: walks with Biscuit" in str(browser.query_one("#message", Static).render())
        first = browser.selected()
        versions = str(browser.query_one("#versions", Static).render())
        assert first.versions == 2 and "current" in versions and "version −1" in versions
        assert "Has a beagle called Biscuit." in versions and "← because surgery" in versions
        await pilot.press("slash", *"river", "enter")
        await pilot.pause()
        assert [r.text for r in browser.shown] == ["Walks by the river most evenings."]
        river = browser.shown[0].item_id
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmForget)
        await pilot.press("n")
        await pilot.pause()
        assert store.count_items(pid) == 2 and app.screen is browser
        await pilot.press("d", "y")
        await pilot.pause()
        # forgotten for real: the store no longer has it, nor returns it from a vector search
        assert store.count_items(pid) == 1
        assert river not in [i for i, _ in store.search(pid, vec(3), 5)]
        assert river not in [i for i, _ in store.search_sql(pid, vec(3), 5)]
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, MemoryBrowser)
    store.close()


def test_memory_browser_without_a_store_says_so():
    asyncio.run(_browser_without_store())


async def _browser_without_store():
    from textual.widgets import Static

    app = HearthApp(events=sample_items())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await pilot.pause()
        assert "No memory store" in str(app.screen.query_one("#message", Static).render())


# -- the live session, on fake sound devices and the real models ----------------------------------

def _live_session(config, monkeypatch):
    """The window's live session on a fake sounddevice (a silent microphone, a speaker that plays
    nothing: CI has no sound card), with every item it posts kept in order."""
    import sys

    from test_reliability_devices import FakeHardware

    hw = FakeHardware()
    hw.signal = lambda n: np.zeros(n, dtype=np.float32)
    monkeypatch.setitem(sys.modules, "sounddevice", hw.module())
    session = Session(config, "live")
    session.check()
    posted: list = []
    session.start(posted.append)
    return session, posted


def _wait(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not condition():
        time.sleep(0.05)
    return condition()


def test_the_live_window_listens_while_the_models_load_and_names_them_once_ready(test_config, monkeypatch):
    session, posted = _live_session(test_config, monkeypatch)
    try:
        named = lambda: [i for i in posted if isinstance(i, SessionStarted) and i.models]  # noqa: E731
        assert _wait(named, 120), posted
    finally:
        session.stop()
        session.join(30)
    started = [n for n, i in enumerate(posted) if isinstance(i, SessionStarted)]
    ready = {i.name: n for n, i in enumerate(posted) if isinstance(i, EngineProgress) and i.state == "ready"}
    assert posted[started[0]].models == () and ready["vad"] < started[0] < ready["asr"]  # listening, still loading
    assert started[-1] > max(ready.values()) and dict(posted[started[-1]].models)["asr"] == "whisper-tiny.en"
    assert session.error is None


def test_a_model_that_fails_to_load_while_the_window_listens_ends_the_session_with_its_line(test_config, tmp_path,
                                                                                            monkeypatch):
    from dataclasses import replace

    from tui.state import SessionEnded

    broken = tmp_path / "model.gguf"
    broken.write_bytes(b"not a model" * 100)
    session, posted = _live_session(replace(test_config, llm_model=str(broken)), monkeypatch)
    try:
        assert _wait(lambda: any(isinstance(i, SessionEnded) for i in posted), 120), posted
    finally:
        session.stop()
        session.join(30)
    ended = next(i for i in posted if isinstance(i, SessionEnded))
    assert "not a GGUF" in (ended.error or "") and "not a GGUF" in str(session.error)
    assert not any(isinstance(i, SessionStarted) and i.models for i in posted)
