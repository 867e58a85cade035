"""The reply prompt's worked examples (assistant/prompt.EXAMPLES) teach how to answer; what their
person said is never voiced as a reply's words. The 0.5B model now and then answered "What did I
do before that?" with the example's "I had a long day at work today."."""

from __future__ import annotations

from dataclasses import replace

from assistant import events as ev
from assistant.clock import MonotonicClock
from assistant.reply.prompt import EXAMPLE_WORDS, EXAMPLES, History
from assistant.pipeline.responder import Responder
from assistant.memory_access.routing import OneMemory
from audio.sinks import WavSink
from audio.sources import read_audio_file
from fakes import ScriptedChat


def test_example_words_are_what_the_examples_person_said_and_noted_not_the_replies():
    assert "I had a long day at work today." in EXAMPLE_WORDS
    assert "I had pasta for lunch." in EXAMPLE_WORDS
    assert not {reply for _, reply in EXAMPLES} & set(EXAMPLE_WORDS)
    assert len(set(EXAMPLE_WORDS)) == len(EXAMPLE_WORDS)


def test_a_sentence_copied_from_the_examples_is_left_unsaid(speech_dir, engines, test_config, tmp_path):
    # The model is scripted (tests/fakes.py): the test is of what the reply path voices of a reply
    # that copies an example, which the bundled model writes only now and then.
    llm = ScriptedChat("That sounds like a busy week. I had a long day at work today. What happened next?")
    engines = replace(engines, llm=llm)
    seen: list[ev.Event] = []
    responder = Responder(engines, WavSink(tmp_path / "out"), seen.append, MonotonicClock(), test_config, History(),
                          OneMemory())
    responder.warming.join(timeout=60)
    try:
        responder.start(1, 1, read_audio_file(speech_dir / "asr/librivox-ss01-0880.wav"), speculative=False)
        responder.wait(1, timeout=120)
    finally:
        responder.close()
    done = next(e for e in seen if isinstance(e, ev.ReplyDone))
    assert done.text == "That sounds like a busy week. What happened next?"
