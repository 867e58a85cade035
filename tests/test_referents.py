"""Who "she" or "he" stands for: the person or pet the turns before named (pure)."""

from memory.referents import meant, named_before, resolved

TOLD = ["Hi, I'm Tom. I just moved to Leeds for a new job.", "My sister is coming to visit on Saturday.",
        "What do you think I should cook for her?"]


def test_a_she_is_whom_the_turns_before_last_named_as_the_person_calls_them():
    assert meant("Actually she cancelled, she has the flu.", TOLD, ("Tom",)) == \
        "Actually my sister cancelled, she has the flu."
    assert meant("She's got the flu.", TOLD) == "My sister has got the flu."
    assert meant("She's ill.", TOLD) == "My sister is ill."
    assert meant("He seems better today.", ["My dog Max has been limping."]) == "Max seems better today."


def test_a_him_or_her_done_to_is_whom_the_turns_before_named_too():
    # live: "I am taking him to the Met on Wednesday." was noted so, and not filed under the dog
    limping = ["My dog Biscuit has been limping since Sunday and I'm worried about him."]
    assert meant("I am taking him to the vet on Wednesday.", limping) == "I am taking Biscuit to the vet on Wednesday."
    assert meant("I'm driving her home.", TOLD) == "I'm driving my sister home."
    assert meant("I went to her wedding.", TOLD) == "I went to her wedding."  # whose, not whom
    assert meant("I'm taking her to the vet.", ["My brother Sam is visiting."]) == "I'm taking her to the vet."


def test_a_pronoun_nothing_tells_of_is_left_as_said():
    assert meant("He is ill.", TOLD) == "He is ill."  # the sister is no he
    assert meant("She's ill.", ["My brother Sam is visiting."]) == "She's ill."
    assert meant("She's ill.", ["My parents are visiting."]) == "She's ill."  # several
    assert meant("Actually she cancelled.", ["I moved to Leeds."]) == "Actually she cancelled."  # no one named
    assert meant("My friend said she would come.", TOLD) == "My friend said she would come."  # names its own


def test_the_person_themselves_is_no_one_else():
    assert named_before(["Hi, I'm Tom."]) == []
    assert named_before(["Tom here, I had a long day."], ("Tom",)) == []
    assert [s.said for s in named_before(["I went to Leeds with Anna.", "I'm Tom."])] == ["Anna"]  # the newest naming


def test_a_pronoun_is_said_as_the_name_only_once():
    named = named_before(["My sister Anna is coming."])
    assert resolved("She said she would bring cake.", named) == "Anna said she would bring cake."
    assert resolved("I asked and she said no.", named) == "I asked and Anna said no."
