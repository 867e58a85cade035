"""How many turns the listener finds: meetings and a three-speaker clip, and none in room noise."""

from __future__ import annotations

import pytest

from assistant.modes.replay import replay_file
from audio.listener import Listener
from audio.sources import FileSource
from assistant.pipeline.loop import endpoint_settings
from conftest import SPEECH, items


def utterances(engines, config, path):
    engines.vad.reset()
    listener = Listener(engines.vad.probability, endpoint_settings(config), config.vad_threshold)
    return [h.utterance for h in listener.hear(FileSource(path).frames()) if h.utterance is not None]


def rttm_segments(path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.startswith("SPEAKER"))


# (clip, expected utterances, tolerance). Expected counts come from the reference segmentation:
# the manifest's segments, or the RTTM's speaker turns. A 500 ms endpoint merges turns that follow
# each other more closely and splits a turn at a longer pause, hence the tolerance.
CASES = [
    ("conversation/three-speakers.wav", 3, 1),  # "thank you" after a pause may stand alone
    ("conversation/ami-ES2011a-40s-46s.wav", 2, 1),  # the two names are 0.54 s apart
    ("conversation/ami-dev00.wav", rttm_segments(SPEECH / "conversation/ami-dev00.rttm") if SPEECH.is_dir() else 9, 3),
]


@pytest.mark.parametrize("clip, expected, tolerance", CASES)
def test_conversation_clips_yield_the_expected_number_of_utterances(speech_dir, engines, test_config, clip,
                                                                    expected, tolerance):
    found = utterances(engines, test_config, speech_dir / clip)
    assert abs(len(found) - expected) <= tolerance, [round(u.seconds, 1) for u in found]


# vad-leak-test.wav (pocketsphinx's VAD boundary test, 8 kHz) holds about five seconds that
# silero-vad scores above 0.9 throughout: it yields one utterance, which we allow and count.
ALLOWED_FALSE_TURNS = {"noise/vad-leak-test.wav": 1}


@pytest.mark.parametrize("item", items("noise") + items("silence"), ids=lambda i: i["path"])
def test_room_noise_produces_no_turns(speech_dir, engines, test_config, tmp_path, item):
    result = replay_file(speech_dir / item["path"], tmp_path, engines, test_config)
    answered = result.answered
    assert len(answered) <= ALLOWED_FALSE_TURNS.get(item["path"], 0), [r.heard for r in answered]


def test_a_pause_shorter_than_the_endpoint_keeps_one_turn(speech_dir, engines, test_config):
    # ES2011a: two phrases 0.54 s apart. With a 700 ms endpoint they are one utterance.
    from dataclasses import replace

    config = replace(test_config, end_silence_ms=700)
    assert len(utterances(engines, config, speech_dir / "conversation/ami-ES2011a-40s-46s.wav")) == 1
