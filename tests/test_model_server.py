"""A model on another machine, for real: llama-cpp-python's own OpenAI-compatible server (its
`server` extra, installed with the tests) serves the bundled GGUF on a loopback port, and Hearth is
pointed at it with `llm_endpoint`, as a user who outgrows the bundled model points it at llama.cpp's
server, Ollama or vLLM. Real recordings and synthesized speech go through the loop; the reply
streams from the server, with the person's memory notes in the prompt it is sent.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace

import pytest

from assistant import events as ev
from assistant.engines import load_llm
from assistant.memory_access.remembering import open_memory_store, session_memory
from assistant.memory_access.routing import OneMemory
from assistant.modes.demo import synthesize_user
from assistant.modes.replay import replay_file
from models import bundled
from models.llm_server import OpenAICompatChat


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# llama_cpp.server as `python -m llama_cpp.server` runs it, with its models loaded as Hearth loads
# its own: a build with llama.cpp's AMX kernels crashes at the first evaluation on some CPUs
# (models/llm_local.py no_amx_repacking), on this machine among them.
SERVE = ("import runpy, sys, llama_cpp; from models.llm_local import no_amx_repacking\n"
         "sys.argv[0] = 'llama_cpp.server'\n"
         "with no_amx_repacking(llama_cpp): runpy.run_module('llama_cpp.server', run_name='__main__')")


@pytest.fixture(scope="module")
def model_server(test_config, tmp_path_factory):
    """The server's base URL, once it answers."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-c", SERVE, "--model",
                                 str(bundled.bundled_llm(test_config.cache_path)), "--host", "127.0.0.1",
                                 "--port", str(port), "--n_ctx", "4096", "--n_threads", "2"],
                                stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=2) as r:
                    if json.loads(r.read())["data"]:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"llama_cpp.server did not start (exit {proc.poll()}):\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)


def _two_utterances(speech_dir, tmp_path):
    """Two real recordings, 1.5 s apart: the second is heard after the first turn failed."""
    import numpy as np
    import soundfile as sf

    from audio.sources import read_audio_file

    silence = np.zeros(24_000, dtype=np.float32)
    two = np.concatenate([read_audio_file(speech_dir / "asr/cards-003.wav"), silence,
                          read_audio_file(speech_dir / "asr/cards-001.wav"), silence])
    sf.write(tmp_path / "two.wav", two, 16_000)
    return tmp_path / "two.wav"


class SentToServer(OpenAICompatChat):
    """The real client, keeping the messages it sent (to see the notes in the prompt)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[list[dict]] = []

    def stream(self, messages, *args, **kwargs):
        self.sent.append(messages)
        return super().stream(messages, *args, **kwargs)


def test_a_replay_streams_its_reply_from_the_server(model_server, speech_dir, engines, test_config, tmp_path):
    config = replace(test_config, llm_endpoint=model_server)
    remote = replace(engines, llm=load_llm(config))
    assert isinstance(remote.llm, OpenAICompatChat)
    result = replay_file(speech_dir / "asr/librivox-ss01-0880.wav", tmp_path, remote, config)
    (record,) = result.answered
    assert record.heard.lower().startswith("he was not") and record.reply.strip()
    first_token = [e for e in record.events if isinstance(e, ev.LlmFirstToken)]
    assert len(first_token) == 1 and first_token[0].t <= next(e.t for e in record.events if isinstance(e, ev.FirstAudio))
    assert len(result.reply_wavs) == 1


def test_the_persons_memory_notes_reach_the_servers_prompt(model_server, engines, test_config, tmp_path):
    config = replace(test_config, llm_endpoint=model_server, data_dir=str(tmp_path / "data"))
    client = SentToServer(model_server)
    remote = replace(engines, llm=client)
    store = open_memory_store(config, remote)
    try:
        told = OneMemory(session_memory(store, config, remote, "Dana"))
        replay_file(synthesize_user(engines.tts, ("My dog Biscuit hurt his paw on a walk this morning.",),
                                    tmp_path / "told.wav"), tmp_path / "told", remote, config, routing=told)
        told.end_session()
        asked = OneMemory(session_memory(store, config, remote, "Dana"))
        client.sent.clear()
        result = replay_file(synthesize_user(engines.tts, ("How is my dog doing?",), tmp_path / "asked.wav"),
                             tmp_path / "asked", remote, config, routing=asked)
        asked.end_session()
    finally:
        store.close()
    assert result.answered and result.answered[0].reply.strip()
    prompt = " ".join(m["content"] for m in client.sent[0])
    assert "biscuit" in prompt.lower(), prompt


def test_the_servers_answer_is_held_to_a_json_schema(model_server):
    """The cluster judge's schema (memory/clusters.py) reaches the server, whose answer is in it."""
    from memory import clusters as cl

    chat = OpenAICompatChat(model_server)
    messages = cl.judge_messages(["Asha", "Lisbon"], ["Have I booked the flights to Lisbon for Asha's wedding?"],
                                 ["Dana's sister Asha is getting married in June."])
    answer = chat.complete(messages, max_tokens=80, schema=cl.VERDICT_SCHEMA)
    assert cl.read_verdict(answer) is not None, answer
    assert list(json.loads(answer)) == list(cl.VERDICT_SCHEMA["properties"])  # in the schema's order


def test_a_server_that_refuses_leaves_each_turn_recorded_and_the_loop_listening(speech_dir, engines, test_config,
                                                                                 tmp_path, caplog):
    config = replace(test_config, llm_endpoint=f"http://127.0.0.1:{_free_port()}/v1")  # nothing listens there
    remote = replace(engines, llm=load_llm(config))
    with caplog.at_level("ERROR"):
        result = replay_file(_two_utterances(speech_dir, tmp_path), tmp_path / "out", remote, config)
    assert [r.heard.split()[0] for r in result.records] == ["7", "10"]  # both heard, the second after the first failed
    assert all(r.skipped == "failed: ModelError" and not r.reply for r in result.records)
    failures = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(failures) == 2 and all("unreachable" in m and "\n" not in m for m in failures), failures


def test_a_server_that_dies_mid_reply_fails_the_turn_with_one_line_and_the_loop_hears_on(speech_dir, engines,
                                                                                         test_config, tmp_path,
                                                                                         caplog):
    """Stands in for a server process killed mid-reply (tests/fakes.py): the one here streams three
    pieces and closes the connection, which a real one cannot be made to do at a set word."""
    from fakes import ScriptedServer

    server = ScriptedServer("That is a fine question and I will answer it in full.", dies_after=3)
    failures = _failed_replies_from(server, {}, speech_dir, engines, test_config, tmp_path, caplog)
    assert len(failures) == 2 and all("stopped mid-reply" in m and "\n" not in m for m in failures), failures


def _failed_replies_from(server, settings: dict, speech_dir, engines, test_config, tmp_path, caplog) -> list[str]:
    """Two utterances replayed with the scripted server as the model: both heard, neither answered
    (no fragment said); the error lines logged."""
    try:
        config = replace(test_config, llm_endpoint=server.url, **settings)
        remote = replace(engines, llm=load_llm(config))
        with caplog.at_level("ERROR"):
            result = replay_file(_two_utterances(speech_dir, tmp_path), tmp_path / "out", remote, config)
    finally:
        server.close()
    assert [r.heard.split()[0] for r in result.records] == ["7", "10"]
    assert all(r.skipped == "failed: ModelError" and not r.reply for r in result.records)  # no fragment said
    return [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]


def test_a_server_that_stalls_mid_reply_fails_the_turn_after_the_timeout_and_the_loop_hears_on(
        speech_dir, engines, test_config, tmp_path, caplog):
    """A server that stops sending without closing (overloaded, or its machine asleep) is waited on
    for llm_endpoint_timeout_s, not for ever; the scripted server stands in, as above."""
    from fakes import ScriptedServer

    server = ScriptedServer("That is a fine question and I will answer it in full.", stalls_after=3)
    failures = _failed_replies_from(server, {"llm_endpoint_timeout_s": 1.0}, speech_dir, engines, test_config,
                                    tmp_path, caplog)
    assert len(failures) == 2 and all("stalled mid-reply: nothing for 1 s" in m for m in failures), failures


def test_a_server_that_never_answers_is_given_up_on_after_the_timeout():
    """A port that takes the connection and never answers (a server hung before its first word)."""
    from models import ModelError

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()  # the connection is taken by the system, never answered
        port = listening.getsockname()[1]
        chat = OpenAICompatChat(f"http://127.0.0.1:{port}/v1", timeout=1.0)
        with pytest.raises(ModelError, match="did not answer within 1 s"):
            "".join(chat.stream([{"role": "user", "content": "hello"}]))
