"""Stand-ins behind the engines' interfaces, for tests that need one engine to behave exactly so.

Each says why it exists where it is used; the other engines in those tests stay real.
"""

from __future__ import annotations


class ScriptedChat:
    """A language model (models.llm.ChatModel) that always replies with the same words, a word per
    piece: for a test of what happens around a reply of a known length, not of what it says."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.name = "scripted"
        self.last_prompt_tokens = (0, 0)

    def stream(self, messages, max_tokens=160, temperature=0.0, avoid=""):
        words = self.reply.split(" ")
        for n, word in enumerate(words):
            yield word if n == 0 else " " + word

    def complete(self, messages, max_tokens=160, temperature=0.0) -> str:
        return self.reply

    def prefill(self, messages, stop=None) -> bool:
        return True


class ScriptedServer:
    """An OpenAI-compatible chat server on a loopback port that streams ScriptedChat's words, for a
    test that runs Hearth as its own process (llm_endpoint = server.url) and needs a reply of a
    known length. It answers chat completions only; it reaches nothing itself."""

    def __init__(self, reply: str, seconds_per_word: float = 0.03) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        chat = ScriptedChat(reply)

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                import json
                import time

                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if not body.get("stream"):
                    self._send(json.dumps({"choices": [{"message": {"content": chat.reply}}]}).encode())
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
