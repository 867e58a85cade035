"""How many turns the listener finds: meetings and a three-speaker clip, and none in room noise."""

from __future__ import annotations

import pytest

from assistant.modes.replay import replay_file
from audio.listener import Listener
from audio.sources import FileSource
from assistant.pipeline.loop_types import endpoint_settings
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


def test_a_thinking_pause_mid_sentence_is_waited_for_where_it_sounds_unfinished(speech_dir, engines, test_config,
                                                                               tmp_path):
    # "he might even have been | made amiable himself", a second's silence after "been": a word that
    # leaves nothing hanging, so the words alone end the turn in the pause (500 ms; benchmarks/turns.py
    # shows it). The end-of-turn model hears that it is unfinished and waits.
    from dataclasses import replace

    config = replace(test_config, max_reply_tokens=12)
    endpoints, heard = _replayed_with_a_pause(speech_dir / "asr/librivox-ss01-0930.wav", "been", engines, config, tmp_path)

    assert engines.turn_end is not None
    assert len(endpoints) == 1 and len(heard) == 1 and "made" in heard[0].lower() and "been" in heard[0].lower(), heard
    said_why(endpoints[0], config)


def test_a_thinking_pause_after_words_that_end_no_sentence_is_waited_for(speech_dir, engines, test_config, tmp_path):
    # "Mister Quilter is the apostle of the middle | classes…", a second's silence after "middle": the
    # end-of-turn model hears it as finished (it ended the turn there before), but the transcript made
    # in the silence ends no sentence, and the long silence is waited. (The base silence, which a turn
    # that sounds finished waits for its transcript, is 0.9 s here: a busy machine's transcript may
    # take longer than the default 0.5 s, and this test is of what the transcript decides.)
    from dataclasses import replace

    config = replace(test_config, max_reply_tokens=12, end_silence_ms=900)
    endpoints, heard = _replayed_with_a_pause(speech_dir / "asr/1272-128104-0000.wav", "middle", engines, config, tmp_path)

    assert len(endpoints) == 1 and len(heard) == 1 and "middle" in heard[0].lower() and "gospel" in heard[0].lower(), \
        (heard, endpoints)
    said_why(endpoints[0], config)


def _replayed_with_a_pause(clip, after_word: str, engines, config, tmp_path):
    """The recording with a second's silence after `after_word` (word times from Whisper), replayed in
    real time through the loop: its endpoints, and what each turn heard."""
    import numpy as np
    import soundfile as sf

    from assistant import events as ev
    from audio.sources import read_audio_file

    audio = read_audio_file(clip)
    words = engines.asr.word_times(audio)
    n = next(i for i, (w, _, _) in enumerate(words) if w.strip(",.").lower() == after_word)
    at = int((words[n][2] + words[n + 1][1]) / 2 * 16_000)
    paused = tmp_path / "paused.wav"
    sf.write(str(paused), np.concatenate([audio[:at], np.zeros(16_000, np.float32), audio[at:]]), 16_000)
    result = replay_file(paused, tmp_path / "model", engines, config, realtime=True)
    endpoints = [e for r in result.records for e in r.events if isinstance(e, ev.Endpoint)]
    return endpoints, [r.heard for r in result.records if r.heard]


def said_why(endpoint, config) -> None:
    """The endpoint event says what ended the turn, as the decision (end_silence.py) made it: the
    end-of-turn model heard the pause, and the silence waited is the one its reason gives."""
    from assistant.pipeline.end_silence import FINISHED, SURE, UNSURE

    assert endpoint.finished is not None and 0.0 <= endpoint.finished <= 1.0, endpoint
    waits = {"finished": lambda: endpoint.finished >= FINISHED and endpoint.silence_ms == config.end_silence_finished_ms,
             "unfinished": lambda: (endpoint.finished < FINISHED
                                    and endpoint.silence_ms >= config.end_silence_unfinished_ms),
             "unended": lambda: (endpoint.finished >= FINISHED
                                 and endpoint.silence_ms >= config.end_silence_unfinished_ms),
             "pending": lambda: endpoint.finished >= FINISHED and endpoint.silence_ms == config.end_silence_ms,
             "sure": lambda: endpoint.finished >= SURE and endpoint.silence_ms == config.end_silence_finished_ms,
             "doubtful": lambda: (UNSURE <= endpoint.finished < FINISHED
                                  and endpoint.silence_ms == config.end_silence_ms),
             "question": lambda: endpoint.silence_ms == config.end_silence_finished_ms,
             "hanging": lambda: endpoint.silence_ms >= config.end_silence_unfinished_ms}
    assert endpoint.why in waits and waits[endpoint.why](), endpoint
