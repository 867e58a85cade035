from assistant.reply.prompt import (EXAMPLES, NOTES_INTRO, SYSTEM_PROMPT, UNNAMED, History, build_messages, carry_notes,
                                    in_my_words, renewed_notes, same_reply)
from memory.ranking import estimate_tokens


def test_prompt_prefix_is_shared_between_turns_and_memory_comes_last():
    history = History(max_turns=3)
    first = build_messages("How is Biscuit?", history, "- Biscuit has a sore leg (two days ago)")
    history.add("How is Biscuit?", "He is resting.")
    second = build_messages("And Anna?", history, "- Anna is planning a trip")
    assert first[0] == second[0] and first[0]["content"] == SYSTEM_PROMPT.format(person=UNNAMED)
    shown = 1 + 2 * len(EXAMPLES)  # the system prompt, then the worked examples, then the history
    assert first[:shown] == second[:shown]
    assert second[shown:shown + 2] == [{"role": "user", "content": "How is Biscuit?"},
                                       {"role": "assistant", "content": "He is resting."}]
    assert second[-1]["role"] == "user" and "Anna is planning" in second[-1]["content"]
    assert second[-1]["content"].endswith("\n\nAnd Anna?")


def test_notes_are_in_the_persons_own_words_and_the_question_comes_last():
    notes = "2 March 2026 (two days ago):\n- Dana's dog Max is limping.\n- Dana is worried about Max."
    messages = build_messages("How is my dog?", History(), notes, speaker="Dana")
    last = messages[-1]["content"]
    assert last == (f"{NOTES_INTRO}\n2 March 2026 (two days ago):\n- My dog Max is limping.\n"
                    "- I am worried about Max.\n\nHow is my dog?")
    assert "Dana" in messages[0]["content"] and "Dana" not in last


def test_no_memory_no_notes_and_history_is_bounded():
    history = History(max_turns=4)
    for n in range(5):
        history.add(f"q{n}", f"a{n}")
    messages = build_messages("hi", history, "", speaker="Dana")
    shown = [text for example in EXAMPLES for text in example]
    assert [m["content"] for m in messages[1:]] == shown + ["q3", "a3", "q4", "a4", "hi"]
    assert [m["role"] for m in messages[1:len(shown) + 1]] == ["user", "assistant"] * len(EXAMPLES)
    assert "Dana" in messages[0]["content"]


def test_the_history_prefix_stays_put_between_trims():
    history = History(max_turns=6)
    starts = []
    for n in range(14):
        history.add(f"q{n}", f"a{n}")
        starts.append(history.turns[0][0])
    # the oldest kept turn (the start of every prompt after the system prompt) changes only now and then
    changes = sum(a != b for a, b in zip(starts, starts[1:]))
    assert changes <= 3 and len(history.turns) <= 6


def test_long_replies_are_kept_to_their_first_words():
    history = History(max_reply_words=5)
    history.add("q", "one two three four five six seven")
    assert history.turns[0][1] == "one two three four five…"


def test_the_prompt_evaluated_between_turns_begins_the_next_one():
    """What the responder evaluates while the person thinks (no words yet, the last notes) is a prefix
    of the next prompt when the notes stay the same, so llama.cpp keeps all of it."""
    history = History()
    history.add("How is Biscuit?", "He is resting.")
    notes = "- Biscuit has a sore leg (two days ago)"
    ahead = build_messages("", history, notes, speaker="Dana")
    then = build_messages("Should I call the vet?", history, notes, speaker="Dana")
    assert ahead[:-1] == then[:-1]
    assert then[-1]["content"].startswith(ahead[-1]["content"]) and ahead[-1]["content"].endswith(notes + "\n\n")


PREVIOUS = ("3 May 2026 (three weeks ago):\n- Dana's dog Biscuit is a three-year-old beagle.\n"
            "Today:\n- Biscuit has been limping since Sunday.")


def test_carried_notes_keep_the_cached_lines_and_add_only_what_is_new():
    fresh = ("1 May 2026 (four weeks ago):\n- Dana works night shifts as a nurse.\n"
             "Today:\n- Biscuit has been limping since Sunday.")
    carried = carry_notes(PREVIOUS, fresh, limit_tokens=200)
    assert carried.startswith(PREVIOUS + "\n")  # the cached prefix is untouched
    assert carried.endswith("1 May 2026 (four weeks ago):\n- Dana works night shifts as a nurse.")
    assert carried.count("limping") == 1


def test_a_line_cut_differently_for_the_new_question_is_not_added_twice():
    fresh = "3 May 2026 (three weeks ago):\n- Biscuit is a three-year-old beagle."
    assert carry_notes(PREVIOUS, fresh, limit_tokens=200) == PREVIOUS


def test_notes_start_again_when_carrying_would_make_them_too_long_or_none_are_recalled():
    fresh = "Today:\n- " + " ".join(f"word{i}" for i in range(30))
    assert carry_notes(PREVIOUS, fresh, limit_tokens=40) == fresh
    assert carry_notes(PREVIOUS, fresh, limit_tokens=200).startswith(PREVIOUS)
    assert carry_notes(PREVIOUS, "", limit_tokens=200) == ""
    assert carry_notes("", fresh, limit_tokens=200) == fresh


def test_a_carried_line_the_fresh_recall_found_put_in_the_past_goes_with_its_header():
    # told that Biscuit was given away, memory put the beagle in the past; the old line must not
    # stay in the notes beside what is true now
    fresh = "Today:\n- Dana gave Biscuit to her sister's farm, Dana has a cat called Pip now."
    past = ["Dana's dog Biscuit is a three-year-old beagle, he sleeps in the kitchen."]
    carried = carry_notes(PREVIOUS, fresh, limit_tokens=200, past=past)
    assert carried == "Today:\n- Biscuit has been limping since Sunday.\n" + fresh
    assert carry_notes(PREVIOUS, fresh, limit_tokens=200).startswith(PREVIOUS)  # nothing past: as cached


def test_between_turns_notes_grown_past_one_budget_go_back_to_the_last_recall():
    last_recall = "Today:\n- Biscuit has been limping since Sunday."
    grown = PREVIOUS + "\n1 May 2026 (four weeks ago):\n- Dana works night shifts as a nurse."
    budget = estimate_tokens(grown) - 1
    assert renewed_notes(grown, last_recall, budget) == last_recall
    assert renewed_notes(grown, last_recall, budget + 1) == grown  # within the budget: kept as cached
    assert renewed_notes(grown, "", budget) == grown  # nothing recalled last: nothing better to go to


def test_a_reply_that_only_parrots_is_left_out_of_the_history():
    h = History()
    h.add("Chapter 6.", "Chapter 6.")  # the person's words back
    h.add("They swarmed up in front of the pailings.", "They swarmed up in front of the pailings!")
    h.add("Tell me about Portugal.", "Portugal is lovely in June, Dana.")
    assert h.turns == [("Tell me about Portugal.", "Portugal is lovely in June, Dana.")]


def test_a_repeated_reply_takes_the_turn_it_copies_out_of_the_history_and_the_history_moves_on():
    h = History()
    h.add("How was your day?", "Lovely, thank you.")
    thanks = "Thank you for sharing that information! I'm glad I could help. Let me know if you have more questions."
    h.add("Seeing that we are tired out.", thanks)
    h.add("With walking and watching.", thanks.replace("sharing that", "the"))  # nearly the same words
    assert h.turns == [("How was your day?", "Lovely, thank you.")]  # neither copy is left to be copied
    h.add("And Lisbon?", "Lisbon is hilly, with trams.")
    assert [reply for _, reply in h.turns] == ["Lovely, thank you.", "Lisbon is hilly, with trams."]
    assert not same_reply("Lisbon is hilly, with trams.", "Porto is hilly, with bridges and port wine.")


def test_replies_that_use_the_persons_words_are_kept():
    h = History()
    h.add("How is my dog doing?", "Your dog is doing well.")
    h.add("Thanks.", "You're welcome.")
    h.add("My dog Biscuit has been limping since Sunday and I am worried.", "Limping since Sunday?")
    assert [reply for _, reply in h.turns] == ["Your dog is doing well.", "You're welcome.", "Limping since Sunday?"]


def test_an_integrative_memory_is_given_as_its_sentences_without_its_labels():
    notes = ("1 December 2026 (today):\n- Earlier: 1 December 2026: Dana walked her dog Max. "
             "Now: Dana is worried about Max.\n- Earlier: Dana lived in Leeds. Now (3 May 2026): Dana lives in Bristol.")
    last = build_messages("Where do I live?", History(), notes, speaker="Dana")[-1]["content"]
    assert "- I walked her dog Max. I am worried about Max.\n" in last
    assert "- I lived in Leeds. I live in Bristol.\n" in last
    assert "Earlier" not in last and "Now" not in last


def test_a_day_a_note_named_relative_to_when_it_was_said_is_given_as_its_date():
    block = ("12 January 2026 (four months ago):\n- Tom started a new job today (12 January 2026).\n"
             "- Tom's dog has limped since Sunday (11 January 2026). Tom quit the gym last week (5 January 2026).")
    notes = in_my_words(block, "Tom")
    assert "I started a new job on 12 January 2026." in notes
    assert "My dog has limped since 11 January 2026." in notes
    assert "last week (5 January 2026)" in notes  # a week is not one day: its words stay
    assert "today" not in notes


def test_a_feelings_note_reads_as_a_sentence_in_their_words():
    block = ("1 December 2026 (two days ago):\n"
             "- Marcus feels worried about Laurie: Marcus's daughter, Laurie, is learning to drive")
    assert in_my_words(block, "Marcus").splitlines()[-1] == \
        "- I feel worried about Laurie because my daughter, Laurie, is learning to drive"
