import pytest

from assistant.pipeline.end_silence import end_silence_for


@pytest.mark.parametrize("partial, expected", [
    ("", 500),
    ("What time is it?", 350),
    ("I went to the shop.", 500),
    ("and then I", 800),
    ("I was thinking about my sister and", 800),
    ("Well, um", 800),
    ("So the thing is...", 800),
    ("It was great,", 800),
    ("the apostle of the middle classes, and we", 800),
    ("impressions from", 800),
    ("Can you remind me what my dog is called?", 350),
])
def test_end_silence_follows_how_the_sentence_ends(partial, expected):
    assert end_silence_for(partial, 500) == expected


def test_bounds_can_be_given():
    assert end_silence_for("really?", 500, shorter_ms=250) == 250
    assert end_silence_for("and", 500, longer_ms=1200) == 1200
