"""Replies come first: background generation waits for them and stops when one arrives."""

import threading
import time

import pytest

from models.gate import BackgroundChat, LlmGate, Preempted


class CountingModel:
    """A stand-in for the language model's token stream: yields a token every 10 ms."""

    name = "counting"

    def __init__(self):
        self.closed = 0

    def stream(self, messages, max_tokens=160, temperature=0.0):
        try:
            for n in range(max_tokens):
                time.sleep(0.01)
                yield f"t{n} "
        finally:
            self.closed += 1


def start_long_background(chat, result: dict) -> threading.Thread:
    """A long background generation on its own thread, already under way; how it ended goes in result."""
    def background():
        try:
            result["text"] = chat.complete([], max_tokens=500)
        except Preempted:
            result["preempted"] = True

    worker = threading.Thread(target=background)
    worker.start()
    time.sleep(0.05)
    return worker


def test_background_runs_when_nothing_else_wants_the_model():
    chat = BackgroundChat(CountingModel(), LlmGate())
    assert chat.complete([], max_tokens=3) == "t0 t1 t2 "


def test_background_generation_stops_when_a_reply_wants_the_model():
    gate, model = LlmGate(), CountingModel()
    chat = BackgroundChat(model, gate)
    result = {}
    worker = start_long_background(chat, result)
    with gate.foreground():  # a reply: it gets the model once the background stops
        result["reply_got_model"] = True
    worker.join(timeout=5)
    assert result == {"preempted": True, "reply_got_model": True}
    assert model.closed == 1  # the stream was closed, not left half-read


def test_background_waits_while_a_reply_is_wanted():
    gate = LlmGate()
    order = []
    with gate.wanted():
        t = threading.Thread(target=lambda: (gate.background().__enter__(), order.append("background")))
        t.start()
        time.sleep(0.05)
        order.append("reply done")
    t.join(timeout=5)
    assert order == ["reply done", "background"]


def test_background_gives_up_after_its_timeout():
    gate = LlmGate()
    with gate.wanted(), pytest.raises(Preempted):
        with gate.background(timeout=0.05):
            pass


def test_background_stops_when_the_person_starts_speaking_and_waits_until_they_stop():
    gate, model = LlmGate(), CountingModel()
    chat = BackgroundChat(model, gate)
    result = {}
    worker = start_long_background(chat, result)
    gate.listening(True)  # speech started: a reply is coming
    worker.join(timeout=5)
    assert result == {"preempted": True}

    later = threading.Thread(target=lambda: result.setdefault("later", chat.complete([], max_tokens=2)))
    later.start()
    later.join(timeout=0.1)
    assert later.is_alive() and "later" not in result  # nothing runs while the person speaks
    gate.listening(False)
    later.join(timeout=5)
    assert result["later"] == "t0 t1 "
