"""A real sound stack for the live tests: a PulseAudio server with virtual devices, in a temporary folder.

Devices, as a desk with speakers has them:

- ``speaker``: a null sink, where Hearth plays; ``speaker.monitor`` is what it played.
- ``person``: a pipe source fed from a FIFO, the person's voice (written at real-time pace: a pipe
  source plays what it is given as fast as it is given).
- ``room``: a null sink where the room mixes what reaches the microphone: the person through one
  ``module-loopback`` and the speaker through another, attenuated and delayed as a room would.
- ``room.monitor``: the microphone Hearth listens to (the server's default source; ``speaker`` is its
  default sink), through PortAudio's ALSA ``pulse`` device.

Everything lives under the folder given (the server's socket, its runtime and state folders, the
FIFO), so nothing touches the user's own sound server. The server runs in the foreground as a child
of the test and is stopped by its process id.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import numpy as np

PERSON_RATE = 16_000
CHUNK_SECONDS = 0.02


def missing() -> str | None:
    """Why the stack cannot run here (a system package not installed), or None."""
    for tool, package in (("pulseaudio", "pulseaudio"), ("pactl", "pulseaudio-utils"), ("parecord", "pulseaudio-utils")):
        if shutil.which(tool) is None:
            return f"{tool} not found (apt-get install {package}; .ci/run installs it)"
    if ctypes.util.find_library("portaudio") is None:
        return "PortAudio not found (apt-get install libportaudio2; .ci/run installs it)"
    return None


class SoundStack:
    def __init__(self, folder: Path, echo_volume: str = "50%", echo_latency_ms: int = 40) -> None:
        self.folder = Path(folder)
        self.echo_volume = echo_volume
        self.echo_latency_ms = echo_latency_ms
        self.runtime = self.folder / "runtime"
        self.socket = self.runtime / "native"
        self.fifo = self.folder / "person.fifo"
        self.log = self.folder / "pulseaudio.log"
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(self.runtime), PULSE_RUNTIME_PATH=str(self.runtime),
                        PULSE_STATE_PATH=str(self.folder / "state"), PULSE_SERVER=f"unix:{self.socket}",
                        HOME=str(self.folder), XDG_CONFIG_HOME=str(self.folder / "config"))
        for name in ("PULSE_SINK", "PULSE_SOURCE", "PULSE_COOKIE"):
            self.env.pop(name, None)
        self._server: subprocess.Popen | None = None
        self._recorders: list[subprocess.Popen] = []

    # -- the server ------------------------------------------------------------------------------
    def pactl(self, *args: str) -> str:
        done = subprocess.run(["pactl", *args], env=self.env, capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            raise RuntimeError(f"pactl {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def start(self) -> None:
        self.runtime.mkdir(parents=True, exist_ok=True)
        self.runtime.chmod(0o700)
        self._server = subprocess.Popen(
            ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "-n", "--disallow-exit",
             "--use-pid-file=no", "--system=no", "--log-target=file:" + str(self.log),
             f"--load=module-native-protocol-unix socket={self.socket} auth-anonymous=1"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while True:
            if self._server.poll() is not None:
                raise RuntimeError(f"pulseaudio exited with {self._server.returncode}: {self._log_tail()}")
            if self.socket.exists() and subprocess.run(["pactl", "info"], env=self.env, capture_output=True,
                                                       timeout=10).returncode == 0:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"pulseaudio did not answer within 15 s: {self._log_tail()}")
            time.sleep(0.1)
        modules = [self.pactl(*args) for args in self.module_commands()]
        self._set_echo_volume(echo_module=modules[4])

    def module_commands(self) -> list[tuple[str, ...]]:
        """The pactl commands that build the devices (also what the README shows)."""
        return [
            ("load-module", "module-null-sink", "sink_name=speaker", "format=float32le", "rate=48000", "channels=1"),
            ("load-module", "module-null-sink", "sink_name=room", "format=float32le", "rate=48000", "channels=1"),
            ("load-module", "module-pipe-source", "source_name=person", f"file={self.fifo}", "format=s16le",
             f"rate={PERSON_RATE}", "channels=1"),
            ("load-module", "module-loopback", "source=person", "sink=room", "latency_msec=20",
             "source_dont_move=true", "sink_dont_move=true"),
            ("load-module", "module-loopback", "source=speaker.monitor", "sink=room",
             f"latency_msec={self.echo_latency_ms}", "source_dont_move=true", "sink_dont_move=true"),
            ("set-default-sink", "speaker"),
            ("set-default-source", "room.monitor"),
        ]

    def _set_echo_volume(self, echo_module: str) -> None:
        """The speaker's way into the microphone is as loud as a room makes it (pactl's cubic percent)."""
        for sink_input in json.loads(self.pactl("--format=json", "list", "sink-inputs")):
            if str(sink_input.get("owner_module")) == echo_module:
                self.pactl("set-sink-input-volume", str(sink_input["index"]), self.echo_volume)
                return
        raise RuntimeError(f"the loopback from speaker.monitor into the room (module {echo_module}) was not found")

    def _log_tail(self) -> str:
        try:
            return " | ".join(self.log.read_text(errors="replace").strip().splitlines()[-5:])
        except OSError:
            return "(no log)"

    def record(self, device: str, path: Path) -> subprocess.Popen:
        """Record a device to a raw float32 16 kHz mono file until stop()."""
        recorder = subprocess.Popen(
            ["parecord", f"--device={device}", "--raw", "--format=float32le", f"--rate={PERSON_RATE}",
             "--channels=1", "--latency-msec=20", str(path)],
            env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._recorders.append(recorder)
        return recorder

    def stop(self) -> None:
        for recorder in self._recorders:
            if recorder.poll() is None:
                recorder.terminate()
                try:
                    recorder.wait(5)
                except subprocess.TimeoutExpired:
                    recorder.kill()
        if self._server is not None and self._server.poll() is None:
            self._server.terminate()
            try:
                self._server.wait(10)
            except subprocess.TimeoutExpired:
                self._server.kill()
                self._server.wait(5)


class PersonVoice:
    """Writes the person's voice into the pipe source at real-time pace, silence in between.

    say() queues samples (16 kHz mono float) and returns at once; the writer thread records the
    monotonic time each utterance began and finished reaching the pipe."""

    def __init__(self, fifo: Path) -> None:
        self._fd = os.open(fifo, os.O_WRONLY)
        self._lock = threading.Lock()
        self._pending: list[tuple[np.ndarray, dict]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="person-voice", daemon=True)
        self._thread.start()

    def say(self, samples: np.ndarray) -> dict:
        """Queue an utterance; the returned dict gets 'start' and 'end' (time.monotonic()) as it is written."""
        timing: dict = {}
        with self._lock:
            self._pending.append((np.asarray(samples, dtype=np.float32), timing))
        return timing

    def _run(self) -> None:
        chunk = int(PERSON_RATE * CHUNK_SECONDS)
        silence = np.zeros(chunk, dtype="<i2").tobytes()
        current: tuple[np.ndarray, dict] | None = None
        position = 0
        next_write = time.monotonic()
        while not self._stop.is_set():
            if current is None:
                with self._lock:
                    if self._pending:
                        current, position = self._pending.pop(0), 0
            if current is not None:
                samples, timing = current
                piece = samples[position:position + chunk]
                if position == 0:
                    timing["start"] = max(time.monotonic(), next_write)
                position += chunk
                data = (np.clip(piece, -1, 1) * 32767).astype("<i2").tobytes().ljust(len(silence), b"\0")
                if position >= len(samples):
                    timing["end"] = timing["start"] + len(samples) / PERSON_RATE
                    current = None
            else:
                data = silence
            delay = next_write - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            elif delay < -0.5:  # fell far behind (the machine stalled): carry on from now
                next_write = time.monotonic()
            os.write(self._fd, data)
            next_write += CHUNK_SECONDS

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        os.close(self._fd)
