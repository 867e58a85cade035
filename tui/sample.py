"""A recorded, deterministic session for previews and snapshot tests: `HearthApp(events=sample_items())`.

Five turns with real-looking timings: an answered one with recalled memories, a slow one cut off by
barge-in, a cough that was skipped, an answered question, and one the person is still speaking.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from assistant import events as ev

from .state import Controls, EngineProgress, InputLevel, SessionStarted

SAMPLE_NOW = datetime(2026, 3, 20, 18, 30, 0)

# how the sample's turns ended: the end-of-turn model heard one finished; two were questions
FINISHED = ev.Endpoint(0, 0.0, silence_ms=200, why="finished", finished=0.91)
QUESTION = ev.Endpoint(0, 0.0, silence_ms=200, why="question", finished=0.64)

MEMORIES = (
    {"id": 12, "kind": "item", "text": "Has a dog called Biscuit, a beagle with a bad knee; vet visit booked for Friday.",
     "entity": "Biscuit the dog", "schema": "pets", "score": 0.8123, "source": "pool",
     "said_at": "2026-03-18T09:15:00"},
    {"id": 7, "kind": "item", "text": "Walks along the river most evenings after work.",
     "entity": "evening walks", "schema": "hobbies", "score": 0.6541, "source": "pool",
     "said_at": "2026-02-27T19:02:00"},
    {"id": 31, "kind": "item", "text": "Had COVID in March, fully recovered and back at the office since 20 March.",
     "entity": "COVID", "schema": "health", "score": 0.4102, "source": "fallback",
     "said_at": "2026-03-20T18:20:00"},
    {"id": 3, "kind": "persona", "text": "worried about Biscuit's knee", "entity": "Biscuit the dog",
     "label": "worried", "valence": -0.6, "arousal": 0.55, "cause": "the vet mentioned surgery",
     "score": 0.5512, "source": "pool", "said_at": "2026-03-18T09:15:00"},
    {"id": 1, "kind": "persona", "text": "loves being outdoors", "label": "content", "valence": 0.7,
     "arousal": 0.3, "score": 0.3901, "source": "fallback"},
)


def _heard_and_answered(turn: int, times: tuple[float, ...], audio_seconds: float, heard: str,
                        memories: tuple, first_sentence: str, ended: ev.Endpoint) -> list[ev.Event]:
    """A turn from the end of speech to its first audio; times: speech end, endpoint, transcript,
    recall, first token, first sentence, first audio; `ended`: the endpoint's why, at its time."""
    speech_end, endpoint, asr, recall, first_token, sentence, first_audio = times
    return [
        ev.SpeechEnd(turn, speech_end),
        replace(ended, turn_id=turn, t=endpoint, audio_seconds=audio_seconds),
        ev.AsrDone(turn, asr, text=heard, started=endpoint),
        ev.RecallDone(turn, recall, memories=memories, started=asr),
        ev.LlmFirstToken(turn, first_token),
        ev.SentenceReady(turn, sentence, text=first_sentence),
        ev.FirstAudio(turn, first_audio),
    ]


def sample_items() -> list:
    return [
        EngineProgress("vad", "ready", 0.31),
        EngineProgress("asr", "ready", 1.12),
        EngineProgress("llm", "ready", 2.48),
        EngineProgress("tts", "ready", 0.64),
        SessionStarted("LJ001-0002.wav", (("asr", "whisper-tiny.en"), ("llm", "qwen2.5-0.5b-instruct-q4_k_m"),
                                          ("tts", "en_US-joe-medium"), ("vad", "silero-vad")), "replies → /tmp/out"),
        # turn 1: answered, memories recalled
        ev.SpeechStart(1, 0.50),
        ev.PartialTranscript(1, 1.20, text="I just got back"),
        ev.SpeakerIdentified(1, 1.40, person="Dana", score=0.83, runner_up="Sam", runner_up_score=0.41),
        ev.PartialTranscript(1, 2.10, text="I just got back from a walk with Biscuit"),
        *_heard_and_answered(1, (2.90, 3.12, 3.32, 3.36, 3.98, 4.31, 4.52), 2.4,
                             "I just got back from a long walk with Biscuit.", MEMORIES, "Welcome back, Dana!",
                             FINISHED),
        ev.SentenceReady(1, 4.90, text="How is Biscuit's knee holding up after the walk?"),
        ev.ReplyDone(1, 7.80, text="Welcome back, Dana! How is Biscuit's knee holding up after the walk?"),
        # turn 2: a slow one
        ev.SpeechStart(2, 10.10),
        ev.SpeakerIdentified(2, 10.90, person="Dana", score=0.79, runner_up="Sam", runner_up_score=0.38),
        *_heard_and_answered(2, (12.20, 12.42, 13.05, 13.10, 14.90, 15.60, 15.85), 2.1,
                             "He limped a bit. What is a good way to relax after a busy week?",
                             MEMORIES[:2] + MEMORIES[3:4], "A slow evening walk by the river could help you both.",
                             QUESTION),
        # turn 2 is cut off by barge-in
        ev.ReplyDone(2, 17.20, text="A slow evening walk by the river could help you both.", interrupted=True),
        # turn 3: a cough, skipped
        ev.SpeechStart(3, 17.40),
        ev.SpeechEnd(3, 17.70),
        ev.Endpoint(3, 18.82, audio_seconds=0.3, silence_ms=1100, why="unfinished", finished=0.12),
        ev.AsrDone(3, 18.90, text="[cough]", started=18.82),
        ev.TurnSkipped(3, 18.90, reason="no words"),
        # turn 4: answered
        ev.SpeechStart(4, 19.00),
        ev.SpeakerIdentified(4, 19.60, person="Dana", score=0.86, runner_up="Sam", runner_up_score=0.40),
        *_heard_and_answered(4, (20.60, 20.82, 21.30, 21.34, 21.65, 21.92, 22.10), 1.6,
                             "Can you remind me what my dog is called?", MEMORIES, "Your dog is called Biscuit.",
                             QUESTION),
        # turn 5: the person is speaking now
        ev.SpeechStart(5, 25.00),
        ev.PartialTranscript(5, 25.60, text="Thanks, and"),
        InputLevel(0.05),
        Controls(muted=False, push_to_talk=False),
    ]
