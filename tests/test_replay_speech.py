"""The loop end to end on real recordings with the real bundled models."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import soundfile as sf

from assistant.modes.replay import replay_file
from assistant.timings import events_complete_and_ordered
from conftest import items
from wer import word_errors

# Measured on the 17 asr clips of the manifest with the bundled Whisper tiny.en (int8, beam 1), through the
# loop: 4.7% corpus WER with the fitted encoder window (5.9% with faster-whisper's full 30 s window).
MEASURED_WER = 0.047
WER_MARGIN = 0.02


@pytest.fixture(scope="module")
def asr_replays(speech_dir, engines, test_config, tmp_path_factory):
    out = tmp_path_factory.mktemp("asr-replay")
    config = replace(test_config, max_reply_tokens=12)  # what is heard is checked here; a reply need only be spoken
    return [(item, replay_file(speech_dir / item["path"], out / f"{n:02d}", engines, config))
            for n, item in enumerate(items("asr"))]


def test_word_error_rate_over_the_asr_clips(asr_replays):
    errors = words = 0
    for item, result in asr_replays:
        e, n = word_errors(item["transcript"], " ".join(r.heard for r in result.records if r.heard))
        errors, words = errors + e, words + n
    assert len(asr_replays) == len(items("asr")) > 0
    assert errors / words <= MEASURED_WER + WER_MARGIN, f"WER {errors / words:.3f}"


def test_every_utterance_gets_a_spoken_reply(asr_replays):
    for item, result in asr_replays:
        assert result.answered, item["path"]
        assert len(result.reply_wavs) == len(result.answered)
        for record, wav in zip(result.answered, result.reply_wavs):
            assert record.reply.strip()
            audio, rate = sf.read(str(wav), dtype="float32")
            assert len(audio) / rate > 0.5, wav
            assert np.sqrt(np.mean(audio**2)) > 0.01, f"{wav} is silent"


def test_events_of_every_turn_are_complete_and_in_order(asr_replays):
    for item, result in asr_replays:
        for record in result.answered:
            assert events_complete_and_ordered(record.events), (item["path"], record.events)


def test_a_fast_replay_says_its_turns_ended_on_the_fixed_silence(asr_replays, test_config):
    """A fast replay does not tune the endpoint (replay_options): every endpoint says so."""
    from assistant import events as ev

    endpoints = [e for _, result in asr_replays for r in result.records for e in r.events if isinstance(e, ev.Endpoint)]
    assert endpoints
    for e in endpoints:
        assert (e.why, e.silence_ms, e.finished) == ("too long" if e.cut else "fixed", test_config.end_silence_ms,
                                                     None), e


def test_replay_writes_transcript_and_event_log(asr_replays):
    item, result = asr_replays[0]
    transcript = (result.folder / "transcript.txt").read_text()
    assert transcript.startswith("user: ") and "hearth: " in transcript
    kinds = [line.split('"event": "')[1].split('"')[0] for line in (result.folder / "events.jsonl").read_text().splitlines()]
    assert kinds[0] == "speech_start" and "first_audio" in kinds and kinds[-1] == "reply_done"
