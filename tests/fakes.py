"""Stand-ins behind the engines' interfaces, for tests that need one engine to behave exactly so.

Each says why it exists where it is used; the other engines in those tests stay real.
"""

from __future__ import annotations


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

    def _next(self) -> str:
        reply = self.replies[self._turn % len(self.replies)]
        self._turn += 1
        return reply

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid=""):
        for n, word in enumerate(self._next().split(" ")):
            yield word if n == 0 else " " + word

    def complete(self, messages, max_tokens=160, temperature=0.0) -> str:
        return self.replies[0]  # (a memory update, say: the spoken replies keep their turn)

    def prefill(self, messages, stop=None) -> bool:
        return True


class ScriptedServer:
    """An OpenAI-compatible chat server on a loopback port that streams ScriptedChat's words, for a
    test that runs Hearth as its own process (llm_endpoint = server.url) and needs a reply of a
    known length. It answers chat completions only; it reaches nothing itself."""

    def __init__(self, *replies: str, seconds_per_word: float = 0.03) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        chat = ScriptedChat(*replies)

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
                for piece in chat.stream(body.get("messages", [])):
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
        self._http.shutdown()
        self._http.server_close()
