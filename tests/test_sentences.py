from assistant.reply.sentences import sentences_from_tokens, split_complete, spoken_form
from assistant.reply.prompt import NOTES_INTRO


def stream(text: str, size: int = 3):
    """The text a few characters a token, as a generator, as the language model's stream is."""
    yield from (text[i : i + size] for i in range(0, len(text), size))


def pieces(*tokens: str):
    yield from tokens


def test_sentences_come_out_as_they_complete():
    got = list(sentences_from_tokens(stream("Hello there, Dana. How was the walk today? I hope Biscuit enjoyed it!")))
    assert got == ["Hello there, Dana.", "How was the walk today?", "I hope Biscuit enjoyed it!"]


def test_a_typographic_apostrophe_comes_out_plain():
    # the word checks read "can’t" as "can" and "t": "I can’t sleep" passed as no copy of "I can't sleep"
    assert list(sentences_from_tokens(pieces("I can", "\u2019t", " sleep."))) == ["I can't sleep."]


def test_first_sentence_is_released_before_the_stream_ends():
    tokens = stream("It is sunny outside today. And tomorrow it will rain a lot")
    gen = sentences_from_tokens(tokens)
    assert next(gen) == "It is sunny outside today."
    assert list(tokens)  # tokens were still left when the first sentence came out


def test_abbreviations_decimals_and_initials_do_not_split():
    got = list(sentences_from_tokens(stream("Dr. Smith said it costs 3.5 dollars. J. R. R. Tolkien wrote it well.")))
    assert got == ["Dr. Smith said it costs 3.5 dollars.", "J. R. R. Tolkien wrote it well."]


def test_very_short_fragments_join_the_next_sentence():
    got = list(sentences_from_tokens(stream("Oh. That sounds like a lovely day out.")))
    assert got == ["Oh. That sounds like a lovely day out."]


def test_unfinished_tail_is_returned_by_split_and_flushed_at_the_end():
    done, rest = split_complete("This one is finished. This one is not")
    assert done == ["This one is finished."] and rest == "This one is not"
    assert list(sentences_from_tokens(pieces("no end mark at all"))) == ["no end mark at all"]


def test_newlines_break_sentences():
    assert list(sentences_from_tokens(pieces("first line without a stop\nsecond line"))) == [
        "first line without a stop", "second line"]


def test_empty_stream_yields_nothing():
    assert list(sentences_from_tokens(pieces())) == []
    assert list(sentences_from_tokens(pieces("  ", ""))) == []


def first_pieces(text: str) -> list[str]:
    """The pieces a streamed reply is voiced in, its first allowed to end early (as in the loop)."""
    return list(sentences_from_tokens(stream(text), first_clause_words=2))


def test_the_first_piece_may_end_at_a_comma_to_start_speaking_sooner():
    text = "Hi there Dana, it is lovely to hear from you, and Biscuit too. How was it?"
    got = first_pieces(text)
    assert got == ["Hi there Dana,", "it is lovely to hear from you, and Biscuit too.", "How was it?"]


def test_after_a_lead_in_of_two_words_the_next_clause_is_cut_early_too():
    # the reply is judged (reply/guard.py) once it is more than a lead-in: "You know," and then a
    # whole sentence read back was generated before the copy could be seen
    text = "You know, Mr. Dashwood's power to do for them is not limited to his own fortune. Yes."
    assert first_pieces(text)[:2] == ["You know,", "Mr. Dashwood's power to do"]
    text = "Hi Dana, it is lovely to hear from you, and Biscuit too. How was it?"
    assert first_pieces(text) == ["Hi Dana,", "it is lovely to hear", "from you, and Biscuit too.", "How was it?"]


def test_a_short_head_before_the_comma_waits_for_more():
    got = first_pieces("Well, that is a fine question to ask.")
    assert got == ["Well, that is a fine question to ask."]


def test_a_short_first_sentence_is_not_held_back_when_speed_matters():
    got = first_pieces("Sure! Here are three ideas for a calm evening.")
    assert got == ["Sure!", "Here are three ideas for a calm evening."]
    got = first_pieces("Dr. Who starts 7.30 tonight, I think.")
    assert got == ["Dr. Who starts 7.30 tonight,", "I think."]


def test_without_an_early_comma_the_first_piece_may_end_before_a_connective():
    text = "Your dog Biscuit is a beagle who loves the park near your flat. Is he better?"
    got = first_pieces(text)
    assert got == ["Your dog Biscuit is a beagle", "who loves the park near your flat.", "Is he better?"]


def test_the_first_piece_is_cut_as_soon_as_its_words_are_to_be_judged():
    judged = []

    def judged_now(words: str) -> bool:
        judged.append(words)
        return words == "Three green parrots"

    got = list(sentences_from_tokens(stream("Three green parrots sat on the roof all morning."), first_clause_words=2,
                                     judged_now=judged_now))
    assert got == ["Three green parrots", "sat on the roof all morning."]
    assert judged[0] == "Three" and "Three green parrot" not in judged  # whole words only, as they come


def test_a_long_first_sentence_may_pause_before_a_preposition_or_is_cut_after_its_tenth_word():
    text = "You remember that China had been influenced by wood blocks engraved in relief. Yes."
    assert first_pieces(text)[0] == "You remember that China had been influenced"
    text = "Mister Quilter is the apostle of the middle classes and we are glad to welcome his gospel."
    assert first_pieces(text)[:2] == ["Mister Quilter is the apostle of the middle classes",
                                      "and we are glad to welcome his gospel."]
    text = "One two three four five six seven eight nine ten eleven twelve thirteen fourteen."
    assert first_pieces(text) == ["One two three four five six seven eight nine ten",
                                  "eleven twelve thirteen fourteen."]


def test_a_piece_never_ends_on_a_word_that_leans_on_the_next():
    text = "I remember that you have read me some of the teachings of Lao Tzu on patience."
    assert first_pieces(text)[0] == "I remember that you have read me some of the teachings"  # not "of the |"
    assert first_pieces("Biscuit loves the park in the morning.")[0] == "Biscuit loves the park"
    assert first_pieces("Your sister is in Lisbon now.") == ["Your sister is in Lisbon now."]


def test_a_connective_too_early_or_only_later_does_not_split():
    got = first_pieces("I think that you should rest today.")
    assert got == ["I think that you should rest today."]  # "that" comes after two words only
    got = first_pieces("It was lovely. The dog and the cat slept well.")
    assert got == ["It was lovely.", "The dog and the cat slept well."]  # only the first piece is cut
    got = list(sentences_from_tokens(stream("Your dog is a beagle who loves parks."), first_clause_words=0))
    assert got == ["Your dog is a beagle who loves parks."]  # the sequential pipeline never cuts early


def test_a_reply_copying_the_notes_layout_is_said_without_it():
    # seen in a soak: the model began its reply with a day header and a bullet from its notes
    assert spoken_form("30 November 2026 (today): - Seeing that you like tea") == "Seeing that you like tea"
    assert spoken_form(NOTES_INTRO) == ""
    assert spoken_form("- You walked Biscuit yesterday.") == "You walked Biscuit yesterday."
    # dates said as part of a sentence stay
    assert spoken_form("On 7 May 2026 you moved to Leeds.") == "On 7 May 2026 you moved to Leeds."
    assert spoken_form("It is -5 degrees - rather cold.") == "It is -5 degrees - rather cold."
    # the date a note put in brackets after the day it names is not read out
    assert spoken_form("Max has been limping since Sunday (1 March).") == "Max has been limping since Sunday."
    assert spoken_form("She marries in June (1 June 2026), in Lisbon.") == "She marries in June, in Lisbon."
    assert spoken_form("She marries in June (June 2027), in Lisbon.") == "She marries in June, in Lisbon."
    assert spoken_form("You painted it last year (2025).") == "You painted it last year."
    assert spoken_form("You flew last week (the week of 3 May 2026).") == "You flew last week."
    assert spoken_form("That was in (most of) March.") == "That was in (most of) March."
    # a header's date and age, copied without the colon: the age alone (seen replying to read speech)
    assert spoken_form("You told me on 1 December 2026 (five days ago) that you moved.") == \
        "You told me five days ago that you moved."
    assert spoken_form("You are telling me about the 6 December 2026 (today) events.") == \
        "You are telling me about today events."


def test_a_list_is_said_without_its_numbers():
    assert spoken_form("1. Rest the knee for a day or two.") == "Rest the knee for a day or two."
    assert spoken_form("2) Ice it.") == "Ice it."
    assert spoken_form("2020 was a long year.") == "2020 was a long year."


def test_a_reply_stops_after_its_last_allowed_sentence_and_the_model_with_it():
    made = []

    def model():  # a generator, as the language model's stream is: closing it stops the generation
        for token in stream("To rest a sore knee,\n1. Rest it.\n2. Ice it often.\n3. Raise it high.\n4. See a doctor."):
            made.append(token)
            yield token

    got = list(sentences_from_tokens(model(), first_clause_words=2, max_sentences=3))
    assert got == ["To rest a sore knee,", "1. Rest it.", "2. Ice it often.", "3. Raise it high."]
    assert "See" not in "".join(made)  # closed there: the fourth point was never generated


def test_half_a_sentence_cut_off_by_the_token_limit_is_left_unsaid():
    text = "Rest the knee for a day. Keep it raised and"
    assert list(sentences_from_tokens(stream(text), cut_short=lambda: True)) == ["Rest the knee for a day."]
    assert list(sentences_from_tokens(stream(text))) == ["Rest the knee for a day.", "Keep it raised and"]
    # a reply that is only half a sentence is still said: something rather than nothing
    assert list(sentences_from_tokens(stream("Keep it raised and"), cut_short=lambda: True)) == ["Keep it raised and"]


def test_sounds_like_a_bit_said_as_sounds_a_bit():
    assert spoken_form("That sounds like a bit scary. Do you want to talk about it?") == \
        "That sounds a bit scary. Do you want to talk about it?"
    assert spoken_form("It looked like a bit much for one day.") == "It looked a bit much for one day."
    assert spoken_form("That sounds like a bit of a worry.") == "That sounds like a bit of a worry."  # as it was
    assert spoken_form("That sounds like a lovely walk.") == "That sounds like a lovely walk."
