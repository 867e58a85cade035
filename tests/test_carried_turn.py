"""An utterance whose reply had not begun to play when the person went on is carried over and
answered with what they say next. The partial transcripts of what follows are joined to its words,
so the memories looked up while they speak still answer the final transcript of both."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assistant import events as ev
from assistant.pipeline.anticipation import stands_in_for, still_valid
from assistant.clock import MonotonicClock
from assistant.reply.prompt import History
from assistant.memory_access.remembering import open_memory_store, session_memory
from assistant.pipeline.jobs import joined
from assistant.pipeline.responder import Responder
from assistant.memory_access.routing import OneMemory
from audio.sinks import WavSink
from audio.sources import read_audio_file


def test_joined_puts_the_carried_words_first():
    assert joined("he was not an ill disposed young man", "he might") == \
        "he was not an ill disposed young man he might"
    assert joined("", "he might") == "he might"
    assert joined("  ", "he might") == "he might"


def wait_for(condition, seconds: float = 60.0) -> None:
    import time

    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_the_partial_after_a_carried_utterance_is_joined_to_its_words(speech_dir, engines, test_config, tmp_path):
    config = replace(test_config, data_dir=str(tmp_path / "data"))
    store = open_memory_store(config, engines)
    memory = session_memory(store, config, engines, "Dana")
    memory.remember("My neighbour John Dashwood is an ill disposed young man, I think.", "Oh dear.")
    memory.flush()
    seen: list[ev.Event] = []
    responder = Responder(engines, WavSink(tmp_path / "out"), seen.append, MonotonicClock(), config,
                          History(), OneMemory(memory))
    responder.warming.join(timeout=60)
    first = read_audio_file(speech_dir / "asr/librivox-ss01-0880.wav")  # "he was not an ill disposed young man"
    then = read_audio_file(speech_dir / "asr/librivox-ss01-0930.wav")  # "he might even have been made amiable himself"
    try:
        with engines.llm_gate.foreground():  # the reply cannot reach its first word, so none of it plays
            responder.start(1, 1, first, speculative=False)
            wait_for(lambda: any(isinstance(e, ev.AsrDone) for e in seen))
            responder.cancel(1, "barge-in")  # the person went on before they heard anything
        responder.wait(1, timeout=60)
        carried = next(e.text for e in seen if isinstance(e, ev.AsrDone))
        assert any(isinstance(e, ev.TurnSkipped) and e.reason.startswith("continued") for e in seen)
        assert not any(isinstance(e, ev.FirstAudio) for e in seen)

        partial = engines.asr.transcribe_partial(then[: len(then) // 2])
        responder.anticipate(2, partial)
        final = engines.asr.transcribe(np.concatenate([first, np.zeros(3200, np.float32), then]))
        anticipated = responder.anticipated_text
        assert anticipated == f"{carried} {partial}"
        assert not stands_in_for(partial, final)  # alone, the partial heard too little of the final words
        assert still_valid(anticipated, final)  # joined, its lookup answers them
    finally:
        responder.close()
        store.close()
