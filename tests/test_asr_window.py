"""The Whisper encoder window fitted to the utterance: pure arithmetic, checked at its edges."""

from models.asr import window_seconds


def test_a_short_utterance_gets_a_short_window_with_room_to_spare():
    assert window_seconds(0.5) == 5
    assert window_seconds(3.9) == 5  # 3.9 s + 1 s margin fits in 5 s
    assert window_seconds(4.1) == 10


def test_long_utterances_keep_whispers_full_window():
    assert window_seconds(28.9) == 30
    assert window_seconds(29.5) == 30
    assert window_seconds(45.0) == 30  # longer audio is transcribed window by window, as before
