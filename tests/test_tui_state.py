"""The TUI's pure parts: the view-state reducer, the formatting, the frames gate and level meter."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from assistant import events as ev
from assistant.timings import stage_durations
from audio.sources import Frame
from tui import render, render_memories
from tui.gate import FrameGate, LevelMeter, level_dbfs
from tui.sample import SAMPLE_NOW, sample_items
from tui.state import (LISTENING, SPEAKING, TALKING, THINKING, Controls, EngineProgress, InputLevel, SessionEnded,
                       SessionStarted, ViewState, fold, reduce)


def answered_turn(turn: int = 1, t0: float = 0.0, text: str = "hello there", reply=("Hi.", "How are you?")):
    t = t0
    out = [ev.SpeechStart(turn, t), ev.PartialTranscript(turn, t + 0.5, text="hello"), ev.SpeechEnd(turn, t + 1.0),
           ev.Endpoint(turn, t + 1.5), ev.AsrDone(turn, t + 1.7, text=text), ev.RecallDone(turn, t + 1.75),
           ev.LlmFirstToken(turn, t + 2.0)]
    for n, sentence in enumerate(reply):
        out.append(ev.SentenceReady(turn, t + 2.2 + n, text=sentence))
        if n == 0:
            out.append(ev.FirstAudio(turn, t + 2.4))
    out.append(ev.ReplyDone(turn, t + 4.0, text=" ".join(reply)))
    return out


# -- reducer ---------------------------------------------------------------------------------------

def test_empty_state_is_listening_and_not_started():
    s = ViewState()
    assert s.vad == LISTENING and not s.started and s.turns == ()


def test_a_window_listening_while_its_models_load_says_so_until_they_are_ready():
    loading = reduce(ViewState(), SessionStarted("pulse"))
    assert "Still loading the models" in render.conversation(loading).plain
    ready = reduce(loading, SessionStarted("pulse", (("asr", "whisper-tiny.en"),)))
    assert render.conversation(ready).plain == "Say something…"
    assert render.conversation(ViewState()).plain == ""


def test_partial_transcript_shows_until_the_final_one_replaces_it():
    s = fold([ev.SpeechStart(1, 0.0), ev.PartialTranscript(1, 0.4, text="in being")])
    assert s.turns[0].user_text == "in being" and not s.turns[0].asr_done
    s = fold([ev.PartialTranscript(1, 0.8, text="in being comparatively")], s)
    assert s.turns[0].user_text == "in being comparatively"
    s = fold([ev.SpeechEnd(1, 1.0), ev.Endpoint(1, 1.5), ev.AsrDone(1, 1.7, text="In being comparatively modern.")], s)
    assert s.turns[0].user_text == "In being comparatively modern."


def test_reply_grows_sentence_by_sentence():
    events = answered_turn()
    s = fold(events[:8])  # up to the first SentenceReady
    assert s.turns[0].sentences == ("Hi.",) and not s.turns[0].reply_done
    s = fold(events)
    assert s.turns[0].sentences == ("Hi.", "How are you?") and s.turns[0].reply_done
    assert not s.turns[0].interrupted


def test_interrupted_reply_is_marked():
    s = fold(answered_turn()[:-1] + [ev.ReplyDone(1, 3.0, text="Hi.", interrupted=True)])
    assert s.turns[0].interrupted and s.turns[0].reply_done


def test_playback_stopped_marks_barge_in_where_the_event_exists():
    stopped = getattr(ev, "PlaybackStopped", None)
    if stopped is None:
        pytest.skip("no PlaybackStopped event in this version")
    s = fold(answered_turn()[:-1] + [stopped(1, 3.0)])
    assert s.turns[0].interrupted


def test_fallback_reply_without_sentences_shows_reply_text():
    s = fold([ev.SpeechStart(1, 0), ev.ReplyDone(1, 1.0, text="Sorry, could you say that again?")])
    assert s.turns[0].sentences == ("Sorry, could you say that again?",)


def test_vad_state_follows_events():
    steps = [(ev.SpeechStart(1, 0.0), SPEAKING), (ev.SpeechEnd(1, 1.0), SPEAKING), (ev.Endpoint(1, 1.5), THINKING),
             (ev.AsrDone(1, 1.7, text="hi"), THINKING), (ev.FirstAudio(1, 2.4), TALKING),
             (ev.ReplyDone(1, 3.0, text="hi"), LISTENING), (ev.SpeechStart(2, 4.0), SPEAKING),
             (ev.SpeechResumed(2, 4.5), SPEAKING), (ev.Endpoint(2, 5.0), THINKING),
             (ev.TurnSkipped(2, 5.2, reason="no words"), LISTENING)]
    s = ViewState()
    for event, expected in steps:
        s = reduce(s, event)
        assert s.vad == expected, event


def test_speaker_is_per_turn_and_unknown_until_identified():
    s = fold([ev.SpeechStart(1, 0.0), ev.SpeakerIdentified(1, 0.5, person="Dana", score=0.8), ev.SpeechStart(2, 3.0)])
    assert s.turns[0].speaker == "Dana" and s.turns[1].speaker is None
    assert s.speaker == "Dana" and s.speaker_score == 0.8  # the status bar keeps the latest identification
    assert render.speaker_name(s.turns[1].speaker) == "unknown"
    s = reduce(s, ev.SpeakerIdentified(2, 3.5, person=None, score=0.2))
    assert s.speaker is None and render.speaker_name(s.turns[1].speaker) == "unknown"


def test_durations_are_assistant_timings_of_the_turns_events():
    events = answered_turn() + answered_turn(2, 10.0)
    s = fold(events)
    for turn in s.turns:
        assert turn.durations == stage_durations([e for e in events if e.turn_id == turn.turn_id])
    assert abs(s.turns[1].durations["speech_end_to_first_audio"] - 1.4) < 1e-9


def test_recall_splits_facts_and_persona_and_keeps_the_latest():
    first = ({"kind": "item", "text": "a", "source": "pool"}, {"kind": "persona", "text": "b", "source": "fallback"},
             {"text": "no kind: a fact"})
    s = fold([ev.RecallDone(1, 1.0, memories=first)])
    assert [m["text"] for m in s.facts] == ["a", "no kind: a fact"] and [m["text"] for m in s.persona] == ["b"]
    s = reduce(s, ev.RecallDone(2, 5.0, memories=()))
    assert s.memories_turn == 2 and s.facts == () and s.persona == ()


def test_engine_progress_in_load_order_and_session_start():
    s = fold([EngineProgress("llm", "loading"), EngineProgress("vad", "ready", 0.2), EngineProgress("llm", "ready", 2.0)])
    assert [(e.name, e.state) for e in s.engines] == [("vad", "ready"), ("llm", "ready")]
    assert not s.started
    s = reduce(s, SessionStarted("mic", (("asr", "tiny.en"),)))
    assert s.started and s.input_name == "mic" and s.models == (("asr", "tiny.en"),)


def test_controls_level_and_end():
    s = fold([InputLevel(0.1), Controls(muted=True)])
    assert s.level == 0.1 and s.controls.muted
    s = reduce(s, SessionEnded(error="input device stopped"))
    assert s.ended and s.error == "input device stopped" and s.level == 0.0


def test_unchanged_parts_stay_the_same_objects():
    """Widgets redraw only when their part changed; that relies on the reducer not copying needlessly."""
    s = fold(answered_turn())
    s2 = reduce(s, InputLevel(0.3))
    assert s2.turns is s.turns and s2.facts is s.facts


def test_reducer_rejects_foreign_items():
    with pytest.raises(TypeError):
        reduce(ViewState(), "speech")


# -- rendering -------------------------------------------------------------------------------------

def test_conversation_text():
    s = fold(sample_items())
    text = render.conversation(s).plain
    assert "Dana: I just got back from a long walk with Biscuit." in text
    assert "hearth: Welcome back, Dana! How is Biscuit's knee holding up after the walk?" in text
    assert "could help you both. — cut off" in text
    assert "unknown: [cough]  (no reply: no words)" in text
    assert text.rstrip().endswith("unknown: Thanks, and …")


def test_skipped_turns_have_no_timing_row():
    s = fold(sample_items())
    assert [row[0] for row in render.timing_rows(s)] == ["1", "2", "4"]


def test_timing_rows_in_milliseconds_from_stage_durations():
    rows = render.timing_rows(fold(answered_turn()))
    d = stage_durations(answered_turn())
    assert rows[0][0] == "1" and rows[0][-1] == f"{d['speech_end_to_first_audio'] * 1000:.0f}" == "1400"


def test_slow_turn_stands_out_in_the_chart():
    s = fold(sample_items())
    chart = render.latency_chart(s, width=20).plain
    lines = chart.splitlines()
    assert lines[0].startswith("median 1.62 s")
    slow = [line for line in lines if line.endswith("slow")]
    assert len(slow) == 1 and slow[0].startswith("#2 ") and "█" * 20 in slow[0]


def test_bar_and_level_meter():
    assert render.bar(1.0, 1.0, 4) == "████"
    assert render.bar(0.5, 1.0, 4) == "██"
    assert render.bar(0.0, 1.0, 4) == ""
    assert render.bar(0.01, 1.0, 4) == "▏"
    assert render.level_meter(0.0, 6) == "······"
    assert render.level_meter(1.0, 6) == "██████"
    assert level_dbfs(0.001) == -60.0 and abs(level_dbfs(0.1) + 20) < 1e-9


def test_when_is_relative_to_now():
    now = datetime(2026, 3, 20, 12, 0)
    assert render_memories.when("2026-03-20T11:59:30", now) == "just now"
    assert render_memories.when("2026-03-20T11:50:00", now) == "10 min ago"
    assert render_memories.when("2026-03-20T09:00:00", now) == "3 h ago"
    assert render_memories.when("2026-03-19T12:00:00", now) == "1 day ago"
    assert render_memories.when("2026-03-01T12:00:00", now) == "2 weeks ago"
    assert render_memories.when("2025-01-01T12:00:00", now) == "2025-01-01"
    assert render_memories.when(None, now) == "" and render_memories.when("yesterday", now) == "yesterday"


def test_memories_render_whatever_keys_are_present():
    facts = render_memories.facts_text([{"text": "bare"}, {"entity": "Biscuit", "schema": "pets", "text": "a dog",
                                                  "score": 0.5, "source": "fallback", "said_at": "2026-03-20T18:29:30"}],
                              SAMPLE_NOW).plain
    assert "(no entity)" in facts and "bare" in facts
    assert "○ Biscuit · pets  0.50 · just now · fallback" in facts
    persona = render_memories.persona_text([{"kind": "persona", "text": "loves walks"},
                                   {"kind": "persona", "text": "worried", "affect": {"label": "anxious", "valence": -0.5},
                                    "cause": "exams", "source": "pool"}], SAMPLE_NOW).plain
    assert "(no affect)" in persona and "loves walks" in persona
    assert "● anxious (valence -0.5)" in persona and "← because exams" in persona


def test_status_line():
    s = fold(sample_items())
    line = render.status(s).plain
    assert "LJ001-0002.wav" in line and "speaking" in line and "speaker Dana 0.86" in line and "llm:qwen" in line
    muted = render.status(reduce(s, Controls(muted=True))).plain
    assert "MUTED" in muted and "············" in muted
    ptt = render.status(reduce(s, Controls(push_to_talk=True))).plain
    assert "PTT:hold" in ptt


def test_startup_lists_every_engine():
    text = render.startup(fold([EngineProgress("vad", "ready", 0.25), EngineProgress("asr", "loading")])).plain
    assert "✓  vad   ready in 0.2 s" in text or "✓  vad   ready in 0.3 s" in text
    assert "…  asr   loading" in text and "·  llm   waiting" in text and "·  tts   waiting" in text


# -- gate and meter --------------------------------------------------------------------------------

def frames(n: int = 4, value: float = 0.5):
    return [Frame(np.full(512, value, dtype=np.float32), i, (i + 1) * 0.032) for i in range(n)]


def test_gate_passes_frames_when_open_and_zeros_when_muted():
    gate = FrameGate()
    out = []
    for i, frame in enumerate(gate.frames(frames())):
        out.append(frame)
        if i == 1:
            gate.toggle_mute()
    assert [float(np.abs(f.samples).max()) for f in out] == [0.5, 0.5, 0.0, 0.0]
    assert [f.index for f in out] == [0, 1, 2, 3] and out[2].media_end == pytest.approx(0.096)


def test_push_to_talk_passes_audio_only_while_talk_is_on():
    gate = FrameGate()
    gate.toggle_push_to_talk()
    assert not gate.open
    gate.toggle_talk()
    assert gate.open
    gate.toggle_mute()
    assert not gate.open  # mute wins
    gate.toggle_mute()
    gate.toggle_push_to_talk()  # off again: open, talk reset
    assert gate.open and not gate.talk_open


def test_gate_stop_ends_the_stream():
    gate = FrameGate()
    seen = 0
    for _ in gate.frames(frames(10)):
        seen += 1
        if seen == 3:
            gate.stop()
    assert seen == 3


def test_level_meter_measures_rms_and_peak():
    meter = LevelMeter()
    source = frames(2, 0.5) + frames(1, 0.1)
    assert len(list(meter.frames(source))) == 3
    assert meter.rms == pytest.approx(0.1) and meter.read_peak() == pytest.approx(0.5)
    assert meter.read_peak() == 0.0  # reset by reading


def test_a_lost_microphone_shows_in_the_status_line_until_it_is_back():
    from tui.render import status
    from tui.state import InputStatus, ViewState, reduce

    lost = reduce(ViewState(), InputStatus("lost", "input device 'USB' lost (stalled); retrying every 1 s"))
    assert lost.input_lost and "INPUT LOST" in status(lost).plain
    back = reduce(lost, InputStatus("back", "input device 'USB' back"))
    assert not back.input_lost and "INPUT LOST" not in status(back).plain


def test_the_timings_say_why_each_turn_ended_where_it_did():
    rows = render.timing_rows(fold(sample_items()))
    ended = [row[[key for key, _ in render.TIMING_COLUMNS].index("ended")] for row in rows]
    assert ended == ["finished .91", "question", "question"]
    unfinished = fold([ev.SpeechEnd(1, 1.0), ev.Endpoint(1, 2.2, silence_ms=1100, why="unfinished", finished=0.08)])
    assert render.ended_by(unfinished.turns[0]) == "unfinished .08"
    sure = fold([ev.SpeechEnd(1, 1.0), ev.Endpoint(1, 1.2, silence_ms=150, why="sure", finished=0.98)])
    assert render.ended_by(sure.turns[0]) == "sure .98"
    assert render.ended_by(fold(answered_turn()).turns[0]) == "-"  # an endpoint that says nothing of why
