import pytest

from assistant.anticipation import still_valid


@pytest.mark.parametrize("partial, final, expected", [
    ("can you remind me what my dog", "Can you remind me what my dog is called?", True),
    ("what was I worried about", "What was I worried about last time?", True),
    ("Tell me about", "Tell me about my sister's trip to Portugal and whether she booked the flights already",
     False),  # the partial saw too little of the request
    ("how is the weather", "Actually, never mind. How is my dog?", False),
    ("", "anything", False),
    ("hello", "", False),
])
def test_anticipation_holds_when_the_final_words_carry_on_from_the_partial(partial, final, expected):
    assert still_valid(partial, final) is expected
