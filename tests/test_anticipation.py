import pytest

from assistant.pipeline.anticipation import stands_in_for, still_valid


@pytest.mark.parametrize("partial, final, expected", [
    ("can you remind me what my dog", "Can you remind me what my dog is called?", True),
    ("what was I worried about", "What was I worried about last time?", True),
    ("Tell me about", "Tell me about my sister's trip to Portugal and whether she booked the flights already",
     False),  # the partial saw too little of the request
    ("how is the weather", "Actually, never mind. How is my dog?", False),
    ("", "anything", False),
    ("hello", "", False),
    # heard from audio cut off mid-word, and numbers written either way (from the shared clips)
    ("7 of Club", "7 of clubs", True),
    ("Four queen of", "4 queen of clubs", False),  # the suit not yet heard
    ("Four Queen of Clug", "4 queen of clothes", False),
    ("And so my fella", "and so my fellow", True),
    # the final words go on to name a thing the lookup had nothing to find by
    ("And so my fella", "and so my fellow Americans", False),
    ("Hello again, can you remind me", "Hello again, can you remind me what my dog is called?", False),
    ("Hello again. Can you remind me what my d-", "Hello again, can you remind me what my dog is called?", False),
    ("remind me what my dog", "Remind me what my cat is called.", False),
    ("remind me what my apples", "Remind me what my cat is, a pet?", False),  # "a" is not "apples" begun
    # a partial that stopped before the thing it was about
    ("can you remind me what my", "Can you remind me what my dog is called?", False),
    ("what did I tell you about my", "What did I tell you about my sister?", False),
    ("Tell me about the", "Tell me about the.", True),
])
def test_anticipation_holds_when_the_final_words_carry_on_from_the_partial(partial, final, expected):
    assert still_valid(partial, final) is expected


def test_a_partial_stands_in_for_the_final_words_once_it_heard_half_of_them():
    assert stands_in_for("Four Queen of Clug", "4 queen of clothes")
    assert stands_in_for("what did my sister", "what did my sister say about the wedding")
    assert not stands_in_for("Tell me", "Tell me about my sister's trip to Portugal")
    assert not stands_in_for("", "anything") and not stands_in_for("hello", "")


def test_a_follow_up_that_names_nothing_is_looked_up_with_the_turn_before():
    from assistant.pipeline.recalling import looked_up
    from assistant.reply.prompt import History

    history = History()
    assert looked_up("What did I do before that?", history) == "What did I do before that?"  # nothing before it
    history.add("Where do I work now?", "You work at the bakery.")
    assert looked_up("What did I do before that?", history) == "Where do I work now? What did I do before that?"
    assert looked_up("How is she?", history) == "Where do I work now? How is she?"  # she is no one named
    assert looked_up("What is my dog called?", history) == "What is my dog called?"  # it names its own matter


def test_a_she_is_looked_up_as_whom_the_turns_before_named():
    from assistant.pipeline.recalling import looked_up
    from assistant.reply.prompt import History

    history = History()
    history.add("Hi, I'm Tom. My sister Anna is coming to visit on Saturday.", "How lovely!")
    history.add("What should I cook for her?", "Maybe a roast.")
    assert looked_up("Actually she cancelled, she has the flu.", history, ("Tom",)) == \
        "Actually Anna cancelled, she has the flu."
    assert looked_up("How is she?", history) == "How is Anna?"
    assert looked_up("He is coming too.", history) == "He is coming too."  # Anna is no he
