"""Who is speaking, and so whose memory a turn may use.

Until anyone's voice is enrolled, the desk has one person (config.person) and every turn is
theirs; meanwhile their voice is learned from the first utterances that agree in voice
(config.learn_owner_voice), with no enrolment step. Once voices are known, each utterance's
voiceprint decides: a recognised person gets their own memory, an unknown or uncertain voice gets
none (a stranger who keeps talking becomes a provisional "Guest N", whose memories are kept apart
until named or merged), and a stranger who asks what Hearth remembers of them is told they have not
met. An unknown speaker can enrol by voice: "my name is Priya" → "Shall I remember your voice as
Priya?" → "yes".
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import datetime
from typing import Callable

import numpy as np

from audio.voice_session import NOBODY, after_turn, with_session
from memory import MemoryStore
from memory.enrolment import NOT_MET, DialogStep, EnrolmentDialog
from memory.speakers import SpeakerBook
from text.questions import asks_about_themselves

from assistant.config import Config
from assistant.memory_access.remembering import LoopMemory, desk_person_id, names_no_one
from assistant.memory_access.routing import Speaker


class Household:
    """Speaker routing (assistant.memory_access.routing.SpeakerRouting) by voice.

    Who is speaking is decided per utterance from the voiceprints, and, for an utterance just short
    of the threshold, from the session's evidence (audio.voice_session): it still sounds like the
    person recognised earlier in the session. A stranger who asks what only their own memories
    could answer is told they have not met; one who gives a name is offered enrolment."""

    def __init__(self, store: MemoryStore, config: Config, engines, clock: Callable[[], datetime] = datetime.now):
        self.store, self.config, self.engines, self.clock = store, config, engines, clock
        self.book = SpeakerBook(store, clock=clock)
        self.dialog = EnrolmentDialog()
        self._sessions: dict[int, LoopMemory] = {}
        self._lock = threading.Lock()
        self._current: LoopMemory | None = None
        self._dialog_voices: list[np.ndarray] = []
        self._voice = NOBODY  # whose voice this session has been (audio.voice_session)

    # -- identification (on the reply thread, beside transcription) --------------------------
    def identify(self, audio: np.ndarray) -> Speaker:
        """Who is speaking. No side effects: a speculative job may call it and be dropped."""
        encoder = self.engines.voice
        heard = encoder is not None and len(audio) >= 16_000  # shorter: too short to tell who it is
        seconds = len(audio) / 16_000
        if not self.book.has_voiceprints():  # the desk's one person, whose voice may be learned from this
            pid = self._owner()
            embedding = encoder.embed(audio) if heard and self.config.learn_owner_voice else None
            return Speaker(pid, {"person": self.store.person(pid)["name"], "score": 1.0}, embedding, known=True,
                           seconds=seconds)
        if not heard:
            return Speaker(None, {"person": None, "score": 0.0})
        embedding = encoder.embed(audio)
        # a short utterance a little under the threshold is still the person who spoke a moment ago,
        # when it sounds like them
        ident = with_session(self.book.identify(embedding), embedding, self._voice, self.book.threshold,
                             self.book.margin, seconds)
        fields = self.book.describe(ident)
        if not ident.known:
            return Speaker(None, fields, embedding, False, ident, seconds)
        named = not self.store.person(ident.person)["provisional"]
        return Speaker(ident.person, fields, embedding, named, ident, seconds)

    def learn(self, speaker: Speaker | None) -> None:
        """After an answered turn: refresh a confident voiceprint, count towards a provisional guest,
        or (on a desk with no voice known yet) towards its one person's voice."""
        if speaker is None or speaker.embedding is None:
            return
        if speaker.identification is None:  # nobody's voice was known to compare it with
            if speaker.person_id == self._owner():
                self.book.learn_owner(speaker.person_id, speaker.embedding, speaker.seconds)
            return
        self._voice = after_turn(self._voice, speaker.identification, speaker.embedding, self.book.threshold)
        if speaker.person_id is not None:
            self.book.refresh(speaker.person_id, speaker.embedding, speaker.identification, speaker.seconds)
        else:
            self.book.provisional_for(speaker.embedding, speaker.identification, speaker.seconds)

    def _owner(self) -> int:
        return desk_person_id(self.store, self.config)

    # -- the enrolment dialog ------------------------------------------------------------------
    def dialog_step(self, text: str, speaker: Speaker | None):
        """The dialog's answer to this utterance, if it handles it (then no LLM reply)."""
        if speaker is None:  # identification failed
            return None
        stranger = speaker.person_id is None and speaker.embedding is not None  # heard, and nobody Hearth knows
        guest = speaker.person_id if speaker.person_id is not None and not speaker.known else None
        step = self.dialog.step(text, known=speaker.known,
                                name_taken=lambda name: self._name_taken(name, guest))
        if speaker.embedding is not None and step.handled:
            self._dialog_voices.append(speaker.embedding)
        if step.enrol:
            voices = self._dialog_voices or ([speaker.embedding] if speaker.embedding is not None else [])
            if voices:
                self.book.claim(step.enrol, voices, person_id=guest)
            else:  # every utterance of the dialog was too short to learn a voice from
                step = replace(step, say="I didn't hear enough of your voice to remember it. "
                                         "Tell me your name again in a full sentence?", enrol=None)
            self._dialog_voices = []
        elif not step.handled:
            self._dialog_voices = []
            if stranger and asks_about_themselves(text):
                return DialogStep(True, NOT_MET)
        return step

    def _name_taken(self, name: str, except_id: int | None) -> bool:
        found = self.store.find_person(name)
        return found is not None and found != except_id

    # -- memory for the turn --------------------------------------------------------------------
    def memory_for(self, speaker: Speaker | None) -> LoopMemory | None:
        with self._lock:
            if speaker is None or speaker.person_id is None:
                self._current = None
                return None
            memory = self._sessions.get(speaker.person_id)
            if memory is None:
                learns = speaker.person_id == self._owner() and names_no_one(self.config)
                memory = LoopMemory(self.store, speaker.person_id, llm=self.engines.llm,
                                    llm_gate=self.engines.llm_gate, clock=self.clock,
                                    budget_tokens=self.config.memory_budget_tokens, learns_name=learns)
                self._sessions[speaker.person_id] = memory
            self._current = memory
            return memory

    def anticipated(self) -> LoopMemory | None:
        """Whose memory to look in while someone is still speaking: the person who spoke last
        (on a desk with no enrolled voice, its one person)."""
        if self._current is None and not self.book.has_voiceprints():
            return self.memory_for(Speaker(self._owner(), {}, known=True))
        return self._current

    def flush(self) -> None:
        with self._lock:
            sessions = list(self._sessions.values())
        for memory in sessions:
            memory.flush()

    def end_session(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
            self._voice = NOBODY
        for memory in sessions:
            memory.end_session()
