"""The prompt cache, on the bundled language model: what was evaluated ahead is not evaluated again,
and carried-on memory notes cost fewer tokens than fresh ones. Counted in tokens, not timed."""

from dataclasses import replace

import numpy as np

from assistant import events as ev
from assistant.clock import MonotonicClock
from assistant.reply.prompt import History, build_messages, carry_notes
from assistant.reply.prompt_cache import PromptCache
from assistant.memory_access.remembering import open_memory_store, session_memory
from assistant.memory_access.routing import OneMemory
from assistant.pipeline.responder import Responder
from audio.sinks import WavSink
from models.llm import EVAL_BATCH

NOTES = ("3 May 2026 (three weeks ago):\n- Dana's dog Biscuit is a three-year-old beagle who loves the park.\n"
         "Today:\n- Biscuit has been limping since Sunday and Dana is worried about him.")
OTHER = "1 May 2026 (four weeks ago):\n- Dana works night shifts as a nurse at the city hospital."


def first_piece(llm, messages) -> tuple[int, int]:
    for _ in llm.stream(messages, max_tokens=3, temperature=0.0):
        break
    return llm.last_prompt_tokens


def history() -> History:
    h = History()
    h.add("My dog is called Biscuit.", "What a lovely name for a dog.")
    return h


def test_a_prompt_evaluated_between_turns_is_found_in_the_cache(engines):
    llm = engines.llm
    llm.prefill(build_messages("", history(), NOTES, "Dana"))
    cached, evaluated = first_piece(llm, build_messages("How is my dog doing?", history(), NOTES, "Dana"))
    assert cached > 80  # the system prompt, the history and the notes
    # the new words, the chat template's closing tokens and the first reply token, and the unfilled
    # batch before them, evaluated again (LlamaCppChat._keep_whole_batches)
    assert evaluated < 25 + EVAL_BATCH


def test_a_prefill_stops_between_two_batches_when_told(engines):
    llm = engines.llm
    llm.prefill([{"role": "user", "content": "Something else."}])
    messages = build_messages("How is my dog doing?", history(), NOTES + "\n" + OTHER, "Dana")
    assert not llm.prefill(messages, stop=lambda: True)
    shared = llm.cached_tokens  # the start both prompts share, nothing more
    stops = iter([False, True])
    assert not llm.prefill(messages, stop=lambda: next(stops))
    assert llm.cached_tokens == shared + EVAL_BATCH  # one batch, then it stopped
    assert llm.prefill(messages) and llm.cached_tokens == llm.count_prompt_tokens(messages)
    assert first_piece(llm, messages)[1] < 3  # all of it was in the cache


def test_a_prompt_evaluated_ahead_stands_aside_once_a_reply_has_begun(engines):
    llm, gate = engines.llm, engines.llm_gate
    cache = PromptCache(llm, gate, history(), memory_budget_tokens=200)
    llm.prefill([{"role": "user", "content": "Something else."}])
    before = llm.cached_tokens
    with gate.wanted():  # a reply's job has started: it will want the model after its transcription
        cache.prefill_partial("How is my dog", None, NOTES)
    assert llm.cached_tokens <= before
    cache.prefill_partial("How is my dog", None, NOTES)
    assert llm.cached_tokens == llm.count_prompt_tokens(build_messages("How is my dog", history(), NOTES))


def test_a_prompt_evaluated_ahead_gives_the_cores_to_a_partial_transcription(engines):
    llm, gate = engines.llm, engines.llm_gate
    cache = PromptCache(llm, gate, history(), memory_budget_tokens=200)
    llm.prefill([{"role": "user", "content": "Something else."}])
    before = llm.cached_tokens
    with gate.transcribing():
        cache.prefill_next("Dana")
    assert llm.cached_tokens <= before
    cache.prefill_next("Dana")
    assert llm.cached_tokens == llm.count_prompt_tokens(build_messages("", history(), "", "Dana"))


def test_carried_notes_evaluate_fewer_tokens_than_fresh_notes(engines):
    llm = engines.llm
    question = "And how are my night shifts going?"
    recalled = OTHER + "\n" + NOTES  # an older day's memory comes first in a block, days in order
    llm.prefill(build_messages("", history(), NOTES, "Dana"))
    _, fresh = first_piece(llm, build_messages(question, history(), recalled, "Dana"))
    llm.prefill(build_messages("", history(), NOTES, "Dana"))
    carried_notes = carry_notes(NOTES, recalled, limit_tokens=400)
    _, carried = first_piece(llm, build_messages(question, history(), carried_notes, "Dana"))
    assert carried_notes == NOTES + "\n" + OTHER
    assert carried < fresh - 20  # fresh: all of the notes evaluated again; carried: only the line added


def test_a_new_session_warms_the_prompt_with_notes_for_what_was_said_last(engines, test_config, tmp_path):
    config = replace(test_config, data_dir=str(tmp_path / "data"))
    store = open_memory_store(config, engines)
    memory = session_memory(store, config, engines, "Dana")
    memory.remember("My dog Biscuit has been limping since Sunday and I'm worried about him.", "Poor Biscuit.")
    memory.flush()
    responder = Responder(engines, WavSink(tmp_path / "out"), ev.EventBus().emit, MonotonicClock(), config,
                          History(), OneMemory(memory))
    responder.warming.join(timeout=60)
    responder.close()
    notes = responder.prompt_cache.last_notes
    assert "Biscuit" in notes  # recalled for what Dana said last
    cached, evaluated = first_piece(engines.llm, build_messages("How is he today?", History(), notes, "Dana"))
    # The cache reaches into the warmed notes: past all of the prompt without them. With repeatable
    # replies (the suite's setting) batches start at multiples of EVAL_BATCH and a prompt's last,
    # unfilled one is evaluated again, so where the reuse ends depends on the notes' length (the
    # template's tail after the notes is not shared with the next prompt either): up to one batch
    # and that tail are evaluated again.
    bare = engines.llm.count_prompt_tokens(build_messages("", History(), "", "Dana"))
    warmed = engines.llm.count_prompt_tokens(build_messages("", History(), notes, "Dana"))
    assert bare < cached and cached >= warmed - 2 * EVAL_BATCH, (bare, cached, warmed)
    store.close()


def test_a_start_with_nothing_to_recall_warms_the_system_prompt(engines, test_config, tmp_path):
    """A new person's first reply (nothing said yet, no notes) finds the system prompt and its
    examples evaluated: most of a first prompt."""
    llm = engines.llm
    llm.prefill([{"role": "user", "content": "Something else."}])
    responder = Responder(engines, WavSink(tmp_path / "out"), ev.EventBus().emit, MonotonicClock(), test_config,
                          History(), OneMemory())
    responder.warming.join(timeout=60)
    responder.close()
    cached, _ = first_piece(llm, build_messages("What time is it?", History(), "", None))
    bare = llm.count_prompt_tokens(build_messages("", History(), "", None))
    assert cached >= bare - 2 * EVAL_BATCH, (cached, bare)  # (whole batches only, as above)


def test_a_prefill_over_a_cached_reply_leaves_the_model_as_llama_cpp_itself_would(engines):
    llm = engines.llm
    messages = build_messages("Name one colour of the rainbow.", history(), NOTES, "Dana")

    def reply() -> str:
        return "".join(llm.stream(messages, max_tokens=6, temperature=0.0))

    llm.prefill([{"role": "user", "content": "Something else."}])
    reply()  # the cache holds the prompt and a reply after it
    reused = reply()  # llama-cpp-python's own reuse: the prompt's last token evaluated again
    llm.prefill(messages)  # ours: cut back to the prompt, its last token evaluated again
    assert llm.cached_tokens == llm.count_prompt_tokens(messages)
    assert reply() == reused  # not sampled from the logits of the reply's last token


def test_a_prompt_is_evaluated_to_the_same_bits_whatever_the_cache_held(engines):
    """A greedy reply follows the last bits of the logits: the same prompt must give the same ones
    after a fresh start, after a partial transcript was evaluated ahead, and after two."""
    llm = engines.llm
    heard = "Can you remind me how my dog Biscuit has been doing since Sunday?"
    messages = build_messages(heard, history(), NOTES, "Dana")
    words = heard.split()

    def logits_after(*earlier: str):
        llm.prefill([{"role": "user", "content": "Something else."}])
        for partial in earlier:
            llm.prefill(build_messages(partial, history(), NOTES, "Dana"))
        llm.prefill(messages)
        return np.ctypeslib.as_array(llm._llm._ctx.get_logits(), shape=(llm._llm.n_vocab(),)).copy()

    fresh = logits_after()
    for earlier in ([" ".join(words[:3])], [" ".join(words[:5]), " ".join(words[:9])], [heard + " And"]):
        assert np.array_equal(logits_after(*earlier), fresh), earlier
