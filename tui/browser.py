"""The memory browser (second screen, key b): one person's memory items with their versions, search, forget.

Built on memory.MemoryStore's public methods: find_person, entities, items_of_entity, history,
clusters (the topics that emerged from what the person asks, shown beside each memory of their members),
persona, search (with the store's embedder; a plain text filter where it was opened without one) and
forget_item.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, Static

from .render_memories import when

if TYPE_CHECKING:
    from memory import MemoryStore


@dataclass(frozen=True)
class ItemRow:
    item_id: int
    entity: str
    schema: str
    text: str
    said_at: str
    versions: int
    cluster: str = ""   # the active cluster the entity belongs to ("" for none)


def person_id_of(store: MemoryStore | None, person: str | None) -> int | None:
    if store is None or not person:
        return None
    return store.find_person(person)


def list_items(store: MemoryStore, person_id: int) -> list[ItemRow]:
    """Every current item of the person, grouped by entity (most recently touched first)."""
    clustered = {e: c.name for c in store.clusters(person_id, "active") for e in c.members}
    rows = []
    for entity in store.entities(person_id):
        for item_id, version in store.items_of_entity(person_id, entity.id):
            rows.append(ItemRow(item_id, entity.name, entity.schema, version.text, str(version.said_at),
                                len(store.history(item_id)), clustered.get(entity.id, "")))
    return rows


def search_items(store: MemoryStore, person_id: int, rows: list[ItemRow], query: str, k: int = 20) -> list[ItemRow]:
    """Rows matching the query: by embedding similarity where the store has an embedder, else by text."""
    query = query.strip()
    if not query:
        return rows
    embedder = store.embedder
    by_id = {r.item_id: r for r in rows}
    if embedder is not None:
        hits = store.search(person_id, embedder.embed_one(query), k)
        return [by_id[i] for i, _ in hits if i in by_id]
    words = query.lower().split()
    return [r for r in rows if all(w in f"{r.entity} {r.schema} {r.cluster} {r.text}".lower() for w in words)]


def history_text(store: MemoryStore, item_id: int, now: datetime | None) -> Text:
    out = Text()
    for n, v in enumerate(store.history(item_id)):
        if n:
            out.append("\n\n")
        out.append("current" if n == 0 else f"version −{n}", style="bold green" if n == 0 else "bold")
        out.append(f"  said {when(v.said_at, now)} · {v.method}", style="dim")
        if v.emotion:
            out.append(f" · {v.emotion}", style="magenta")
        out.append("\n" + v.text)
        if v.cause:
            out.append(f"\n← because {v.cause}", style="italic")
    return out


class ConfirmForget(ModalScreen[bool]):
    BINDINGS = [Binding("y", "answer(True)", "Forget"), Binding("n,escape", "answer(False)", "Keep")]
    DEFAULT_CSS = """
    ConfirmForget { align: center middle; }
    ConfirmForget > Vertical { width: 70; height: auto; border: thick $error; background: $surface; padding: 1 2; }
    ConfirmForget Horizontal { height: auto; margin-top: 1; }
    ConfirmForget Button { margin-right: 2; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Forget this memory and all its versions? This cannot be undone.")
            yield Static(Text(self.text, style="italic"))
            with Horizontal():
                yield Button("Forget (y)", variant="error", id="yes")
                yield Button("Keep (n)", variant="primary", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class MemoryBrowser(Screen):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("slash", "search", "Search"),
        Binding("d", "forget", "Forget"),
    ]
    DEFAULT_CSS = """
    MemoryBrowser #query { dock: top; }
    MemoryBrowser #items { width: 3fr; border: round $secondary; }
    MemoryBrowser #versions { width: 2fr; border: round $primary; padding: 0 1; }
    MemoryBrowser #message { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, store: MemoryStore | None = None, person: str | None = None, now: Callable[[], datetime] = datetime.now) -> None:
        super().__init__()
        self.store, self.person, self.now = store, person, now
        self.person_id = person_id_of(store, person)
        self.rows: list[ItemRow] = []
        self.shown: list[ItemRow] = []

    def compose(self) -> ComposeResult:
        yield Input(placeholder="search this person's memories, then enter", id="query")
        yield Static(id="message")
        with Horizontal():
            yield DataTable(id="items", cursor_type="row", zebra_stripes=True)
            yield Static(id="versions")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#items", DataTable)
        table.border_title = f"Memories of {self.person}" if self.person else "Memories"
        self.query_one("#versions", Static).border_title = "Versions"
        for name in ("entity", "schema", "cluster", "memory", "said", "versions"):
            table.add_column(name, key=name)
        self.reload()
        table.focus()

    def message(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def reload(self) -> None:
        if self.store is None:
            self.message("No memory store is open in this session.")
        elif self.person_id is None:
            self.message("No person identified yet: memories belong to a person, so there is nothing to show.")
        else:
            self.rows = list_items(self.store, self.person_id)
            topics = self.store.clusters(self.person_id, "active")
            emerged = f" · clusters: {', '.join(c.name for c in topics)}" if topics else ""
            self.message(f"{len(self.rows)} memories{emerged} · / search · d forget · escape back")
        self.show_rows(self.rows)

    def show_rows(self, rows: list[ItemRow]) -> None:
        self.shown = rows
        table = self.query_one("#items", DataTable)
        table.clear()
        now = self.now()
        for r in rows:
            table.add_row(r.entity, r.schema, r.cluster, r.text, when(r.said_at, now), str(r.versions),
                          key=str(r.item_id))
        self.show_versions()

    def selected(self) -> ItemRow | None:
        table = self.query_one("#items", DataTable)
        if not self.shown or table.cursor_row is None or not 0 <= table.cursor_row < len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def show_versions(self) -> None:
        row = self.selected()
        body = history_text(self.store, row.item_id, self.now()) if row else Text("")
        self.query_one("#versions", Static).update(body)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_versions()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.person_id is not None:
            found = search_items(self.store, self.person_id, self.rows, event.value)
            self.show_rows(found)
            self.message(f"{len(found)} of {len(self.rows)} memories match {event.value!r}" if event.value.strip()
                         else f"{len(self.rows)} memories")
        self.query_one("#items", DataTable).focus()

    def action_search(self) -> None:
        self.query_one("#query", Input).focus()

    def action_forget(self) -> None:
        row = self.selected()
        if row is None:
            return
        def answered(yes: bool | None) -> None:
            if yes:
                self.store.forget_item(self.person_id, row.item_id)
                self.notify(f"Forgot: {row.text[:60]}")
                self.reload()

        self.app.push_screen(ConfirmForget(f"{row.entity}: {row.text}"), answered)
