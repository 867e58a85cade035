"""Short utterances within one session, for benchmarks/speakers.py (JSON `speakers.session`).

Each enrolled speaker talks for a session: their utterances after the enrolment ones, each as its
2-4 s piece, in order, identified one after another as the loop would (every turn answered, so the
session's evidence is updated after each). Then a stranger speaks at once in that same session:
every impostor piece is tried against each speaker's session as it stood at its end, the worst
moment for a stranger to be taken for them. Both are scored with the session's evidence
(audio/voice_session.py) and by the voiceprints alone, so the two can be compared.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from audio.voice_session import NOBODY, after_turn, with_session
from audio.voiceprint import DEFAULT_MARGIN, DEFAULT_THRESHOLD, decide
from memory import open_store
from memory.speakers import SpeakerBook


def session_trials(speakers: dict, impostors: list, enrol: int, threshold: float = DEFAULT_THRESHOLD,
                   short: bool = False) -> dict:
    """`speakers`: name → clips (with `.whole`, `.piece` and `.short` embeddings and the pieces'
    seconds); `impostors`: clips. `short`: the 1-1.5 s pieces, not the 2-4 s ones."""

    def cut(clip):
        return (clip.short, clip.short_seconds) if short else (clip.piece, clip.piece_seconds)

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp), None)
        book = SpeakerBook(store, threshold=threshold)
        ids = {who: book.enrol(f"speaker {who}", [c.whole for c in clips[:enrol]]) for who, clips in speakers.items()}
        right = right_alone = trials = 0
        ends = []
        for who, clips in speakers.items():
            session = NOBODY
            for clip in clips[enrol:]:
                embedding, seconds = cut(clip)
                alone = decide(book.scores(embedding), threshold, DEFAULT_MARGIN)
                ident = with_session(alone, embedding, session, threshold, DEFAULT_MARGIN, seconds)
                trials += 1
                right += ident.person == ids[who]
                right_alone += alone.person == ids[who]
                session = after_turn(session, ident, embedding, threshold)
            ends.append(session)
        accepted = accepted_alone = tried = 0
        for session in ends:
            for clip in impostors:
                embedding, seconds = cut(clip)
                alone = decide(book.scores(embedding), threshold, DEFAULT_MARGIN)
                tried += 1
                accepted += with_session(alone, embedding, session, threshold, DEFAULT_MARGIN, seconds).known
                accepted_alone += alone.known
        store.close()
    return {"utterances": trials, "accuracy": right / max(1, trials), "accuracy_voiceprints_alone":
            right_alone / max(1, trials), "stranger_trials": tried, "impostor_accept": accepted / max(1, tried),
            "impostor_accept_voiceprints_alone": accepted_alone / max(1, tried)}


def print_sessions(s: dict, pieces: str = "2-4 s") -> None:
    print(f"\nwithin a session ({s['utterances']} short utterances of {pieces}, then each of {s['stranger_trials']} "
          f"stranger pieces right after a speaker's session):")
    print(f"  with the session's evidence: identified {s['accuracy']:.1%}, strangers accepted "
          f"{s['impostor_accept']:.2%}")
    print(f"  voiceprints alone:           identified {s['accuracy_voiceprints_alone']:.1%}, strangers accepted "
          f"{s['impostor_accept_voiceprints_alone']:.2%}")
