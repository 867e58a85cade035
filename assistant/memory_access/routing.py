"""What the turn loop needs from memory, in two parts: whose memory a turn uses (SpeakerRouting),
and that memory itself (TurnMemory). Every mode passes a SpeakerRouting: a Household where voices
are told apart (assistant/memory_access/household.py), OneMemory where every turn uses the same memory or none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np


class TurnMemory(Protocol):
    """One person's memory for a session: a block for the prompt, and a place for each turn."""

    @property
    def person_name(self) -> str | None:
        """The name to address the person by, if Hearth knows it."""

    def prepare(self, partial_text: str) -> None:
        """While the person speaks: gather candidates for what their words so far are about."""

    def recall(self, text: str, like: str = "") -> tuple[str, list[dict]]:
        """The notes block for the prompt, and the memories in it."""

    def last_words(self) -> str:
        """What the person said last, in any session ("" if nothing): the prompt is warmed with it."""

    def request_reply(self, text: str) -> str | None:
        """The answer, if the person asks about or changes their memory by voice (no model); acted
        on when begin_turn commits the same words."""

    def begin_turn(self, user_text: str, recalled: Sequence[dict] = ()) -> object:
        """The reply has started playing: store what the person said, now (`recalled`: the memories
        the turn's recall returned, which made its prompt)."""

    def finish_turn(self, turn: object, reply_text: str, audio: np.ndarray | None = None) -> None:
        """The reply is done (or was cut off): store what was heard of it, then learn from the turn
        (and from its audio, 16 kHz, how it was said)."""

    def flush(self) -> None:
        """Wait until what the turns so far teach is written."""

    def end_session(self) -> None:
        """The session is over: finish writing and stop."""


@dataclass(frozen=True)
class Speaker:
    """Who spoke an utterance, as far as the voice tells."""
    person_id: int | None  # None: nobody whose memories may be used
    fields: dict = field(default_factory=dict)  # for ev.SpeakerIdentified
    embedding: np.ndarray | None = None
    known: bool = False  # a named person recognised by voice, or the one person of an un-enrolled desk
    identification: object = None  # audio.voiceprint.Identification, when a voice was compared
    seconds: float = 0.0


class SpeakerRouting(Protocol):
    """Whose memory each turn uses."""

    def identify(self, audio: np.ndarray) -> Speaker | None:
        """Who spoke (on the reply thread, beside transcription; no side effects, since a speculative
        job may be dropped). None where voices are not told apart."""

    def memory_for(self, speaker: Speaker | None) -> TurnMemory | None:
        """The memory this speaker's turn uses; None: no personal memory."""

    def anticipated(self) -> TurnMemory | None:
        """Whose memory to look in while someone is still speaking."""

    def dialog_step(self, text: str, speaker: Speaker | None):
        """The enrolment dialog's step for this utterance (memory.enrolment.Step), or None where
        there is no dialog. A step that is `handled` is the reply; no language model is asked."""

    def learn(self, speaker: Speaker | None) -> None:
        """After an answered turn: what the voice teaches about who it was."""

    def flush(self) -> None:
        """Wait until every memory in use has written what the turns so far teach."""

    def end_session(self) -> None:
        """The session is over: every memory in use finishes writing."""


class OneMemory:
    """Every turn uses the same memory (or none): voices are not told apart."""

    def __init__(self, memory: TurnMemory | None = None) -> None:
        self.memory = memory

    def identify(self, audio: np.ndarray) -> Speaker | None:
        return None

    def memory_for(self, speaker: Speaker | None) -> TurnMemory | None:
        return self.memory

    def anticipated(self) -> TurnMemory | None:
        return self.memory

    def dialog_step(self, text: str, speaker: Speaker | None):
        return None

    def learn(self, speaker: Speaker | None) -> None:
        pass

    def flush(self) -> None:
        if self.memory is not None:
            self.memory.flush()

    def end_session(self) -> None:
        if self.memory is not None:
            self.memory.end_session()
