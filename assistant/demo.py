"""The scripted demo: a short conversation through the full loop, with no microphone or speakers.

The user's side is synthesized with the bundled Piper voice, faster and higher-pitched than
Hearth's own so the two are easy to tell apart, written to a wav, and replayed like any recording.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf

from audio.convert import resample
from models.tts import PiperSynthesizer

from .config import Config
from .engines import Engines
from .replay import ReplayResult, replay_file

SCRIPT = (
    "Hi Hearth, my name is Dana and I just got back from a long walk with my dog Biscuit.",
    "What is a good way to relax after a busy week?",
    "Thanks. Can you remind me what my dog is called?",
)
USER_SPEED = 1.1  # the user speaks a little faster than Hearth…
USER_PITCH = 1.12  # …and higher: the samples are played back 12% faster than they were made
PAUSE_SECONDS = 1.5


def synthesize_user(tts: PiperSynthesizer, lines: tuple[str, ...], path: Path) -> Path:
    """Write the user's scripted lines, pitch-shifted and separated by silence, as a 16 kHz wav."""
    rate = 16_000
    pieces = [np.zeros(int(0.5 * rate), dtype=np.float32)]
    for line in lines:
        voice = tts.synthesize(line, speed=USER_SPEED / USER_PITCH)
        shifted = resample(voice, int(tts.sample_rate * USER_PITCH), rate)  # same samples, read faster
        pieces += [0.8 * shifted, np.zeros(int(PAUSE_SECONDS * rate), dtype=np.float32)]
    sf.write(str(path), np.concatenate(pieces), rate, subtype="PCM_16")
    return path


def run_demo(engines: Engines, config: Config, out_dir: Path) -> ReplayResult:
    out_dir.mkdir(parents=True, exist_ok=True)
    user_wav = synthesize_user(engines.tts, SCRIPT, out_dir / "demo-user.wav")
    return replay_file(user_wav, out_dir / "conversation", engines, config)
