"""Stand-ins behind the engines' interfaces, for tests that need one engine to behave exactly so.

Each says why it exists where it is used; the other engines in those tests stay real, except in
tests/test_reply_lifecycle.py, which tests the reply job's lifecycle and its races with every
engine a stand-in, so that each race is set up exactly and runs in milliseconds (the real engines
run the same paths in the replay tests).
"""

from __future__ import annotations

import threading
from contextlib import nullcontext

import numpy as np


class ScriptedChat:
    """A language model (models.llm.ChatModel) that replies with the given replies in turn (the first
    again after the last), a word per piece: for a test of what happens around replies of a known
    length, not of what they say. (Hearth leaves out a sentence it has already said, so a test that
    needs every reply long gives each its own words.)"""

    def __init__(self, *replies: str) -> None:
        self.replies = replies
        self._turn = 0
        self.name = "scripted"
        self.last_prompt_tokens = (0, 0)
        self.cut_at_limit = False

    def _next(self) -> str:
        reply = self.replies[self._turn % len(self.replies)]
        self._turn += 1
        return reply

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid="", never_open_with=()):
        words = self._next().split(" ")  # a word a token: a reply longer than max_tokens is cut there
        self.cut_at_limit = False
        for n, word in enumerate(words[:max_tokens]):
            yield word if n == 0 else " " + word
        self.cut_at_limit = len(words) > max_tokens  # known when the stream ends, as from llama.cpp

    def complete(self, messages, max_tokens=160, temperature=0.0) -> str:
        return self.replies[0]  # (a memory update, say: the spoken replies keep their turn)

    def prefill(self, messages, stop=None) -> bool:
        return True

    def cache_kept(self):
        return nullcontext()


class ScriptedServer:
    """An OpenAI-compatible chat server on a loopback port that streams ScriptedChat's words, for a
    test that runs Hearth as its own process (llm_endpoint = server.url) and needs a reply of a
    known length. It answers chat completions only; it reaches nothing itself."""

    def __init__(self, *replies: str, seconds_per_word: float = 0.03, dies_after: int | None = None,
                 stalls_after: int | None = None) -> None:
        """dies_after: the server goes away after this many pieces of a streamed reply; stalls_after:
        it sends nothing more after this many, until it is closed."""
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        chat = ScriptedChat(*replies)
        closing = self._closing = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                import json
                import time

                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if not body.get("stream"):
                    self._send(json.dumps({"choices": [{"message": {"content": chat.complete([])}}]}).encode())
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for n, piece in enumerate(chat.stream(body.get("messages", []))):
                    if n == dies_after:
                        self.close_connection = True
                        return
                    if n == stalls_after:
                        closing.wait()
                        return
                    chunk = {"choices": [{"delta": {"content": piece}}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                    time.sleep(seconds_per_word)
                self.wfile.write(b"data: [DONE]\n\n")

            def _send(self, data: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closing.set()
        self._http.shutdown()
        self._http.server_close()


class GatedChat(ScriptedChat):
    """ScriptedChat whose words come only as the test lets them (allow(n) more words; open() all):
    a race between a reply and the person (a barge-in before any audio, a release after the reply
    was made) is then set up by the order of the test's steps, not by timing."""

    def __init__(self, *replies: str) -> None:
        super().__init__(*replies)
        self._words = threading.Semaphore(0)
        self.waiting = threading.Event()  # set while a word is wanted and not yet let through
        self.finished = threading.Event()  # set once a reply's last word went out

    def allow(self, words: int = 1) -> None:
        for _ in range(words):
            self._words.release()

    def open(self) -> None:
        self.allow(10_000)

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid="", never_open_with=()):
        for piece in super().stream(messages, max_tokens, temperature, avoid):
            self.waiting.set()
            self._words.acquire()
            self.waiting.clear()
            yield piece
        self.finished.set()


class ScriptedAsr:
    """Speech recognition (models.asr.WhisperTranscriber's interface) that hears the given
    transcripts in turn and keeps the audio of each call: for tests of which utterance a reply job
    answers, not of recognising it. No partial transcripts."""

    def __init__(self, *transcripts: str) -> None:
        self.transcripts = transcripts
        self.heard: list[np.ndarray] = []
        self.name = "scripted"

    def transcribe(self, audio: np.ndarray) -> str:
        self.heard.append(audio)
        return self.transcripts[(len(self.heard) - 1) % len(self.transcripts)]

    def transcribe_partial(self, audio: np.ndarray, wanted=lambda: True) -> str | None:
        return None


class LoudnessVad:
    """Voice activity (audio.vad.SileroVad's interface) that calls any frame louder than -50 dBFS
    speech: for a test of what the loop does with a turn's shape, made of plain loud and quiet
    stretches, not of telling voice from noise."""

    def reset(self) -> None:
        pass

    def probability(self, frame: np.ndarray) -> float:
        return 1.0 if float(np.sqrt(np.mean(np.square(frame)))) > 10 ** (-50 / 20) else 0.0


class ToneTts:
    """Speech synthesis (models.tts.PiperSynthesizer's interface) that says each sentence as a tone,
    0.1 s a word: the reply's length follows its words, at no cost."""

    sample_rate = 16_000
    name = "tones"

    def stream(self, text: str, speed: float = 1.0):
        seconds = 0.1 * len(text.split())
        t = np.arange(int(seconds * self.sample_rate)) / self.sample_rate
        yield (0.1 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)


class HeldSink:
    """Speakers (audio.sinks.AudioSink) that take each chunk at once and hold finish_reply() until
    the test says the reply was heard (heard_all) or it is stopped: a barge-in then falls while the
    reply plays, by the order of the test's steps."""

    def __init__(self) -> None:
        self.played: dict[int, list[np.ndarray]] = {}
        self._turn = 0
        self._done = threading.Event()
        self.finishing = threading.Event()  # set once a reply waits to be heard
        self.underruns = 0  # a test sets it to make the speaker run dry
        self.paused: list[bool] = []  # each pause() call, in order

    def start_reply(self, turn_id: int) -> None:
        self._turn = turn_id
        self._done.clear()
        self.played.setdefault(turn_id, [])

    def play(self, samples: np.ndarray, rate: int) -> None:
        self.played[self._turn].append(samples)

    def finish_reply(self) -> None:
        self.finishing.set()
        self._done.wait()
        self.finishing.clear()

    def heard_all(self) -> None:
        self._done.set()

    def stop(self) -> float:
        self._done.set()
        return sum(len(c) for c in self.played.get(self._turn, [])) / ToneTts.sample_rate

    def pause(self, on: bool) -> None:
        self.paused.append(on)

    @property
    def playing(self) -> bool:
        return self.finishing.is_set()

    def close(self) -> None:
        self._done.set()


class SlowStartSink(HeldSink):
    """A HeldSink whose start_reply() waits until the test lets it go on (`starting` is set while it
    waits): a device slow to start, with the first of a reply's audio not yet handed to it."""

    def __init__(self) -> None:
        super().__init__()
        self.starting = threading.Event()
        self.go_on = threading.Event()

    def start_reply(self, turn_id: int) -> None:
        self.starting.set()
        self.go_on.wait()
        super().start_reply(turn_id)
