"""A real recording replayed through the real loop, in real time, with Hearth's reply fed back
into the microphone as a room would carry it (benchmarks/room.py): 60 ms late, through a real
room's impulse response, 10 dB below the person. Hearth's own voice makes no turn.

The reply comes from a scripted language model (tests/fakes.py): the test needs several seconds of
Hearth's voice in the room whatever the bundled model would answer; every other engine is real."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import soundfile as sf

from assistant import events as ev
from assistant.clock import MonotonicClock
from assistant.pipeline.loop import TurnLoop
from audio.convert import resample
from audio.sources import read_audio_file

from conftest import load_benchmark
from fakes import ScriptedChat


def test_the_reply_heard_back_at_minus_10_db_makes_no_turn_and_stops_nothing(speech_dir, engines, test_config,
                                                                              tmp_path):
    room_kit = load_benchmark("room")
    question = read_audio_file(speech_dir / "asr/LJ001-0002.wav")  # "in being comparatively modern"
    voice = np.concatenate(list(engines.tts.stream("Of course. Here is what I found about that, in a few words.")))
    voice_rms = room_kit.active_rms(resample(voice, engines.tts.sample_rate, 16_000))
    room = room_kit.Room(room_kit.load_impulse(speech_dir / "rooms" / "seminar-room-clap.wav"), delay_ms=60,
                         gain=room_kit.Room.level_gain(-10.0, room_kit.active_rms(question), voice_rms))
    sink = room_kit.RoomSink(tmp_path, room)
    config = replace(test_config, echo_guard="speakers")
    engines = replace(engines, llm=ScriptedChat("Modern printing is a young art, and I would like to hear more "
                                                "about it."))
    loop = TurnLoop(engines, sink, ev.EventBus(), MonotonicClock(), config)
    said: list = []

    def script(room):
        yield from room_kit.silence(0.5)
        yield from room_kit.say(room, "question", question, said)
        yield from room_kit.wait_for(lambda: not loop.busy)
        yield from room_kit.silence(1.5)  # the echo's tail is heard out

    records = loop.run(room.frames(script))
    sink.close()

    answered = [r for r in records if r.reply]
    what = [(r.heard, r.reply, r.skipped, r.interrupted, [e.kind for e in r.events]) for r in records]
    assert len(answered) == 1, what
    assert "modern" in answered[0].heard.lower()
    assert not answered[0].interrupted
    assert not [e for r in records for e in r.events if isinstance(e, ev.PlaybackStopped)]
    # the reply did play into the room for a while (so there was an echo to make a turn from)
    audio, rate = sf.read(str(sink.written[0]))
    assert len(audio) / rate > 2.0
