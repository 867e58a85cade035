"""The Hearth window: conversation, timings, active memories, status; `run_tui` is the entry point.

Threads: the session (models, the turn loop, the audio) runs on its own thread and hands every item
to `HearthApp.post_item`, a deque append that never waits for the UI. The UI thread drains that
deque on a timer (10 Hz by default), folds the items into the ViewState with the pure reducer, and
redraws the panels whose part of the state changed; the level meter is sampled on the same tick.
So the audio path never blocks on drawing and redraws are bounded at the tick rate.
"""

from __future__ import annotations

import collections
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable, Sequence

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer

from assistant.config import Config

from .gate import FrameGate
from .state import Controls, InputLevel, Item, SessionEnded, ViewState, reduce
from .widgets import ConversationPanel, LatencyChart, MemoriesPanel, StartupPanel, StatusBar, TimingsTable


class HearthApp(App):
    TITLE = "Hearth"
    CSS = """
    #top { height: 1fr; }
    #left { width: 3fr; }
    #bottom { height: 12; }
    """
    BINDINGS = [
        Binding("m", "toggle_mute", "Mute"),
        Binding("p", "toggle_ptt", "Push-to-talk"),
        Binding("space", "talk", "Talk (PTT)"),
        Binding("b", "memory_browser", "Memory browser"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session=None, events: Iterable[Item] = (), now: Callable[[], datetime] = datetime.now,
                 refresh_hz: float = 10.0, memory_store=None) -> None:
        """session: a tui.session.Session to run (None: nothing runs; feed items with `feed`/`post_item`).
        events: items folded in before the first frame is drawn (a recorded sequence for tests).
        now: the clock memories' "when" is shown against (fixed in snapshot tests).
        memory_store: what the memory browser reads (see tui/browser.py)."""
        super().__init__()
        self.session = session
        self.gate: FrameGate = session.gate if session is not None else FrameGate()
        self.now = now
        self.refresh_hz = refresh_hz
        self.memory_store = memory_store
        self.state = ViewState()
        for item in events:
            self.state = reduce(self.state, item)
        self._inbox: collections.deque = collections.deque()
        self._status_shown = None

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield StartupPanel(id="startup")
                yield ConversationPanel(id="conversation")
            yield MemoriesPanel(now=self.now, id="memories")
        with Horizontal(id="bottom"):
            yield TimingsTable(id="timings")
            yield LatencyChart(id="chart")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        if self.session is not None:
            self.session.start(self.post_item)
        self.set_interval(1 / self.refresh_hz, self._tick)

    # -- items in ---------------------------------------------------------------------------------

    def post_item(self, item: Item) -> None:
        """Any thread: queue an event or UI fact. Never blocks, never touches widgets."""
        self._inbox.append(item)

    def feed(self, *items: Item) -> None:
        """UI thread (tests): fold items in and redraw now."""
        for item in items:
            self.state = reduce(self.state, item)
        self.redraw()

    def _tick(self) -> None:
        before = self.state
        while self._inbox:
            item = self._inbox.popleft()
            self.state = reduce(self.state, item)
            if isinstance(item, SessionEnded):
                self._ended(item)
        if self.session is not None and not self.state.ended:
            level = self.session.meter.read_peak()
            if abs(level - self.state.level) > 1e-4:
                self.state = reduce(self.state, InputLevel(level))
        if self.state is not before:
            self.redraw()

    def _ended(self, item: SessionEnded) -> None:
        if item.error:
            self.notify(item.error, title="Hearth stopped", severity="error", timeout=30)
        elif self.session is not None:
            self.notify("The input has ended. Press q to quit.", title="Done", timeout=30)

    def redraw(self) -> None:
        s = self.state
        self.query_one(StartupPanel).show(s)
        self.query_one(ConversationPanel).show(s)
        self.query_one(TimingsTable).show(s)
        self.query_one(LatencyChart).show(s)
        self.query_one(MemoriesPanel).show(s)
        if (s.level, s.controls, s.vad, s.speaker, s.speaker_score, s.models, s.input_name, s.ended) != self._status_shown:
            self._status_shown = (s.level, s.controls, s.vad, s.speaker, s.speaker_score, s.models, s.input_name, s.ended)
            self.query_one(StatusBar).show(s)

    # -- controls ---------------------------------------------------------------------------------

    def _controls_changed(self) -> None:
        g = self.gate
        self.feed(Controls(muted=g.muted, push_to_talk=g.push_to_talk, talk_open=g.talk_open))

    def action_toggle_mute(self) -> None:
        self.gate.toggle_mute()
        self._controls_changed()

    def action_toggle_ptt(self) -> None:
        self.gate.toggle_push_to_talk()
        self._controls_changed()

    def action_talk(self) -> None:
        if not self.gate.push_to_talk:
            self.notify("Push-to-talk is off: press p to turn it on.", timeout=3)
            return
        self.gate.toggle_talk()
        self._controls_changed()

    def action_memory_browser(self) -> None:
        from .browser import MemoryBrowser

        if isinstance(self.screen, MemoryBrowser):
            self.pop_screen()
            return
        store, person = self.memory_store, self.state.speaker
        routing = self.session.routing if self.session is not None else None  # once the models are loaded
        if store is None and routing is not None:
            store = self.session.store
            memory = routing.anticipated()
            person = person or (memory.person_name if memory is not None else None)
        self.push_screen(MemoryBrowser(store, person=person, now=self.now))

    async def action_quit(self) -> None:
        if self.session is not None:
            self.session.stop()
        self.exit(0)


def run_tui(config: Config, mode: str, files: Sequence[Path] = (), out: Path | None = None,
            make_memory: Callable[[object], object] | None = None, memory_store=None) -> int:
    """Run Hearth in the window until the person quits. Returns the exit code (0).

    mode: "live" (microphone + speakers), "replay" (each file paced as a microphone would, replies
    written as wavs into `out`, a new temporary folder by default) or "demo" (the demo script
    synthesized into `out`, default the cache's demo folder, then replayed).
    make_memory(engines) -> (SpeakerRouting, MemoryStore | None) for the loop and the memory browser,
    called once the engines are loaded (optional).
    memory_store: what the memory browser (key b) reads; see tui/browser.py.
    Devices, files and the output folder are checked before the window opens: their errors
    (AudioInputError) are raised here, as is any error that stopped the session while it ran, so
    the caller prints one line and exits 2 as for the other modes.
    """
    from .session import Session

    session = Session(config, mode, files, out=out, make_memory=make_memory)
    session.check()
    app = HearthApp(session, memory_store=memory_store)
    try:
        app.run()
    finally:
        session.stop()
        if not session.join(timeout=15):
            import sys

            print("hearth: the turn in progress did not finish within 15 s; leaving it", file=sys.stderr)
        session.close_devices()
    if session.error is not None:
        raise session.error
    return app.return_code or 0
