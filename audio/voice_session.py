"""Evidence over a session: a voice recognised with confidence keeps its identity while it stays
the same voice, and a clearly different voice ends that at once.

At a desk a person says a few words at a time, and a 2 s utterance scores lower against their
voiceprints than a whole sentence does (on the shared speakers' 2-4 s pieces, 2 of 42 fell just
under the threshold). Such an utterance is still theirs when it sounds like what they said a
moment ago in this session; a stranger's does not. Pure: the session is a value, each function
returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Hashable

import numpy as np

from audio.voiceprint import DEFAULT_MARGIN, DEFAULT_THRESHOLD, Identification, cosine

SAME_VOICE = 0.80   # an utterance this close to the session's voice is the same speaker still
CARRY_SLACK = 0.05  # ... and is taken for them if it misses the threshold by no more than this
# An utterance under SHORT_SECONDS ("When is my talk?", 1.4 s) scores lower against everyone: on the
# shared speakers' 1-1.5 s pieces the genuine median is 0.77 against their voiceprints (0.79 against
# their session's voice), and no stranger whose best guess was the session's person passed 0.69 on
# either. Within a session such an utterance is theirs from these bars.
SHORT_SECONDS = 2.0
SHORT_SLACK = 0.07
SHORT_SAME_VOICE = 0.70


@dataclass(frozen=True)
class SessionVoice:
    """Whose voice this session has been, by the utterances recognised with confidence."""
    person: Hashable | None = None
    voice: np.ndarray | None = None  # the mean of those utterances' embeddings, unit length
    heard: int = 0  # how many there were


NOBODY = SessionVoice()


def with_session(ident: Identification, embedding: np.ndarray, session: SessionVoice,
                 threshold: float = DEFAULT_THRESHOLD, margin: float = DEFAULT_MARGIN,
                 seconds: float | None = None) -> Identification:
    """The identification with the session's evidence: an utterance whose best guess is the
    session's person, a little under the threshold but still clearly ahead of the runner-up, is
    theirs when it sounds like the session's voice; "a little" and "sounds like" allow more for an
    utterance `seconds` long under SHORT_SECONDS. Anything else is left as it was."""
    if ident.known or session.person is None or ident.candidate != session.person:
        return ident
    short = seconds is not None and seconds < SHORT_SECONDS
    slack, same_voice = (SHORT_SLACK, SHORT_SAME_VOICE) if short else (CARRY_SLACK, SAME_VOICE)
    if ident.score < threshold - slack or ident.gap < margin:
        return ident
    if cosine(embedding, session.voice) < same_voice:
        return ident
    return replace(ident, person=session.person)


def after_turn(session: SessionVoice, ident: Identification, embedding: np.ndarray,
               threshold: float = DEFAULT_THRESHOLD) -> SessionVoice:
    """The session after an answered utterance. One recognised on its own merits (at or over the
    threshold) joins the session's voice, or starts a new session voice for another person; one
    carried by the session leaves it as it is; a different voice that nobody claims ends it."""
    v = np.asarray(embedding, dtype=np.float32).reshape(-1)
    v = v / (np.linalg.norm(v) or 1.0)
    if ident.known and ident.score >= threshold:
        if ident.person != session.person or session.voice is None:
            return SessionVoice(ident.person, v, 1)
        mean = session.voice * session.heard + v
        return SessionVoice(session.person, mean / (np.linalg.norm(mean) or 1.0), session.heard + 1)
    if ident.known and ident.person == session.person:
        return session
    if session.voice is not None and cosine(v, session.voice) < SAME_VOICE:
        return NOBODY
    return session
