"""The main screen's panels. Each one renders a ViewState with `show(state)` and redraws only when the
part of the state it shows has changed (the reducer keeps unchanged parts as the same objects)."""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from rich.text import Text
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static


from . import render, render_memories
from .state import ViewState


class StartupPanel(Static):
    """Each engine's progress while the models load; hidden once the session has started."""

    DEFAULT_CSS = """
    StartupPanel { border: round $warning; height: auto; padding: 0 1; }
    """

    def on_mount(self) -> None:
        self.border_title = "Starting"

    def show(self, state: ViewState) -> None:
        visible = not state.started
        self.display = visible
        if visible:
            self.update(render.startup(state))


class ConversationPanel(VerticalScroll):
    DEFAULT_CSS = """
    ConversationPanel { border: round $accent; padding: 0 1; height: 1fr; }
    ConversationPanel > #transcript { width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: object = None

    def compose(self):
        yield Static(id="transcript")

    def on_mount(self) -> None:
        self.border_title = "Conversation"

    def show(self, state: ViewState) -> None:
        key = (state.turns, state.started, bool(state.models))
        if key == self._shown:
            return
        self._shown = key
        at_end = self.scroll_y >= self.max_scroll_y - 1
        self.query_one("#transcript", Static).update(render.conversation(state))
        if at_end:
            self.call_after_refresh(self.scroll_end, animate=False)


class TimingsTable(DataTable):
    DEFAULT_CSS = """
    TimingsTable { height: 1fr; width: 3fr; border: round $primary; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="none", zebra_stripes=True, **kwargs)
        self.can_focus = False
        self._rows: list | None = None

    def on_mount(self) -> None:
        self.border_title = "Timings (ms)"
        for key, title in render.TIMING_COLUMNS:
            self.add_column(title, key=key)

    def show(self, state: ViewState) -> None:
        rows = render.timing_rows(state)
        if rows == self._rows:
            return
        self._rows = rows
        values = [v for _, v in render.end_to_audio(state)]
        self.clear()
        for row in rows:
            cells = [Text(c, justify="left" if key == "ended" else "right")
                     for c, (key, _) in zip(row, render.TIMING_COLUMNS)]
            total = next((t.durations.get("speech_end_to_first_audio") for t in state.turns
                          if str(t.turn_id) == row[0]), None)
            if total is not None and render.is_slow(total, values):
                cells[-1].stylize("bold red")
            self.add_row(*cells, key=row[0])
        if rows:
            self.move_cursor(row=len(rows) - 1)
            self.scroll_end(animate=False)


class LatencyChart(Static):
    DEFAULT_CSS = """
    LatencyChart { height: 1fr; width: 2fr; border: round $primary; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: object = None

    def on_mount(self) -> None:
        self.border_title = "Speech end → first audio"

    def show(self, state: ViewState) -> None:
        if state.turns is self._shown:
            return
        self._shown = state.turns
        rows = max(1, (self.size.height or 10) - 3)
        width = max(8, (self.size.width or 40) - 20)
        self.update(render.latency_chart(state, width=width, rows=rows))

    def on_resize(self) -> None:
        self._shown = None


class MemoriesPanel(Vertical):
    """The latest recall: facts (left brain) and the person (right brain), pool vs fallback marked."""

    DEFAULT_CSS = """
    MemoriesPanel { border: round $secondary; width: 2fr; height: 1fr; padding: 0 1; }
    MemoriesPanel > .heading { text-style: bold; color: $text-muted; }
    MemoriesPanel > #facts { height: auto; margin-bottom: 1; }
    MemoriesPanel > #persona { height: auto; }
    """

    def __init__(self, now: Callable[[], datetime] = datetime.now, **kwargs) -> None:
        super().__init__(**kwargs)
        self.now = now
        self._shown: object = None

    def compose(self):
        yield Static("Facts", classes="heading")
        yield Static(id="facts")
        yield Static("The person", classes="heading")
        yield Static(id="persona")

    def on_mount(self) -> None:
        self.border_title = "Active memories"
        self.border_subtitle = "● pool (matched entities)  ○ fallback (vector search)"

    def show(self, state: ViewState) -> None:
        key = (state.memories_turn, state.facts, state.persona)
        if key == self._shown:
            return
        self._shown = key
        now = self.now()
        if state.memories_turn is None:
            self.query_one("#facts", Static).update(Text("nothing recalled yet", style="dim"))
        elif not state.facts:
            self.query_one("#facts", Static).update(Text(f"turn {state.memories_turn}: no facts recalled", style="dim"))
        else:
            self.query_one("#facts", Static).update(render_memories.facts_text(state.facts, now))
        persona = render_memories.persona_text(state.persona, now) if state.memories_turn is not None else Text("")
        self.query_one("#persona", Static).update(persona)
        self.border_title = (f"Active memories (turn {state.memories_turn})" if state.memories_turn is not None
                             else "Active memories")


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $boost; padding: 0 1; }
    """

    def show(self, state: ViewState) -> None:
        self.update(render.status(state))
