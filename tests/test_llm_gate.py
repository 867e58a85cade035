"""Replies come first: background generation waits for them and stops when one arrives.

On the bundled language model: a background job is a real generation, so preemption is tested where
it happens, between two tokens or between two batches of prompt evaluation."""

import threading
import time

import pytest

from models.gate import BackgroundChat, LlmGate, Preempted
from models.llm import EVAL_BATCH

STORY = [{"role": "user", "content": "Tell me a very long story about a lighthouse keeper and his dog."}]
LONG_PROMPT = [{"role": "user", "content": "Summarise these notes in one line.\n" +
                "- Dana walked the dog by the river and talked about the weather with a neighbour.\n" * 40}]


class Watched:
    """The real model, counting the pieces it streamed and the streams closed (a preempted one must be)."""

    def __init__(self, llm):
        self.llm, self.name, self.pieces, self.closed = llm, llm.name, 0, 0
        self.prefilled = 0  # tokens in the cache when the last prefill returned

    def prefill(self, messages, stop=None):
        try:
            return self.llm.prefill(messages, stop)
        finally:
            self.prefilled = self.llm.cached_tokens

    def cache_kept(self):
        return self.llm.cache_kept()

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid="", never_open_with=()):
        try:
            for piece in self.llm.stream(messages, max_tokens, temperature, avoid):
                self.pieces += 1
                yield piece
        finally:
            self.closed += 1


def start_background(chat, messages, result: dict) -> threading.Thread:
    """A long background generation on its own thread; how it ended goes in result."""
    def background():
        try:
            result["text"] = chat.complete(messages, max_tokens=400)
        except Preempted:
            result["preempted"] = True

    worker = threading.Thread(target=background)
    worker.start()
    return worker


def wait_until(condition, worker: threading.Thread) -> None:
    while worker.is_alive() and not condition():
        time.sleep(0.005)


def test_background_runs_when_nothing_else_wants_the_model(engines):
    chat = BackgroundChat(engines.llm, LlmGate())
    assert chat.complete(STORY, max_tokens=4).strip()


def test_background_odds_of_the_next_word_leave_the_replys_cache_as_it_was(engines):
    llm = engines.llm
    llm.prefill(STORY)
    before = llm.cached_tokens
    odds = BackgroundChat(llm, LlmGate()).next_word_odds("The cat sat on the", ["mat", "moon"])
    assert len(odds) == 2 and all(x < 0 for x in odds) and odds[0] > odds[1]
    assert llm.cached_tokens == before
    assert BackgroundChat(Watched(llm), LlmGate()).next_word_odds("x", ["y"]) is None  # a model giving no odds


def test_a_background_sentence_vector_is_the_models_own_and_leaves_the_replys_cache(engines):
    llm = engines.llm
    llm.prefill(STORY)
    before = llm.cached_tokens
    vector = BackgroundChat(llm, LlmGate()).sentence_vector("The cat sat on the mat.")
    assert vector.shape == (896,) and abs(float((vector ** 2).sum()) - 1.0) < 1e-4
    assert (vector == llm.sentence_vector("The cat sat on the mat.")).all()  # the same each time
    assert llm.cached_tokens == before  # (a context of its own)
    assert BackgroundChat(Watched(llm), LlmGate()).sentence_vector("x") is None  # a model giving none


def test_background_generation_stops_when_a_reply_wants_the_model(engines):
    gate, model = LlmGate(), Watched(engines.llm)
    chat = BackgroundChat(model, gate)
    result = {}
    worker = start_background(chat, STORY, result)
    wait_until(lambda: model.pieces > 0, worker)  # generating
    with gate.foreground():  # a reply: it gets the model once the background stops
        result["reply_got_model"] = True
    worker.join(timeout=60)
    assert result == {"preempted": True, "reply_got_model": True}
    assert model.closed == 1  # the stream was closed, not left half-read


def test_a_long_background_prompt_stops_between_two_batches_when_a_reply_wants_the_model(engines):
    gate, llm = LlmGate(), engines.llm
    model = Watched(llm)
    chat = BackgroundChat(model, gate)
    result = {}
    llm.prefill([{"role": "user", "content": "Something else."}])  # nothing of the long prompt cached
    before = llm.cached_tokens
    worker = start_background(chat, LONG_PROMPT, result)
    wait_until(lambda: llm.cached_tokens > before, worker)  # its first batch is evaluated
    with gate.foreground():
        pass
    worker.join(timeout=60)
    assert result == {"preempted": True}
    assert before < model.prefilled < llm.count_prompt_tokens(LONG_PROMPT) - EVAL_BATCH  # most never evaluated


def test_a_background_rewrite_leaves_the_next_reply_its_cached_prompt(engines):
    """A memory rewrite between two turns evaluates a prompt of its own; the reply after it still
    finds its prompt (evaluated ahead of time) in the cache, and says the same as without the rewrite."""
    llm = engines.llm
    ahead = [{"role": "system", "content": "You are Hearth, a friendly voice assistant."},
             {"role": "user", "content": "What you remember about me:\n- Dana walks the dog by the river.\n\n"}]
    reply_prompt = ahead[:1] + [{"role": "user", "content": ahead[1]["content"] + "Where do I walk the dog?"}]

    def reply() -> tuple[str, int]:
        text = "".join(llm.stream(reply_prompt, max_tokens=12, temperature=0.0))
        return text, llm.last_prompt_tokens[0]

    llm.prefill(ahead)
    expected, expected_cached = reply()
    llm.prefill(ahead)
    BackgroundChat(llm, LlmGate()).complete(LONG_PROMPT, max_tokens=8)
    text, cached = reply()
    assert cached == expected_cached > 20  # all the prompt but the question was found in the cache
    assert text == expected


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


def test_background_stops_when_the_person_starts_speaking_and_waits_until_they_stop(engines):
    gate, model = LlmGate(), Watched(engines.llm)
    chat = BackgroundChat(model, gate)
    result = {}
    worker = start_background(chat, STORY, result)
    wait_until(lambda: model.pieces > 0, worker)
    gate.listening(True)  # speech started: a reply is coming
    worker.join(timeout=60)
    assert result == {"preempted": True}

    later = threading.Thread(target=lambda: result.setdefault("later", chat.complete(STORY, max_tokens=2)))
    later.start()
    later.join(timeout=0.1)
    assert later.is_alive() and "later" not in result  # nothing runs while the person speaks
    gate.listening(False)
    later.join(timeout=60)
    assert result["later"].strip()


def test_work_ahead_stops_for_a_reply_or_a_partial_transcription():
    gate = LlmGate()
    assert not gate.ahead_should_stop
    with gate.transcribing():
        assert gate.ahead_should_stop
        assert not gate.reply_waiting  # background rewrites already wait while the person speaks
    with gate.wanted():
        assert gate.ahead_should_stop
    assert not gate.ahead_should_stop


def test_a_reply_kept_from_an_opening_and_from_a_thrown_start_begins_with_neither(engines):
    """The real model, greedy: thanked, it opens "You're welcome"; kept from "You're" and from a
    start thrown away ("Sure"), both at once, it begins otherwise (llama-cpp-python drops every
    logits processor when given a logit bias too: the two are one processor)."""
    from assistant.reply.prompt import History, build_messages

    messages = build_messages("Thank you so much for your help today.", History(), "", "Dana")
    free = "".join(engines.llm.stream(messages, 12, 0.0))
    assert free.startswith("You're"), free
    kept = "".join(engines.llm.stream(messages, 12, 0.0, avoid="Sure", never_open_with=("You're",)))
    assert not kept.startswith("You're") and not kept.startswith("Sure"), kept
