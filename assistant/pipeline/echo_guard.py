"""Hearth's own voice is never a turn: the loop's side of the echo guard.

With echo_guard = "speakers" every input frame is cleaned of the echo of what the sink played
(audio/echo.py), and speech that starts while that echo may be in the microphone is judged
(audio/echo_decision.py) before it stops the reply:
the utterance is a suspect: a turn that stops nothing. Each of its voiced frames is judged; once
PAUSE_FRAMES in a row hold a person (the canceller's echo estimate does not explain them) the reply
is paused, and once PERSON_FRAMES do a person is confirmed (whose words then decide whether the
reply stops, assistant/pipeline/overlap.py). A voiced frame of echo in between starts the count
again; the reply stays paused until the suspect ends (an echo, with nothing playing, soon does:
played on and paused again at each frame of echo, the reply stuttered, heard again from a little
before each pause), and for WARY_SECONDS after, only a confirmed person pauses it again. A suspect
that ends unconfirmed is dropped (TurnSkipped "echo"), without a transcript or a reply, and the
reply plays on. One that ends while the reply is paused for it may have been a person too brief to
confirm ("wait", "no"): its words decide, and if it was brief (audio/echo_decision.brief), or went
quiet with the reply (faded_with_pause: the echo of a reply the canceller let through, paused for
late), only words that ask Hearth to stop stop it (an echo's few words, paused, ended so too, and
Whisper heard them as anything: "I'll since the boy."). A few frames are never enough: an
echo the canceller has not caught up with (a sentence's first syllable, a change in the room, a
piece of the reply a sound server carried back late) looks like a person for a while. A frame the
canceller made much louder than it came says it has lost the echo (its delay jumped): no person is
confirmed until the canceller's residue has been learned again.
Before any of that, the canceller's suppressor may silence the first 30-700 ms of a person's voice
over a loud reply (it takes it for echo), and the listener hears no speech meanwhile: two frames of
the microphone, as it came, well above the loudest echo the room has carried pause the reply at
once; the suspect that follows starts paused, and if none follows the reply plays on. Such a
suspect whose frames never held a person is echo when it ends (the reply plays on), not a voice
left to its words: Whisper makes sentences of an echo ("I'm not going to make this case…").
Any turn begun while echo was possible is also checked by its words once transcribed: most of
them Hearth's own, in Hearth's order, and it is dropped as echo, never answered.

"headphones" does none of this; "half-duplex" ignores the microphone while Hearth talks.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterator

from audio.echo import EchoMonitor, EchoReference, FrameLevels
from audio.echo_decision import (FADE_WAIT_FRAMES, ONSET_FRAMES, canceller_added, faded_with_pause, is_echo,
                                 loud_run, onset_waits, person_confirmed, person_run, person_suspected)
from audio.endpointer import Signal, Step
from audio.sources import Frame

from assistant.clock import Clock
from assistant.config import ECHO_GUARD_ALIASES

log = logging.getLogger(__name__)

ECHO_TURNS = 100  # how far back a turn's transcript may still be judged
# After a suspect the reply was paused for ended unconfirmed (most often Hearth's own echo), the
# reply is paused again only for a confirmed person for this long: played on after such a pause, a
# live reply at 35% was paused for its own echo six times more, each a second or two of silence.
WARY_SECONDS = 5.0
HALF_DUPLEX_THRESHOLD = 1.01  # above any speech probability: the microphone is ignored


class PausedFor(Enum):
    NOTHING = "nothing"  # the reply plays on
    LOUD = "loud"  # a sound above the loudest echo came just before the suspect
    PERSON = "person"  # the suspect's frames held a person


@dataclass
class _Suspect:
    """An utterance that may be Hearth's own voice."""

    run: int  # voiced frames in a row that held a person
    # Why the reply is paused for it (until it ends or is confirmed). Only PERSON leaves an unconfirmed
    # end to its words: an echo paused for a loud onset, ended, is echo.
    paused_for: PausedFor = PausedFor.NOTHING
    # Paused for as a person: the microphone's level then, frames since, and its loudest frame once
    # the room's echo of what played before the pause has gone (None before)
    level_at_pause: float = 0.0
    since_pause: int = 0
    loudest_after: float | None = None

    def heard_after_pause(self, mic: float) -> None:
        self.since_pause += 1
        if self.since_pause > FADE_WAIT_FRAMES:
            self.loudest_after = max(self.loudest_after or 0.0, mic)


@dataclass
class _LoudOnset:
    """A sound far louder than any echo of what is playing, not yet speech to the listener: the
    reply is paused for it until the listener hears speech start (a suspect, paused) or it has
    waited long enough (audio/echo_decision.onset_waits)."""

    level: float  # the microphone's level when the reply was paused
    waited: int = 0  # frames since the reply was paused
    lately: deque[float] = field(default_factory=lambda: deque(maxlen=ONSET_FRAMES))  # its level since


class EchoGuard:
    def __init__(self, mode: str, sink, clock: Clock, monitor: EchoMonitor | None = None) -> None:
        """monitor: the echo canceller and its levels, for "speakers" (one over a PairedCanceller
        is made here when None)."""
        self.mode = ECHO_GUARD_ALIASES.get(mode, mode)
        self.monitor = monitor
        if self.mode == "speakers" and monitor is None:
            from audio.aec import PairedCanceller

            reference = EchoReference(now=clock.now)
            self.monitor = EchoMonitor(reference, PairedCanceller())
            if hasattr(sink, "echo_reference"):  # the sink places what it plays on the input timeline
                sink.echo_reference = reference
        self._recent: deque[FrameLevels] = deque(maxlen=ONSET_FRAMES)
        # Of an utterance that may be Hearth's own voice: how many voiced frames in a row held a
        # person, and whether the reply was paused for it. None while no utterance is suspect.
        self._suspect: _Suspect | None = None
        self._loud_run = 0  # frames in a row, outside any utterance, above the loudest echo
        self._onset: _LoudOnset | None = None
        self._echo_turns: set[int] = set()  # turns begun while echo was possible (the last ECHO_TURNS)
        self._lock = threading.Lock()  # the set is read on the hearing stage
        self._clock = clock
        self._wary_until = float("-inf")  # until then, only a confirmed person pauses the reply
        self.dropped = 0  # utterances dropped as echo on their levels

    def frames(self, frames: Iterator[Frame]) -> Iterator[Frame]:
        """The input, cleaned of the echo of what was played."""
        if self.monitor is None:
            yield from frames
            return
        for frame in frames:
            cleaned = self.monitor.clean(frame)
            self._recent.append(self.monitor.levels)
            yield cleaned

    def threshold(self, vad_threshold: float, talking: bool) -> float:
        """The VAD threshold for the next frame."""
        return HALF_DUPLEX_THRESHOLD if self.mode == "half-duplex" and talking else vad_threshold

    @property
    def suspect(self) -> bool:
        """The utterance in progress may be Hearth's own voice."""
        return self._suspect is not None

    @property
    def echo_possible(self) -> bool:
        return self.monitor is not None and self.monitor.echo_possible

    def judge(self, step: Step, voiced: bool, turn_id: int,
              loud_may_pause: bool = False) -> tuple[Step, str]:
        """The listener's step as the loop should take it, and what the guard made of it:
        "" (as it came), "suspect" (speech that may be echo starts a turn that stops nothing),
        "pause" (the suspect looks like a person, or a sound before any speech stands far above the
        loudest echo: hold the reply, silent, until the suspect ends or is confirmed; an echo,
        paused, soon fades), "resume" (that sound never became speech: play on), "person" (a
        suspect turn is a person after all: barge-in now), "echo" (a suspect turn ended: drop it,
        play on), "unsure" (a suspect turn ended while the reply was paused for it as a person: too
        short to be confirmed on its levels? its ENDPOINT, for its words to decide,
        assistant/pipeline/overlap.py), "faded" (such a turn whose voice went quiet with the reply:
        as "unsure", but only words asking Hearth to stop stop it, as for a brief one).
        turn_id: the turn in progress (for a SPEECH_START, the one before it). loud_may_pause: a
        reply is playing and no utterance is being heard or judged (only then does a loud sound
        before speech pause the reply: a person's voice, once it is speech, is the suspect's or the
        overlap judge's)."""
        signal = step.signal
        if self.monitor is not None:
            self.monitor.learn(voiced)
            if self.echo_possible and canceller_added(self.monitor.levels):
                self.monitor.relearn()
        suspect = self._suspect
        if suspect is not None:
            if suspect.paused_for is PausedFor.PERSON and self.monitor is not None:
                suspect.heard_after_pause(self.monitor.levels.mic)
            if signal in (Signal.ENDPOINT, Signal.DISCARD):
                self._suspect = None
                if suspect.paused_for is not PausedFor.NOTHING:
                    self._wary_until = self._clock.now() + WARY_SECONDS
                if signal is Signal.ENDPOINT and suspect.paused_for is PausedFor.PERSON:
                    faded = faded_with_pause(suspect.level_at_pause, suspect.loudest_after)
                    return step, "faded" if faded else "unsure"
                self.dropped += 1
                return Step(Signal.NONE), "echo"
            suspect.run = person_run(suspect.run, self._recent, voiced, self.echo_possible)
            if person_confirmed(suspect.run):
                self._suspect = None
                return Step(Signal.NONE), "person"
            if person_suspected(suspect.run) and suspect.paused_for is not PausedFor.PERSON \
                    and self._clock.now() >= self._wary_until:
                already, suspect.paused_for = suspect.paused_for, PausedFor.PERSON
                suspect.level_at_pause = sum(f.mic for f in self._recent) / max(len(self._recent), 1)
                return Step(Signal.NONE), "" if already is PausedFor.LOUD else "pause"
            return Step(Signal.NONE), ""
        onset, self._onset = self._onset, None
        if signal is Signal.SPEECH_START and (self.echo_possible or onset is not None):
            with self._lock:
                self._echo_turns = {t for t in self._echo_turns if t > turn_id - ECHO_TURNS} | {turn_id + 1}
            self._suspect = _Suspect(person_run(0, self._recent, voiced, True),
                                     paused_for=PausedFor.NOTHING if onset is None else PausedFor.LOUD)
            return step, "suspect"
        if onset is None and not loud_may_pause:
            self._loud_run = 0
            return step, ""
        return step, self._before_speech(onset)

    def _before_speech(self, onset: _LoudOnset | None) -> str:
        """Outside any utterance, while the reply plays: the canceller's suppressor silences the
        start of a person's voice over a loud reply, and the listener hears speech only when it lets
        the voice through (30-700 ms at -6 dB); the microphone as it came, well above the loudest
        echo the room carries, pauses the reply at once."""
        if onset is not None:
            onset.lately.append(self.monitor.levels.mic)
            if self.echo_possible and onset_waits(onset.waited, onset.level, max(onset.lately)):
                onset.waited += 1
                self._onset = onset
                return ""
            self._loud_run = 0
            return "resume"
        self._loud_run = loud_run(self._loud_run, self.monitor.levels) if self.echo_possible else 0
        if person_suspected(self._loud_run):
            self._loud_run = 0
            self._onset = _LoudOnset(self.monitor.levels.mic)
            return "pause"
        return ""

    def said(self, text: str) -> None:
        """A sentence of Hearth's reply (its words are what an echo would be heard saying)."""
        if self.monitor is not None:
            self.monitor.reference.said(text)

    def heard_echo(self, turn_id: int, text: str) -> bool:
        """On the hearing stage: is this transcript Hearth's own words, heard back?"""
        with self._lock:
            possible = turn_id in self._echo_turns
        if self.monitor is None or not possible:
            return False
        echo = is_echo(text, self.monitor.reference.recent_words())
        if echo:
            log.debug("turn %s dropped: its words are Hearth's own", turn_id)
        return echo
