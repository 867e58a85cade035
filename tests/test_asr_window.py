"""The Whisper encoder window fitted to the utterance: the arithmetic at its edges, the runaway check,
and the real model on the shared clips (a runaway decode is done again in the full window)."""

from audio.sources import read_audio_file
from conftest import items
from models.asr import ran_away, window_seconds, without_loop
from wer import word_errors

# Measured with the bundled tiny.en (int8, beam 1) on the 17 asr clips, file by file:
# faster-whisper's full window 4.2% WER, the fitted window with its fallback 5.1% (12 against 10 errors).
FITTED_WER = 0.051
WER_MARGIN = 0.02


def test_a_short_utterance_gets_a_short_window_with_room_to_spare():
    assert window_seconds(0.5) == 10
    assert window_seconds(8.9) == 10  # 8.9 s + 1 s margin fits in 10 s
    assert window_seconds(9.1) == 20


def test_long_utterances_keep_whispers_full_window():
    assert window_seconds(19.1) == 30
    assert window_seconds(29.5) == 30
    assert window_seconds(45.0) == 30  # longer audio is transcribed window by window


def test_a_decode_that_repeats_itself_has_run_away():
    # both seen from tiny.en in a 5 s window on the shared clips
    assert ran_away("10 of clubs 10 of clubs 10 of clubs 10 of", 2.1)
    assert ran_away("He was not an old-s-s-y-y-y-y", 4.0)
    assert ran_away("5 5 5 5 5 5 5 5", 2.6)


def test_a_loop_that_the_usual_decode_kept_is_cut_to_its_first_pass():
    # heard in the echo benchmark: a person's words over Hearth's echo, transcribed 30 s windowed
    looped = ("Eight of spades, four of close, seven of hearts. Eight of spades, four of close, seven of hearts. "
              "Eight of")
    assert without_loop(looped) == "Eight of spades, four of close, seven of hearts."
    assert without_loop("10 of clubs 10 of clubs 10 of clubs and then") == "10 of clubs and then"
    # said twice, whole, is what was said; so is anything without a run said again
    for said in ("Some sung out, tear down the fence, tear down the fence.", "No, no, no, no.",
                 "Do you think I should take Biscuit to the vet tomorrow?", ""):
        assert without_loop(said) == said


def test_more_words_than_the_time_allows_has_run_away():
    assert ran_away(" ".join(f"word{i}" for i in range(20)), 2.0)
    assert not ran_away(" ".join(f"word{i}" for i in range(12)), 2.0)


def test_ordinary_speech_and_a_phrase_said_twice_are_kept():
    assert not ran_away("Some sung out, tear down the fence, tear down the fence.", 6.4)
    assert not ran_away("Do you think I should take Biscuit to the vet tomorrow?", 3.5)
    assert not ran_away("", 1.0)


def test_the_fitted_window_transcribes_the_shared_clips(engines, speech_dir):
    asr = engines.asr
    fitted_before, full_before = asr.fitted_decodes, asr.full_decodes
    errors = words = 0
    for item in items("asr"):
        e, n = word_errors(item["transcript"], asr.transcribe(read_audio_file(speech_dir / item["path"])))
        errors, words = errors + e, words + n
    fitted, full = asr.fitted_decodes - fitted_before, asr.full_decodes - full_before
    assert fitted + full == len(items("asr"))
    assert fitted >= len(items("asr")) * 3 // 4  # the fitted window is the rule, the full one the exception
    assert errors / words <= FITTED_WER + WER_MARGIN, f"WER {errors / words:.3f}"


def test_a_runaway_decode_is_done_again_in_the_full_window(engines, speech_dir):
    # cards-001 ("10 of clubs", 2.1 s) makes tiny.en repeat itself in a 5 s window
    item = next(i for i in items("asr") if i["path"].endswith("cards-001.wav"))
    full_before = engines.asr.full_decodes
    text = engines.asr.transcribe(read_audio_file(speech_dir / item["path"]))
    assert engines.asr.full_decodes == full_before + 1
    assert word_errors(item["transcript"], text)[0] == 0, text


def test_a_partial_is_the_fitted_decode_alone(engines, speech_dir):
    asr = engines.asr
    jfk = read_audio_file(speech_dir / next(i["path"] for i in items("asr") if "jfk" in i["path"]))[:16000 * 4]
    assert asr.transcribe_partial(jfk) == asr.transcribe(jfk)
    # the person stopped while it encoded: no decode, no text
    assert asr.transcribe_partial(jfk, wanted=lambda: False) is None
    # an unsure or runaway decode gives no partial rather than the full window's three times the work
    cards = read_audio_file(speech_dir / next(i["path"] for i in items("asr") if i["path"].endswith("cards-001.wav")))
    full_before = asr.full_decodes
    assert asr.transcribe_partial(cards) is None
    assert asr.full_decodes == full_before
