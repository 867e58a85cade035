"""What the screen shows, folded from events: a pure reducer with no I/O and no Textual.

`reduce(state, item) -> state` takes the assistant's typed events (assistant/events.py) and a few
UI-side facts (engine progress, input level, controls) and returns a new immutable `ViewState`.
The widgets only render a ViewState; every decision about what it means lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Union

from assistant import events as ev
from assistant.timings import stage_durations

ENGINE_ORDER = ("vad", "turn_end", "asr", "llm", "tts", "embedder", "voice")  # as load_engines reports them

LISTENING, SPEAKING, THINKING, TALKING = "listening", "speaking", "thinking", "talking"


# -- UI-side facts (not assistant events) --------------------------------------------------------

@dataclass(frozen=True)
class EngineProgress:
    name: str
    state: str  # "loading" | "ready"
    seconds: float = 0.0


@dataclass(frozen=True)
class SessionStarted:
    """The loop is about to read frames: with the models' names once all are loaded; live, it is
    posted first without them, listening while they load."""

    input_name: str
    models: tuple[tuple[str, str], ...] = ()  # Engines.describe() items
    note: str = ""  # e.g. where replies are written


@dataclass(frozen=True)
class InputLevel:
    rms: float


@dataclass(frozen=True)
class Controls:
    muted: bool = False
    push_to_talk: bool = False
    talk_open: bool = False


@dataclass(frozen=True)
class InputStatus:
    """The microphone was lost (unplugged, stalled) or is back."""

    state: str  # "lost" | "back"
    message: str = ""


@dataclass(frozen=True)
class SessionEnded:
    error: str = ""  # one line; empty when the input simply ran out


Item = Union[ev.Event, EngineProgress, SessionStarted, InputLevel, InputStatus, Controls, SessionEnded]


# -- the state -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TurnView:
    turn_id: int
    speaker: str | None = None
    speaker_score: float | None = None
    partial: str = ""
    heard: str = ""
    asr_done: bool = False
    sentences: tuple[str, ...] = ()
    reply_done: bool = False
    interrupted: bool = False
    skipped: str = ""
    resumed: int = 0
    events: tuple[ev.Event, ...] = ()

    @property
    def user_text(self) -> str:
        return self.heard if self.asr_done else self.partial

    @property
    def durations(self) -> dict[str, float]:
        return stage_durations(self.events)

    @property
    def answered(self) -> bool:
        return bool(self.sentences) or self.reply_done


@dataclass(frozen=True)
class ViewState:
    turns: tuple[TurnView, ...] = ()
    vad: str = LISTENING
    speaker: str | None = None
    speaker_score: float | None = None
    memories_turn: int | None = None
    facts: tuple[Mapping[str, Any], ...] = ()
    persona: tuple[Mapping[str, Any], ...] = ()
    engines: tuple[EngineProgress, ...] = ()
    started: bool = False
    models: tuple[tuple[str, str], ...] = ()
    input_name: str = ""
    note: str = ""
    level: float = 0.0
    controls: Controls = field(default_factory=Controls)
    ended: bool = False
    error: str = ""
    input_lost: str = ""  # why the microphone is gone, while it is

    def turn(self, turn_id: int) -> TurnView | None:
        return next((t for t in reversed(self.turns) if t.turn_id == turn_id), None)

    @property
    def timed_turns(self) -> tuple[TurnView, ...]:
        """Turns that were answered (or are being answered) and have at least one stage duration."""
        return tuple(t for t in self.turns if not t.skipped and t.durations)

    def engine(self, name: str) -> EngineProgress | None:
        return next((e for e in self.engines if e.name == name), None)


_VAD_AFTER: dict[type, str] = {
    ev.SpeechStart: SPEAKING,
    ev.SpeechResumed: SPEAKING,
    ev.Endpoint: THINKING,
    ev.FirstAudio: TALKING,
    ev.ReplyDone: LISTENING,
    ev.TurnSkipped: LISTENING,
}


def reduce(state: ViewState, item: Item) -> ViewState:
    if isinstance(item, ev.Event):
        return _event(state, item)
    if isinstance(item, EngineProgress):
        others = tuple(e for e in state.engines if e.name != item.name)
        order = {n: i for i, n in enumerate(ENGINE_ORDER)}
        engines = tuple(sorted(others + (item,), key=lambda e: order.get(e.name, len(order))))
        return replace(state, engines=engines)
    if isinstance(item, SessionStarted):
        return replace(state, started=True, input_name=item.input_name, models=tuple(item.models), note=item.note)
    if isinstance(item, InputLevel):
        return replace(state, level=item.rms)
    if isinstance(item, InputStatus):
        return replace(state, input_lost=item.message if item.state == "lost" else "")
    if isinstance(item, Controls):
        return replace(state, controls=item)
    if isinstance(item, SessionEnded):
        return replace(state, ended=True, error=item.error, vad=LISTENING, level=0.0)
    raise TypeError(f"not a view item: {item!r}")


def _event(state: ViewState, e: ev.Event) -> ViewState:
    turn = state.turn(e.turn_id) or TurnView(e.turn_id)
    turn = replace(turn, events=turn.events + (e,))
    extra: dict[str, Any] = {}
    if isinstance(e, ev.SpeechResumed):
        turn = replace(turn, resumed=turn.resumed + 1)
    elif isinstance(e, ev.PartialTranscript):
        turn = replace(turn, partial=e.text)
    elif isinstance(e, ev.AsrDone):
        turn = replace(turn, heard=e.text, asr_done=True)
    elif isinstance(e, ev.SpeakerIdentified):
        turn = replace(turn, speaker=e.person, speaker_score=e.score)
        extra.update(speaker=e.person, speaker_score=e.score)
    elif isinstance(e, ev.RecallDone):
        memories = tuple(dict(m) for m in e.memories)
        extra.update(memories_turn=e.turn_id,
                     facts=tuple(m for m in memories if m.get("kind") != "persona"),
                     persona=tuple(m for m in memories if m.get("kind") == "persona"))
    elif isinstance(e, ev.SentenceReady):
        turn = replace(turn, sentences=turn.sentences + (e.text,))
    elif isinstance(e, ev.ReplyDone):
        # a fallback reply is spoken without SentenceReady: show its text
        sentences = turn.sentences or ((e.text,) if e.text else ())
        turn = replace(turn, sentences=sentences, reply_done=True, interrupted=e.interrupted)
    elif isinstance(e, ev.PlaybackStopped):  # barge-in: the person spoke over the reply
        turn = replace(turn, interrupted=True)
    elif isinstance(e, ev.TurnSkipped):
        turn = replace(turn, skipped=e.reason or "skipped")
    vad = _VAD_AFTER.get(type(e), state.vad)
    return replace(state, turns=_put(state.turns, turn), vad=vad, **extra)


def _put(turns: tuple[TurnView, ...], turn: TurnView) -> tuple[TurnView, ...]:
    for i in range(len(turns) - 1, -1, -1):
        if turns[i].turn_id == turn.turn_id:
            return turns[:i] + (turn,) + turns[i + 1:]
    return turns + (turn,)


def fold(items, state: ViewState | None = None) -> ViewState:
    """Reduce a sequence of items from a starting state (the empty state by default)."""
    state = state or ViewState()
    for item in items:
        state = reduce(state, item)
    return state
