"""People and voiceprints as the store's rows hold them: checked and decoded for the speaker book.

Pure: a damaged row or a bad name is a `SpeakerBookError` with one line that says which and why;
memory/speakers.py decides who is speaking from what these give it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from audio.voiceprint import VOICE_DIM, VoiceprintError, check_embedding

from .errors import MemoryStoreError

MAX_NAME = 60


class SpeakerBookError(MemoryStoreError, ValueError):
    """A bad voiceprint (wrong length, non-finite, damaged row) or a people operation that cannot be done."""


@dataclass(frozen=True)
class PersonSummary:
    id: int
    name: str
    provisional: bool
    voiceprints: int
    turns: int
    memories: int
    created: str


def valid_embedding(vector, what: str) -> np.ndarray:
    try:
        return check_embedding(vector, what)
    except VoiceprintError as exc:
        raise SpeakerBookError(str(exc)) from None


def clean_name(name: str) -> str:
    text = " ".join(str(name).split())
    if not text:
        raise SpeakerBookError("a person's name cannot be empty")
    if len(text) > MAX_NAME:
        raise SpeakerBookError(f"a person's name is at most {MAX_NAME} characters")
    return text


def decode_voiceprints(rows) -> dict[int, tuple[list[int], np.ndarray]]:
    """(voiceprint id, person id, vector blob) rows → person → (voiceprint ids, unit-length matrix)."""
    by_person: dict[int, tuple[list[int], list[np.ndarray]]] = {}
    for vid, pid, blob in rows:
        if blob is None:
            raise SpeakerBookError(f"voiceprint {vid} of person {pid} has no vector in the memory store")
        if not isinstance(blob, (bytes, bytearray, memoryview)) or len(blob) != 4 * VOICE_DIM:
            size = len(blob) if isinstance(blob, (bytes, bytearray, memoryview)) else type(blob).__name__
            raise SpeakerBookError(f"voiceprint {vid} of person {pid} is damaged: {size} bytes, "
                                   f"expected {4 * VOICE_DIM}")
        vec = np.frombuffer(bytes(blob), dtype=np.float32)
        if not np.all(np.isfinite(vec)) or not np.any(vec):
            raise SpeakerBookError(f"voiceprint {vid} of person {pid} is damaged: "
                                   "it holds non-finite values or only zeros")
        ids, vecs = by_person.setdefault(int(pid), ([], []))
        ids.append(int(vid))
        vecs.append(vec / np.linalg.norm(vec))
    return {p: (ids, np.vstack(vecs)) for p, (ids, vecs) in by_person.items()}
