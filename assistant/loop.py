"""The turn loop: frames in, utterances found, transcribed, answered, spoken; an event at every moment.

This is the sequential baseline: one turn is finished before the next frame is read. Each stage
is a short method so that later work (partials, speculation, barge-in) can move stages onto
workers without changing what they emit.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Iterator, Protocol

from audio.endpointer import EndpointSettings, Signal
from audio.listener import Listener, Utterance
from audio.sinks import AudioSink
from audio.sources import Frame

from . import events as ev
from .clock import Clock
from .config import Config
from .engines import Engines
from .prompt import History, build_messages
from .sentences import sentences_from_tokens


class TurnMemory(Protocol):
    """What the loop needs from memory: a block for the prompt, and a place to put each finished turn."""

    def recall(self, text: str) -> tuple[str, list[dict]]: ...

    def remember(self, user_text: str, reply_text: str) -> None: ...


@dataclass
class TurnRecord:
    turn_id: int
    heard: str = ""
    reply: str = ""
    events: list[ev.Event] = field(default_factory=list)
    skipped: str = ""  # why no reply was given, if none was


_NO_WORDS = re.compile(r"^[\W_]*$")
_NON_SPEECH_TAG = re.compile(r"^\s*[\[(].*[\])]\s*$")  # "[BLANK_AUDIO]", "(music)"


def worth_answering(text: str) -> bool:
    """Whisper returns tags or punctuation for noise; those are not turns."""
    return not (_NO_WORDS.match(text) or _NON_SPEECH_TAG.match(text))


FALLBACK_REPLY = "Sorry, I lost my train of thought. Could you say that again?"


def endpoint_settings(config: Config) -> EndpointSettings:
    return EndpointSettings(end_silence_seconds=config.end_silence_ms / 1000, max_seconds=config.max_utterance_s)


class TurnLoop:
    def __init__(self, engines: Engines, sink: AudioSink, bus: ev.EventBus, clock: Clock, config: Config,
                 memory: TurnMemory | None = None) -> None:
        self.engines = engines
        self.sink = sink
        self.bus = bus
        self.clock = clock
        self.config = config
        self.memory = memory
        self.history = History(max_turns=config.history_turns)
        self.records: list[TurnRecord] = []
        self._turn_id = 0
        self._frame_times: deque[tuple[int, float]] = deque(maxlen=4096)

    # -- events ---------------------------------------------------------------------------
    def _emit(self, event: ev.Event) -> None:
        if self.records and self.records[-1].turn_id == event.turn_id:
            self.records[-1].events.append(event)
        self.bus.emit(event)

    def _time_of_frame(self, index: int) -> float:
        """Clock time at which the end of frame `index` was read."""
        for i, t in reversed(self._frame_times):
            if i <= index:
                return t
        return self.clock.now()

    # -- listening ------------------------------------------------------------------------
    def run(self, frames: Iterator[Frame]) -> list[TurnRecord]:
        self.engines.vad.reset()
        listener = Listener(self.engines.vad.probability, endpoint_settings(self.config), self.config.vad_threshold)
        for heard in listener.hear(self._timed(frames)):
            signal = heard.step.signal
            if signal is Signal.SPEECH_START:
                self._turn_id += 1
                self.records.append(TurnRecord(self._turn_id))
                onset = heard.frame.index - listener.endpointer._start_frames + 1
                self._emit(ev.SpeechStart(self._turn_id, self._time_of_frame(onset - 1)))
            elif signal is Signal.SPEECH_RESUMED:
                self._emit(ev.SpeechResumed(self._turn_id, self.clock.now()))
            elif signal is Signal.DISCARD:
                self.records[-1].skipped = "too short"
                self._emit(ev.TurnSkipped(self._turn_id, self.clock.now(), reason="too short"))
            elif signal is Signal.ENDPOINT:
                self.answer(heard.utterance)
        return self.records

    def _timed(self, frames: Iterator[Frame]) -> Iterator[Frame]:
        for frame in frames:
            self._frame_times.append((frame.index, self.clock.now()))
            yield frame

    # -- answering ------------------------------------------------------------------------
    def answer(self, utterance: Utterance) -> TurnRecord:
        turn = self._turn_id
        record = self.records[-1]
        self._emit(ev.SpeechEnd(turn, self._time_of_frame(utterance.last_voiced_frame)))
        self._emit(ev.Endpoint(turn, self.clock.now(), audio_seconds=utterance.seconds, cut=utterance.cut))

        text = self.engines.asr.transcribe(utterance.audio)
        record.heard = text
        self._emit(ev.AsrDone(turn, self.clock.now(), text=text))
        if not worth_answering(text):
            record.skipped = "no words"
            self._emit(ev.TurnSkipped(turn, self.clock.now(), reason="no words"))
            return record

        block, memories = self.memory.recall(text) if self.memory else ("", [])
        self._emit(ev.RecallDone(turn, self.clock.now(), memories=tuple(memories)))

        record.reply = self.speak(turn, build_messages(text, self.history, block))
        self.history.add(text, record.reply)
        if self.memory:
            self.memory.remember(text, record.reply)
        return record

    def speak(self, turn: int, messages: list[dict]) -> str:
        """Stream tokens, cut sentences as they complete, synthesize and play each one."""
        spoken: list[str] = []
        first_token = first_audio = False

        def tokens():
            nonlocal first_token
            for piece in self.engines.llm.stream(messages, self.config.max_reply_tokens, self.config.temperature):
                if not first_token:
                    first_token = True
                    self._emit(ev.LlmFirstToken(turn, self.clock.now()))
                yield piece

        self.sink.start_reply(turn)
        for sentence in sentences_from_tokens(tokens()):
            self._emit(ev.SentenceReady(turn, self.clock.now(), text=sentence))
            for chunk in self.engines.tts.stream(sentence):
                self.sink.play(chunk, self.engines.tts.sample_rate)
                if not first_audio:
                    first_audio = True
                    self._emit(ev.FirstAudio(turn, self.clock.now()))
            spoken.append(sentence)
        if not spoken:  # the model said nothing: say so rather than leave the person waiting
            return self._say(turn, FALLBACK_REPLY, first_token, first_audio)
        self.sink.finish_reply()
        reply = " ".join(spoken)
        self._emit(ev.ReplyDone(turn, self.clock.now(), text=reply))
        return reply

    def _say(self, turn: int, text: str, first_token: bool, first_audio: bool) -> str:
        if not first_token:
            self._emit(ev.LlmFirstToken(turn, self.clock.now()))
        for chunk in self.engines.tts.stream(text):
            self.sink.play(chunk, self.engines.tts.sample_rate)
            if not first_audio:
                first_audio = True
                self._emit(ev.FirstAudio(turn, self.clock.now()))
        self.sink.finish_reply()
        self._emit(ev.ReplyDone(turn, self.clock.now(), text=text))
        return text


