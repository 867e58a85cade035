"""How something was said, from the utterance's audio: loudness, pitch, speaking rate, pauses and
the room's level between words; and how that departs from the person's usual. Pure (numpy, and
librosa's pYIN for pitch); computed by the memory writer after the turn, never on the reply's path.

The speech frames are the loud ones: within SPEECH_RANGE_DB of the utterance's loudest (a room's
noise sits further below a voice than that, and a person's quietest syllables nearer). The
speaking time runs from the first speech frame to the last; what in it is not speech is pause.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import median
from typing import Sequence

import numpy as np

from . import SAMPLE_RATE

FRAME_S = 0.02
SPEECH_RANGE_DB = 25.0  # frames this close to the loudest (its 95th percentile) are speech
PAUSE_MIN_S = 0.1  # a gap in speech shorter than this is between two syllables, not a pause
FMIN_HZ, FMAX_HZ = 65.0, 400.0  # the pitch of speaking voices, men's to children's
SILENT_DB = -90.0
USUAL_AFTER = 3  # turns before a person's usual means something
# what counts as a clear departure from a person's usual, per cue
CLEAR = {"loudness_db": 6.0, "pitch_st": 2.0, "rate": 0.25, "pause_share": 0.15}


@dataclass(frozen=True)
class VoiceCues:
    loudness_dbfs: float  # the speech frames' level
    pitch_hz: float | None  # median fundamental frequency of the voiced frames (None: none voiced)
    pitch_range_st: float | None  # from the 10th to the 90th percentile, in semitones
    rate_wps: float  # words per second of speaking time
    pause_share: float  # of the speaking time, the share in pauses
    background_dbfs: float  # the level between words (SILENT_DB where there was none)

    def as_dict(self) -> dict:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, d: dict) -> "VoiceCues":
        return cls(**{k: d.get(k) for k in cls.__dataclass_fields__})


def _db(power: np.ndarray | float) -> np.ndarray | float:
    return 10.0 * np.log10(np.maximum(power, 1e-12))


def voice_cues(audio16k: np.ndarray, words: int) -> VoiceCues | None:
    """The cues of one utterance (16 kHz mono float32) of `words` words; None if there is no speech."""
    audio = np.asarray(audio16k, dtype=np.float32).reshape(-1)
    hop = int(FRAME_S * SAMPLE_RATE)
    if len(audio) < 5 * hop:
        return None
    frames = audio[: len(audio) // hop * hop].reshape(-1, hop).astype(np.float64)
    level = _db(np.mean(frames**2, axis=1))
    loud = np.percentile(level, 95)
    if loud <= SILENT_DB:
        return None
    speech = level >= loud - SPEECH_RANGE_DB
    first, last = np.flatnonzero(speech)[[0, -1]]
    span = speech[first:last + 1]
    paused = _pause_frames(span)
    speaking_s = len(span) * FRAME_S
    quiet = level[~speech]
    pitch, pitch_range = _pitch(audio)
    return VoiceCues(
        loudness_dbfs=float(_db(np.mean(frames[speech] ** 2))),
        pitch_hz=pitch, pitch_range_st=pitch_range,
        rate_wps=float(words / speaking_s) if speaking_s > 0 else 0.0,
        pause_share=float(paused / len(span)),
        background_dbfs=float(np.median(quiet)) if len(quiet) else SILENT_DB)


def _pause_frames(span: np.ndarray) -> int:
    """Frames in runs of non-speech at least PAUSE_MIN_S long, inside the speaking time."""
    shortest = math.ceil(PAUSE_MIN_S / FRAME_S)
    total = run = 0
    for is_speech in span:
        if is_speech:
            total += run if run >= shortest else 0
            run = 0
        else:
            run += 1
    return total


def _pitch(audio: np.ndarray) -> tuple[float | None, float | None]:
    import librosa

    # (about 70 ms of one core a second of audio here; coarser steps or fewer thresholds, tried for
    # speed, mistook octaves on the shared recordings)
    f0, voiced, _ = librosa.pyin(audio, fmin=FMIN_HZ, fmax=FMAX_HZ, sr=SAMPLE_RATE, frame_length=1024,
                                 hop_length=160)
    f0 = f0[voiced & np.isfinite(f0)]
    if len(f0) < 3:
        return None, None
    low, high = np.percentile(f0, [10, 90])
    return float(np.median(f0)), float(12 * np.log2(high / low))


def usual(history: Sequence[VoiceCues]) -> VoiceCues | None:
    """A person's usual voice: the median of each cue over their turns so far (None before USUAL_AFTER)."""
    if len(history) < USUAL_AFTER:
        return None

    def mid(values):
        values = [v for v in values if v is not None]
        return float(median(values)) if values else None

    return VoiceCues(**{name: mid(getattr(c, name) for c in history) for name in VoiceCues.__dataclass_fields__})


def departures(cues: VoiceCues, usual_cues: VoiceCues) -> dict[str, float]:
    """How this turn's voice differs from the person's usual: loudness in dB, pitch in semitones,
    rate as a fraction (+0.3: 30% faster), pause share in points; only the clear ones (CLEAR)."""
    found = {"loudness_db": cues.loudness_dbfs - usual_cues.loudness_dbfs,
             "rate": cues.rate_wps / usual_cues.rate_wps - 1 if usual_cues.rate_wps else 0.0,
             "pause_share": cues.pause_share - usual_cues.pause_share}
    if cues.pitch_hz and usual_cues.pitch_hz:
        found["pitch_st"] = 12 * math.log2(cues.pitch_hz / usual_cues.pitch_hz)
    return {name: round(value, 2) for name, value in found.items() if abs(value) >= CLEAR[name]}


_SAID = {"loudness_db": ("louder", "quieter"), "rate": ("faster", "slower"), "pitch_st": ("higher", "lower"),
         "pause_share": ("with more pauses", "with fewer pauses")}


def describe(found: dict[str, float]) -> str:
    """Departures in words: {"loudness_db": -8.1, "rate": -0.3} -> "quieter and slower than usual"."""
    words = [_SAID[name][0 if value > 0 else 1] for name, value in found.items() if name in _SAID]
    if not words:
        return ""
    return (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]) + " than usual"
