"""What of a reply is voiced: a bad start begun again, later copies left unsaid (pure, on scripted replies)."""

from __future__ import annotations

import pytest

from assistant.reply.guard import TRIES, begun_well, continued, own_words

HEARD = "I planted tomatoes in the garden this spring."


def scripted(*replies: list[str]):
    """make_pieces for begun_well: each call starts the next scripted reply; what was avoided is kept."""
    calls: list[str] = []
    closed: list[int] = []

    def make(avoid: str):
        n = len(calls)
        calls.append(avoid)

        def pieces():
            try:
                yield from replies[n]
            finally:
                closed.append(n)
        return pieces()
    return make, calls, closed


def test_a_good_start_is_voiced_as_it_came_from_one_try():
    make, calls, _ = scripted(["How lovely,", "what kind are they?"])
    assert list(begun_well(make, HEARD)) == ["How lovely,", "what kind are they?"]
    assert calls == [""]


def test_a_parrot_is_begun_again_avoiding_its_start():
    make, calls, closed = scripted(["Omar planted tomatoes in the garden this spring."], ["Lovely!", "Which kind?"])
    assert list(begun_well(make, HEARD)) == ["Lovely!", "Which kind?"]
    assert calls == ["", "Omar planted tomatoes in the garden this spring."]
    assert 0 in closed  # the thrown-away reply's generation was stopped


def test_an_apology_waits_for_the_next_piece_before_it_is_judged():
    make, calls, _ = scripted(["I'm sorry,", "but I can't assist with that."], ["Oh no,", "what happened?"])
    assert list(begun_well(make, "My phone broke today.")) == ["Oh no,", "what happened?"]
    make, calls, _ = scripted(["I'm sorry,", "that sounds hard."])
    assert list(begun_well(make, "My phone broke today.")) == ["I'm sorry,", "that sounds hard."]
    assert calls == [""]


def test_the_last_try_is_voiced_when_it_is_only_weak_and_every_start_is_avoided():
    weak = ["Dana just said she walked the dog."]  # narrates, where a try could have answered
    make, calls, _ = scripted(*([weak] * TRIES))
    assert list(begun_well(make, "I walked the dog.")) == weak
    assert calls[-1].splitlines() == weak * (TRIES - 1)


@pytest.mark.parametrize("start, heard", [
    ("I'm sorry, but I can't assist with that.", "Tell me about my day."),            # a refusal
    ("You are doing well,", "I did three night shifts in a row and I can hardly think."),  # praise untold
    ("You are experiencing a lot of stress.", "Our washing machine flooded the kitchen."),  # a feeling untold
])
def test_a_last_try_no_reply_may_say_is_not_voiced(start, heard):
    make, _, _ = scripted(*([[start]] * TRIES))
    assert list(begun_well(make, heard)) == []  # the caller acknowledges instead


def test_nothing_said_is_nothing_voiced():
    make, calls, _ = scripted([])
    assert list(begun_well(make, HEARD)) == []


def test_later_sentences_that_copy_are_left_unsaid():
    heard = "I just got back from a long walk with my dog Max."
    earlier = ["How lovely, what a nice day for it."]
    pieces = iter(["Hi Dana,", "I just got back from a long walk with my dog Max.", "How lovely, what a nice day for it.",
                   "Is Max tired now?"])
    assert list(own_words(pieces, heard, earlier)) == ["Hi Dana,", "Is Max tired now?"]


def test_the_first_piece_is_left_to_begun_well():
    assert list(own_words(iter(["I just got back from a long walk."]), "I just got back from a long walk.", [])) == \
        ["I just got back from a long walk."]


def test_a_start_copied_from_an_earlier_reply_is_begun_again():
    earlier = ["I'm sorry, but I don't know what your dog is called."]
    make, calls, _ = scripted(["I'm sorry,", "but I don't know what your dog is called."], ["You were worried about Max."])
    assert list(begun_well(make, "What was I worried about?", earlier)) == ["You were worried about Max."]


def test_a_piece_turned_to_you_carries_on_its_sentence():
    assert continued("Last time,", "You were worried.") == "you were worried."
    assert continued("That was lovely.", "Your dog is Max.") == "Your dog is Max."
    assert continued("", "You were worried.") == "You were worried."


def test_a_start_that_only_repeats_the_question_is_judged_with_what_follows_it():
    copied = "I had a long day at work today."  # a worked example's words: not to be copied
    make, calls, _ = scripted(["Before that,", copied], ["You went to the market."])
    assert list(begun_well(make, "What did I do before that?", [copied])) == ["You went to the market."]
    assert calls == ["", f"Before that, {copied}"]


def test_a_reply_taken_from_the_examples_notes_is_begun_again_and_never_voiced():
    def borrowed(piece: str) -> bool:
        return "pasta" in piece

    make, calls, _ = scripted(["You should not eat pasta."], ["I don't know,", "you haven't told me."])
    assert list(begun_well(make, "Is there anything I shouldn't eat?", [], borrowed)) == \
        ["I don't know,", "you haven't told me."]
    pieces = iter(["You should not eat pasta.", "Nothing else comes to mind."])
    assert list(own_words(pieces, "Is there anything I shouldn't eat?", [], borrowed)) == ["Nothing else comes to mind."]


def test_a_start_whose_second_piece_would_be_left_unsaid_is_begun_again():
    heard = "What did I do before that?"
    make, calls, _ = scripted(["Before that,", "what did you do before that?"], ["You taught at Hillside."])
    assert list(begun_well(make, heard)) == ["You taught at Hillside."]


def test_a_lead_in_whose_sentence_is_the_persons_own_is_begun_again():
    # live at 60%: "You know," was voiced and "Lily started at a new school this week." left unsaid
    heard = "Hi, I'm Sam. My daughter Lily started at a new school this week."
    make, calls, _ = scripted(["You know,", "Lily started at a new school this week."], ["How exciting for her!"])
    assert list(begun_well(make, heard)) == ["How exciting for her!"]
    assert calls == ["", "You know, Lily started at a new school this week."]  # its first token is avoided


def test_a_last_try_that_would_leave_a_fragment_is_not_voiced():
    copied = "I had a long day at work today."
    make, calls, _ = scripted(*([["Before that,", copied]] * TRIES))
    assert list(begun_well(make, "What did I do before that?", [copied])) == []
    assert len(calls) == TRIES


def test_a_piece_that_ends_a_sentence_is_judged_with_its_start():
    earlier = ["You work at Hillside School."]
    pieces = iter(["You quit teaching maths", "at Hillside School.", "At Hillside School."])
    assert list(own_words(pieces, "What did I do before that?", earlier)) == \
        ["You quit teaching maths", "at Hillside School."]


def test_a_start_that_says_it_does_not_know_what_it_was_told_is_begun_again():
    asked = "Can you remind me what my dog is called?"
    make, calls, _ = scripted(["I don't know,", "you haven't told me your dog's name."], ["My dog is Max."])
    assert list(begun_well(make, asked, known="I walked my dog Max.")) == ["My dog is Max."]
    assert calls == ["", "I don't know,"]  # the second try may not begin with the first one's first token


def test_not_knowing_what_nothing_holds_is_voiced_from_the_first_try():
    make, calls, _ = scripted(["I don't know,", "you haven't told me your favourite film."])
    assert list(begun_well(make, "What's my favourite film?", known="I walked my dog Max.")) == \
        ["I don't know,", "you haven't told me your favourite film."]
    assert calls == [""]


def test_a_last_try_that_still_says_it_does_not_know_is_voiced():
    make, calls, _ = scripted(*([["I don't know,", "you haven't said."]] * TRIES))
    assert list(begun_well(make, "How old is my dog?", known="I walked my dog Max.")) == \
        ["I don't know,", "you haven't said."]
    assert len(calls) == TRIES


def test_a_last_try_that_says_it_was_never_told_what_was_just_told_is_not_voiced():
    """(heard live: "I don't have information about the train cancellation and my late work.");
    the caller acknowledges instead."""
    make, calls, _ = scripted(*([["I don't have information about the train cancellation."]] * TRIES))
    assert list(begun_well(make, "The train was cancelled again and I was late for work.")) == []
    assert len(calls) == TRIES


def test_a_later_piece_that_hands_them_a_feeling_they_did_not_tell_is_left_unsaid():
    heard = "I have had such a long day, my manager moved the deadline again."  # heard live
    pieces = iter(["That sounds so annoying.", "I'm glad you're feeling better."])
    assert list(own_words(pieces, heard, [])) == ["That sounds so annoying."]


def test_a_later_stock_phrase_nothing_earned_is_left_unsaid():
    heard = "We got the keys to our new flat today!"  # heard live: no thanks, and "You're welcome."
    pieces = iter(["That's great!", "You're welcome.", "Enjoy your new home."])
    assert list(own_words(pieces, heard, [])) == ["That's great!", "Enjoy your new home."]
    thanked = iter(["Thank you for the flowers!", "You're welcome.", "Enjoy them."])  # earned by thanks
    assert list(own_words(thanked, "Thanks for the tip about the florist!", [])) == \
        ["Thank you for the flowers!", "You're welcome.", "Enjoy them."]


def test_not_knowing_again_about_another_thing_is_said_whole():
    # heard on a replies run: the second answer of not knowing was left "I don't know,"
    earlier = ["I don't know, you haven't told me your son's name yet."]
    pieces = iter(["I don't know,", "you haven't told me what's happening tomorrow."])
    assert list(own_words(pieces, "What is happening tomorrow?", earlier)) == \
        ["I don't know,", "you haven't told me what's happening tomorrow."]
    # told something, an earlier reply's words are still not said again
    pieces = iter(["Oh,", "I don't know, you haven't told me your son's name yet."])
    assert list(own_words(pieces, "My son starts school next week.", earlier)) == ["Oh,"]
    # nor is it begun again as a copy of the first (heard on replies-more.json: "Tomorrow is going
    # to be a busy day." was said instead)
    whole = ["I don't know, you haven't told me what's happening tomorrow."]
    make, calls, _ = scripted(whole)
    assert list(begun_well(make, "What is happening tomorrow?", earlier)) == whole and calls == [""]


def test_a_last_try_that_hands_them_a_feeling_they_did_not_tell_is_not_voiced():
    """(heard on the replies benchmark, three tries at "…my manager moved the deadline again.": the last
    voiced "You are very sorry for the inconvenience."); the caller acknowledges instead."""
    heard = "I have had such a long day, my manager moved the deadline again."
    make, calls, _ = scripted(*([["You are very sorry", "for the inconvenience."]] * TRIES))
    assert list(begun_well(make, heard)) == [] and len(calls) == TRIES
    make, calls, _ = scripted(*([["You must be fed up,", "that's the second time."]] * TRIES))
    assert list(begun_well(make, heard)) == ["You must be fed up,", "that's the second time."]


def test_bad_news_cheered_is_begun_again_and_never_voiced():
    died = "Our neighbour passed away last night."
    make, calls, _ = scripted(["That's great to hear!"], ["I'm so sorry.", "Were you close?"])
    assert list(begun_well(make, died, bad_news=lambda heard: True)) == ["I'm so sorry.", "Were you close?"]
    make, calls, _ = scripted(*([["That's great to hear!"]] * TRIES))
    assert list(begun_well(make, died, bad_news=lambda heard: True)) == []
    make, calls, _ = scripted(["That's great to hear!"])
    assert list(begun_well(make, "We won the quiz!", bad_news=lambda heard: False)) == ["That's great to hear!"]


def test_a_clause_that_says_their_words_back_is_begun_again_before_the_rest_is_made():
    # read aloud, the model copied the sentence; waiting for its second piece cost 25 words' generation
    heard = "For although the Chinese took impressions from wood blocks engraved in relief"
    made: list[str] = []

    def make(avoid: str):
        def pieces():
            for piece in (["For although the Chinese took impressions", "from wood blocks engraved in relief."]
                          if not avoid else ["What a vivid passage."]):
                made.append(piece)
                yield piece
        return pieces()
    assert list(begun_well(make, heard)) == ["What a vivid passage."]
    assert made == ["For although the Chinese took impressions", "What a vivid passage."]


def test_an_apology_whose_next_clause_refuses_is_begun_again():
    heard = "Just so you know, I'm allergic to peanuts. It's quite serious."
    make, calls, _ = scripted(["I'm sorry,", "but I can't assist", "with that."], ["Thanks for telling me,", "I'll remember."])
    assert list(begun_well(make, heard)) == ["Thanks for telling me,", "I'll remember."]


def test_a_lead_in_does_not_make_their_words_its_own():
    # the replies benchmark: "You know," made "Max is a bit worried" look like something of its own
    heard = "I'm a bit worried because Max has been limping on his back leg since Sunday."
    make, calls, _ = scripted(["You know,", "Max is a bit worried"], ["Oh no, poor Max.", "Has he seen a vet?"])
    assert list(begun_well(make, heard)) == ["Oh no, poor Max.", "Has he seen a vet?"]


def test_a_last_try_that_only_says_their_words_back_is_not_voiced():
    heard = "Good morning, it's raining again here."
    make, calls, _ = scripted(["Good morning,", "it's raining again here."], ["You know,", "it's raining again here."],
                              ["It's raining again here."])
    assert list(begun_well(make, heard)) == [] and len(calls) == TRIES


def test_a_last_try_that_reads_out_a_note_to_something_told_is_not_voiced():
    heard = "I'm thinking of learning the piano this year."
    known = "- The train was cancelled again and Dana was late for work."
    note = ["The train was cancelled again", "and you were late for work."]
    make, calls, _ = scripted(note, ["You are thinking of learning the piano this year."], note)
    assert list(begun_well(make, heard, known=known)) == [] and len(calls) == TRIES
    make, calls, _ = scripted(note, ["How exciting,", "what made you choose the piano?"])
    assert list(begun_well(make, heard, known=known)) == ["How exciting,", "what made you choose the piano?"]


def test_a_last_try_about_another_thing_told_before_is_not_voiced():
    # heard live: every try at a reply to a brother who moved away took up the exam told before
    heard = "My brother moved to Spain in the spring and I really miss him."
    known = "- Sam is dreading Sam's exam on Friday. Sam feels nervous because of the exam."
    other = ["You are very nervous about the exam", "because it is on Friday."]
    make, calls, _ = scripted(other, other, other)
    assert list(begun_well(make, heard, known=known)) == [] and len(calls) == TRIES
    make, calls, _ = scripted(other, ["Oh, you must miss him a lot."])
    assert list(begun_well(make, heard, known=known)) == ["Oh, you must miss him a lot."]
    # sympathy cut before what it is for waits for it: heard live, "I'm sorry to hear" was voiced alone
    make, calls, _ = scripted(["I'm sorry to hear", "that you're feeling nervous about the exam."],
                              ["I'm sorry to hear", "that, you must miss him."])
    assert list(begun_well(make, heard, known=known)) == ["I'm sorry to hear", "that, you must miss him."]
    assert len(calls) == 2


def test_a_stock_opening_after_a_lead_in_is_begun_again():
    # heard live: kept from the first token, "it's normal" came after "You know,"
    heard = "I'm a bit worried, because Max has been limping on his back leg since Sunday."
    make, calls, _ = scripted(["You know,", "it's normal to feel a bit worried."], ["Oh no,", "has Max seen a vet?"])
    assert list(begun_well(make, heard)) == ["Oh no,", "has Max seen a vet?"]
    assert calls[1] == "You know, it's normal to feel a bit worried."


def test_a_last_try_that_says_an_earlier_reply_again_is_not_voiced():
    heard = "I'm a bit worried, because Max has been limping on his back leg since Sunday."
    make, calls, _ = scripted(*[["Hi, Dana."]] * TRIES)
    assert list(begun_well(make, heard, ["Hi, Dana."])) == [] and len(calls) == TRIES


def test_later_praise_of_how_they_are_doing_that_they_did_not_tell_is_left_unsaid():
    pieces = iter(["Hi Sam!", "You're doing really well.", "How was the fence?"])
    assert list(own_words(pieces, "Hi, I'm Sam. We painted the fence today.", [])) == ["Hi Sam!", "How was the fence?"]
    # and the "How about you?" that only followed the praise goes with it
    pieces = iter(["Hi Sam!", "You're doing really well.", "How about you?", "Was it hard work?"])
    assert list(own_words(pieces, "Hi, I'm Sam. We painted the fence today.", [])) == ["Hi Sam!", "Was it hard work?"]
    assert list(own_words(iter(["I'm well, thanks.", "How about you?"]), "How are you?", [])) == \
        ["I'm well, thanks.", "How about you?"]


def test_told_something_a_first_clause_of_only_what_they_told_before_waits_for_the_next():
    """("You are teaching Mass" to "I quit teaching…", then "at Hillside School.": a note read out)"""
    known = "Tom is teaching maths at Hillside School."
    heard = "I quit teaching last week, I'm at my uncle's bakery now."
    make, calls, _ = scripted(["You are teaching maths", "at Hillside School."], ["A bakery,", "how lovely!"])
    assert list(begun_well(make, heard, known=known)) == ["A bakery,", "how lovely!"]
    assert calls[1] == "You are teaching maths at Hillside School."
    make, calls, _ = scripted(["Your uncle's bakery", "sounds lovely."])
    assert list(begun_well(make, heard, known=known)) == ["Your uncle's bakery", "sounds lovely."]
    assert calls == [""]


def test_a_later_piece_that_tells_them_anothers_doing_as_theirs_is_left_unsaid():
    told = "My sister is coming to visit on Saturday."
    pieces = iter(["That sounds lovely!", "I'm glad you're coming to visit.", "What will you do together?"])
    assert list(own_words(pieces, told, [])) == ["That sounds lovely!", "What will you do together?"]


def test_a_refusal_after_the_first_piece_is_left_unsaid():
    # live: "That sounds like a bit of a miscommunication. I'm sorry, but I can't assist with that."
    pieces = iter(["That sounds like a bit of a miscommunication.", "I'm sorry, but I can't assist with that."])
    assert list(own_words(pieces, "I am going to visit the wrong Saturday.", [])) == \
        ["That sounds like a bit of a miscommunication."]
