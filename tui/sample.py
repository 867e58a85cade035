"""A recorded, deterministic session for previews and snapshot tests: `HearthApp(events=sample_items())`.

Three turns with real-looking timings: an answered one with recalled memories, a slow one, one cut
off by barge-in, and a cough that was skipped.
"""

from __future__ import annotations

from datetime import datetime

from assistant import events as ev

from .state import Controls, EngineProgress, InputLevel, SessionStarted

SAMPLE_NOW = datetime(2026, 3, 20, 18, 30, 0)

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
        ev.SpeechEnd(1, 2.90),
        ev.Endpoint(1, 3.40, audio_seconds=2.4),
        ev.AsrDone(1, 3.62, text="I just got back from a long walk with Biscuit.", started=3.40),
        ev.RecallDone(1, 3.66, memories=MEMORIES, started=3.62),
        ev.LlmFirstToken(1, 3.98),
        ev.SentenceReady(1, 4.31, text="Welcome back, Dana!"),
        ev.FirstAudio(1, 4.52),
        ev.SentenceReady(1, 4.90, text="How is Biscuit's knee holding up after the walk?"),
        ev.ReplyDone(1, 7.80, text="Welcome back, Dana! How is Biscuit's knee holding up after the walk?"),
        # turn 2: a slow one
        ev.SpeechStart(2, 10.10),
        ev.SpeakerIdentified(2, 10.90, person="Dana", score=0.79, runner_up="Sam", runner_up_score=0.38),
        ev.SpeechEnd(2, 12.20),
        ev.Endpoint(2, 12.70, audio_seconds=2.1),
        ev.AsrDone(2, 13.05, text="He limped a bit. What is a good way to relax after a busy week?", started=12.70),
        ev.RecallDone(2, 13.10, memories=MEMORIES[:2] + MEMORIES[3:4], started=13.05),
        ev.LlmFirstToken(2, 14.90),
        ev.SentenceReady(2, 15.60, text="A slow evening walk by the river could help you both."),
        ev.FirstAudio(2, 15.85),
        # turn 2 is cut off by barge-in
        ev.ReplyDone(2, 17.20, text="A slow evening walk by the river could help you both.", interrupted=True),
        # turn 3: a cough, skipped
        ev.SpeechStart(3, 17.40),
        ev.SpeechEnd(3, 17.70),
        ev.Endpoint(3, 18.20, audio_seconds=0.3),
        ev.AsrDone(3, 18.35, text="[cough]", started=18.20),
        ev.TurnSkipped(3, 18.35, reason="no words"),
        # turn 4: answered
        ev.SpeechStart(4, 19.00),
        ev.SpeakerIdentified(4, 19.60, person="Dana", score=0.86, runner_up="Sam", runner_up_score=0.40),
        ev.SpeechEnd(4, 20.60),
        ev.Endpoint(4, 21.10, audio_seconds=1.6),
        ev.AsrDone(4, 21.30, text="Can you remind me what my dog is called?", started=21.10),
        ev.RecallDone(4, 21.34, memories=MEMORIES, started=21.30),
        ev.LlmFirstToken(4, 21.65),
        ev.SentenceReady(4, 21.92, text="Your dog is called Biscuit."),
        ev.FirstAudio(4, 22.10),
        # turn 5: the person is speaking now
        ev.SpeechStart(5, 25.00),
        ev.PartialTranscript(5, 25.60, text="Thanks, and"),
        InputLevel(0.05),
        Controls(muted=False, push_to_talk=False),
    ]
