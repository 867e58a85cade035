"""Hearth's own voice as a real sound stack carried it back, recorded: the echo decision on it.

tests/data/room-echo-replayed-late.flac is 2.7 s recorded inside Hearth during the live test
(tests/test_live_sound.py: PulseAudio, the speaker looped back into the microphone at 60%, -13 dB):
channel 1 is the microphone as Hearth read it, channel 2 what Hearth played, placed on the
microphone's timeline by its echo reference. A reply starts 0.4 s in. 1.4 s into it the stack
carried a piece of the reply played about a second before: for 250 ms the microphone matches the
played audio of 1.04 s earlier (correlation 0.7) and hardly the audio at the echo's own lag, so no
canceller fed the played samples can remove it, and for 8 frames in a row the cleaned signal held
most of the microphone's energy, as a person's voice does. With 3 such frames enough, that stopped
the reply: the live test's echo turns.

The real canceller (audio/aec.py), echo monitor and VAD judge every frame, as the loop does.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest

from audio import FRAME_SAMPLES, SAMPLE_RATE
from audio.aec import PairedCanceller
from audio.echo import EchoMonitor
from audio.echo_decision import ONSET_FRAMES, person_confirmed, person_run
from audio.sources import Frame, read_audio_file
from audio.vad import SileroVad

RECORDING = Path(__file__).parent / "data" / "room-echo-replayed-late.flac"
REPLY_START_S = 0.4


class RecordedReference:
    """What Hearth played, as its echo reference had placed it on the input timeline."""

    last_played = 0.0  # something was played: the canceller runs

    def __init__(self, played: np.ndarray) -> None:
        self.played = played

    def anchor(self, position: int) -> None:
        pass

    def span(self, start: int, n: int) -> np.ndarray:
        out = np.zeros(n, dtype=np.float32)
        piece = self.played[start:start + n]
        out[:len(piece)] = piece
        return out


def confirmed_at(mic: np.ndarray, played: np.ndarray) -> float | None:
    """When (seconds into the recording) the decision first confirmed a person talking over Hearth."""
    monitor = EchoMonitor(RecordedReference(played), PairedCanceller())
    vad = SileroVad()
    recent: deque = deque(maxlen=ONSET_FRAMES)
    run = 0
    for index in range(len(mic) // FRAME_SAMPLES):
        frame = Frame(mic[index * FRAME_SAMPLES:(index + 1) * FRAME_SAMPLES].copy(), index, 0.0)
        cleaned = monitor.clean(frame)
        voiced = vad.is_speech(cleaned.samples)
        recent.append(monitor.levels)
        run = person_run(run, recent, voiced, monitor.echo_possible)
        if person_confirmed(run):
            return (index + 1) * FRAME_SAMPLES / SAMPLE_RATE
        monitor.learn(voiced)
    return None


@pytest.fixture(scope="module")
def recording() -> tuple[np.ndarray, np.ndarray]:
    import soundfile as sf

    data, rate = sf.read(str(RECORDING), dtype="float32")
    assert rate == SAMPLE_RATE
    return np.ascontiguousarray(data[:, 0]), np.ascontiguousarray(data[:, 1])


def test_a_piece_of_the_reply_the_stack_carried_back_late_is_not_a_person(recording):
    mic, played = recording
    at = confirmed_at(mic, played)
    assert at is None, f"Hearth's own voice, carried back late, was taken for a person {at:.2f} s in"


def test_a_person_talking_over_the_same_reply_is_still_heard(recording, speech_dir):
    """The control: a real recording of a person said over the reply, from 1.0 s into it, as loud as
    the person in the live test (8 dB above Hearth's echo), is confirmed while they talk."""
    mic, played = recording
    person = read_audio_file(speech_dir / "asr/1272-128104-0000.wav")
    start = int((REPLY_START_S + 1.0) * SAMPLE_RATE)
    echo_level = np.sqrt(np.mean(mic[int(REPLY_START_S * SAMPLE_RATE):].astype(np.float64) ** 2))
    voiced = person[np.abs(person) > 0.01]
    person = person * (echo_level * 10 ** (8 / 20) / np.sqrt(np.mean(voiced.astype(np.float64) ** 2)))
    talked_over = mic.copy()
    n = min(len(person), len(mic) - start)
    talked_over[start:start + n] += person[:n].astype(np.float32)
    at = confirmed_at(talked_over, played)
    assert at is not None and at > start / SAMPLE_RATE, f"the person talking over the reply was confirmed at {at}"
