"""What a TurnLoop is told and what it gives back: its options, the record of each turn, and the
endpoint settings a config makes."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant import events as ev
from assistant.config import Config
from audio.endpointer import EndpointSettings


@dataclass(frozen=True)
class LoopOptions:
    partials: bool = True  # transcribe while the person speaks
    anticipate: bool = True  # partial transcripts prepare the memory candidate pool
    speculate: bool = True  # start the reply when the voice stops, release it at the endpoint
    stream_audio: bool = True  # play the first sentence while the rest is generated
    prefill: bool = True  # evaluate the prompt from partial transcripts while the person speaks
    adaptive_endpoint: bool = True  # shorter silence after a question, longer after "and..."
    wait_for_reply: bool = False  # fast replays: the recording waits for each reply, as a person would
    pace_speech: bool = False  # fast replays: speech is read in real time, pauses are skipped

    @classmethod
    def sequential(cls, **kw) -> "LoopOptions":
        return cls(partials=False, anticipate=False, speculate=False, stream_audio=False, prefill=False,
                   adaptive_endpoint=False, **kw)


@dataclass
class TurnRecord:
    turn_id: int
    heard: str = ""
    reply: str = ""
    events: list[ev.Event] = field(default_factory=list)
    skipped: str = ""  # why no reply was given, if none was
    interrupted: bool = False


LIVE_RECORDS = 100  # turn records a live session keeps (the events went to the bus, the turns to memory)

def endpoint_settings(config: Config) -> EndpointSettings:
    return EndpointSettings(end_silence_seconds=config.end_silence_ms / 1000, max_seconds=config.max_utterance_s)
