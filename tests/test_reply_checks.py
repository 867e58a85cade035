"""The general reply checks, as pure functions with their own examples (no scenario's strings)."""

from __future__ import annotations

from memory.affect import Affect
from assistant.reply import checks as rc
from assistant.reply import feelings as rf
from assistant.reply import general_checks as gc
from assistant.reply import guard
from assistant.reply import knowing as kn
from assistant.reply import names as rn
from assistant.reply import openings as ro
from assistant.reply import doings
from assistant.reply import perspective as rp
from assistant.reply import retold as rt
from text.questions import asks, asks_who, done_to_them, is_question, who_does

SAID = ["Morning! I took my cat Pepper to the vet today.", "My brother Tom starts his new job on Monday."]
THINGS = doings.their_things(SAID)


def test_the_words_a_person_calls_theirs():
    assert {"cat", "pepper", "brother", "tom"} <= THINGS
    assert "vet" not in THINGS and "job" not in THINGS


def test_talking_about_the_person_by_name_is_a_slip():
    assert rn.third_person_slips("Sure! Omar remembers Pepper.", "Omar") == ["Omar remembers"]
    assert rn.third_person_slips("Last time, Omar was worried.", "Omar") == ["Omar was"]
    assert rn.third_person_slips("Omar's cat is called Pepper.", "Omar") == ["Omar's cat"]


def test_addressing_the_person_by_name_is_not():
    for reply in ("Hi Omar, your cat is Pepper.", "Your cat is called Pepper, Omar!", "Hello Omar how was the vet?",
                  "Good to hear from you, Omar."):
        assert rn.third_person_slips(reply, "Omar") == [], reply


def test_an_unnamed_person_is_not_the_user():
    assert rn.third_person_slips("Me remembers that.", "me") == []
    assert rn.third_person_slips("The user did not know.", "me") == ["The user did"]
    assert rn.third_person_slips("The user's cat is Pepper.", "Omar") == ["The user's cat"]
    assert rt.second_person("The user did not know.", "", set()) == "You did not know."
    assert rt.second_person("I think the user's cat is Pepper.", "", set()) == "I think your cat is Pepper."


def test_their_things_said_as_hearths_own():
    assert rp.claims_their_things("My cat is called Pepper.", THINGS) == ["My cat is"]
    assert rp.claims_their_things("Your cat is called Pepper.", THINGS) == []
    assert rp.claims_their_things("It's my pleasure.", THINGS) == []


def test_second_person_repairs_slips_and_keeps_the_rest():
    assert rt.second_person("Omar's cat is Pepper.", "Omar", THINGS) == "Your cat is Pepper."
    assert rt.second_person("Last time, Omar was worried about Tom.", "Omar", THINGS) == \
        "Last time, you were worried about Tom."
    assert rt.second_person("Omar remembers it well.", "Omar", THINGS) == "You remember it well."
    assert rt.second_person("Omar has a cat.", "Omar", THINGS) == "You have a cat."
    assert rt.second_person("My brother Tom starts on Monday.", "Omar", THINGS) == "Your brother Tom starts on Monday."
    assert rt.second_person("Hi Omar, how are you?", "Omar", THINGS) == "Hi Omar, how are you?"
    assert rt.second_person("My pleasure.", "Omar", THINGS) == "My pleasure."


def test_parroting():
    heard = "The train was cancelled again this morning and I was late for work."
    assert gc.parrots("The train was cancelled again this morning, and I was late for work.", heard)
    assert not gc.parrots("Oh no, that sounds stressful. Did your boss mind?", heard)
    assert not gc.parrots("Yes.", "Yes.")  # too short to be a parrot: an answer
    # an answer in the question's words is no parrot; the question said back is
    asked = "What was I worried about last time?"
    assert not gc.parrots("Last time, I felt worried about Biscuit", asked)
    assert gc.parrots("What was I worried about last time?", asked)


def test_empty_and_fallback():
    assert gc.is_empty("")
    assert gc.is_empty("  ... ")
    assert gc.is_empty(gc.FALLBACK_REPLY) and gc.is_empty(gc.ACKNOWLEDGED_REPLY)
    assert gc.is_empty(gc.GLAD_REPLY) and gc.is_empty(gc.SORRY_REPLY)  # fixed lines all the same
    felt = [Affect(label, valence, 0.5, None, True) for label, valence in
            (("happy", 0.8), ("sad", -0.7), ("nervous", -0.5), ("frustrated", -0.6), ("tired", -0.4), ("calm", 0.0))]
    assert [gc.acknowledgement(f) for f in [*felt, None]] == \
        [gc.GLAD_REPLY, gc.SORRY_REPLY, gc.WORRYING_REPLY, gc.FRUSTRATING_REPLY, gc.TIRING_REPLY,
         gc.ACKNOWLEDGED_REPLY, gc.ACKNOWLEDGED_REPLY]
    assert all(gc.is_empty(line) for line in gc.FIXED_REPLIES)
    assert not gc.is_empty("Pepper.")


def test_refusals():
    assert gc.is_refusal("I'm sorry, but I can't assist with that.")
    assert gc.is_refusal("As an AI, I don't have a cat.")
    assert gc.is_refusal("I cannot provide personal information.")
    assert not gc.is_refusal("I'm sorry to hear the train was late.")
    assert not gc.is_refusal("I can't wait to hear how it goes!")
    # a refusal's start, cut before "with" after the lead-in "I'm sorry," (heard in the replies benchmark)
    assert gc.is_refusal("I'm sorry, but I can't assist") and gc.is_refusal("I'm sorry, I cannot help.")
    assert not gc.is_refusal("I can't help thinking of Max.")


def test_notes_layout():
    assert gc.has_layout("3 March 2026 (two days ago): you took Pepper to the vet.")
    assert gc.has_layout("Here you go:\n- Pepper went to the vet")
    assert gc.has_layout("Earlier: you were worried. Now: all is well.")
    assert not gc.has_layout("You took Pepper to the vet on 3 March.")


def test_failed_checks_names_each_failure():
    assert gc.failed_checks("Sure! Omar's cat is Pepper.", "what is my cat called", "Omar", THINGS) == ["perspective"]
    assert gc.failed_checks("", "hello", "Omar", THINGS) == ["empty"]
    assert gc.failed_checks("Your cat is called Pepper.", "what is my cat called", "Omar", THINGS) == []


def test_what_the_person_did_told_as_hearths_own():
    said = ["I moved to Leeds in May.", "Where do I live now?"]
    assert rp.speaks_as_them("I live in Leeds.", said) == ["I live"]
    assert rp.speaks_as_them("I moved there in May.", said) == ["I moved"]
    assert rp.speaks_as_them("I don't know where you live.", said) == []
    assert rp.speaks_as_them("I'm glad you moved!", said) == []
    assert gc.failed_checks("I live in Leeds.", "Where do I live now?", "Omar", set(), said) == ["perspective"]


def test_what_another_of_theirs_did_told_as_hearths_own():
    said = ["Hi, I'm Omar. My brother Idris just opened a bakery in Hull."]  # (Whisper may write a name in lower case)
    assert rp.claims_anothers("I opened a bakery there last year.", said) == ["I opened a bakery there last year"]
    assert rp.claims_anothers("I opened a bakery there.", ["my brother idris just opened a bakery"])
    assert rp.claims_anothers("He opened a bakery? How exciting.", said) == []  # his, as said
    assert rp.claims_anothers("I hoped it would go well.", said) == []  # Hearth's own hope
    assert rp.claims_anothers("I opened it too.", ["I opened a shop and my brother opened one too."]) == []  # theirs
    assert gc.failed_checks("Lovely! I opened one last spring, it was busy.", said[0], "Omar", set(), said) \
        == ["perspective"]


def test_the_person_told_as_one_of_theirs_by_the_name_they_gave_it():
    said = ["Morning! I took my cat Pepper to the vet today.", "I'm not happy, Pepper has a cough."]
    assert rp.makes_them_theirs("You are Pepper.", said) == ["You are Pepper"]
    assert rc.unsayable("You are Pepper.", said[1], known=said[0])  # not even as a last try
    assert rp.makes_them_theirs("You're Pepper's favourite.", said) == []
    assert rp.makes_them_theirs("You are Omar.", ["Hi, I'm Omar.", *said]) == []  # their own name


def test_hearth_goes_by_no_name_but_its_own():
    assert rn.names_itself("Hi, Omar! I'm Hal.") == ["I'm Hal"]  # the name it was called, misheard
    assert rn.names_itself("My name is Harriet.") == ["My name is Harriet"]
    assert rn.names_itself("I'm Hearth, nice to meet you.") == []
    assert rn.names_itself("I'm glad you called.") == [] and rn.names_itself("I'm Omar's helper") == []


def test_their_own_words_about_themselves_said_back_are_theirs_whatever_the_verb():
    """"Got" is Hearth's as well ("I got your note"): the words after it say whose this is."""
    said = ["Morning. I just got home from a run along the canal with my brother."]
    assert rp.speaks_as_them("I just got home from a run along the canal.", said) == ["I just got home"]
    assert rt.repaired("Good morning. I just got home from a run.", "Omar", said) == \
        "Good morning. You just got home from a run."
    # what Hearth may feel or think in anyone's words stays its own
    assert rp.speaks_as_them("I hope your brother enjoyed it.", ["I hope your brother enjoyed it too."]) == []
    assert rp.speaks_as_them("I'm sorry to hear that.", ["I'm sorry to hear that, honestly."]) == []


def test_what_hearth_did_with_someone_of_theirs_is_their_doing():
    """Heard in the demo: "I've had a great walk with Max" to "…a long walk with my dog Max"."""
    said = ["Morning. I finally took my sister Ines to the new bakery."]
    assert rp.speaks_as_them("That's lovely, I've had a great lunch with Ines.", said) == ["I've had a great lunch with Ines"]
    assert rt.repaired("How nice! I took Ines to the market too.", "Omar", said) == "How nice! You took Ines to the market too."
    # Hearth's own doing, or someone of theirs named as theirs, stays Hearth's
    assert rp.speaks_as_them("I noted that Ines likes bread.", said) == []
    assert rp.speaks_as_them("I hope Ines enjoyed it.", said) == []
    assert rp.speaks_as_them("I got a message about your sister.", said) == []
    assert rp.speaks_as_them("I've had a busy morning.", said) == []


def test_repaired_turns_every_slip_to_you():
    said = ["Where do I live now?"]
    assert rt.repaired("I live in Leeds.", "Omar", said) == "You live in Leeds."
    assert rt.repaired("Omar's brother Tom is well.", "Omar", said) == "Your brother Tom is well."
    assert rt.repaired("My brother Tom is well.", "Omar", said, notes="- Omar's brother Tom started a job.") == \
        "Your brother Tom is well."
    assert rt.repaired("I hope you like it there.", "Omar", said) == "I hope you like it there."
    # a note's cause copied with the capital it had after the note's colon (heard live)
    assert rt.repaired("You feel worried because Your son Oliver starts school.", "Grace", said) == \
        "You feel worried because your son Oliver starts school."
    # what they will have to do, copied from a feeling's cause in the notes (replies benchmark)
    notes = "- Omar feels anxious about exam because Omar will have to resit it in August."
    assert rt.repaired("You're anxious about your exam because I will have to resit it.", "Omar",
                       ["What's worrying me?"], notes) == "You're anxious about your exam because you will have to resit it."
    assert rt.repaired("I will be glad to help.", "Omar", ["Can you help me?"], notes) == "I will be glad to help."
    # what they did with someone ("we"), said back as Hearth's own doing
    told = "- We finally repainted the garden shed at the weekend."
    assert rt.repaired("We repainted the garden shed.", "Omar", ["What did we repaint?"], told) == \
        "You repainted the garden shed."
    assert rt.repaired("We can talk about it any time.", "Omar", ["We repainted the shed."]) == \
        "We can talk about it any time."


def test_notes_in_the_persons_own_words():
    assert rt.first_person("Omar's cat Pepper went to the vet.", "Omar") == "My cat Pepper went to the vet."
    assert rt.first_person("Omar is worried about Pepper.", "Omar") == "I am worried about Pepper."
    assert rt.first_person("Last week Omar moved to Leeds.", "Omar") == "Last week I moved to Leeds."
    assert rt.their_words_as_yours("I have to give a speech and I'm nervous.") == \
        "You have to give a speech and you're nervous."


def test_a_bad_start_is_one_to_begin_again():
    heard = "I planted tomatoes in the garden this spring."
    assert rc.bad_start("Omar planted tomatoes in the garden.", heard)  # the person's words back
    assert rc.bad_start("You planted tomatoes in the garden.", heard)
    assert rc.bad_start("I'm sorry, but I can't assist with that.", heard)
    assert rc.bad_start("Omar just said, \"I planted tomatoes.\"", heard)
    assert rc.bad_start("2 May 2026 (today): - tomatoes", heard)
    assert not rc.bad_start("How lovely,", heard)
    assert not rc.bad_start("That sounds like a lovely garden.", heard)
    assert rc.undecided_start("I'm sorry,") and not rc.undecided_start("I'm sorry to hear that.")


def test_a_start_made_only_of_the_words_just_heard_waits_for_the_next_piece():
    heard = "What did I do before that?"
    assert rc.undecided_start("Before that,", heard)
    assert not rc.undecided_start("Before that, you went home.", heard)  # it says something of its own
    assert not rc.undecided_start("Before that, where?", "Where is Lisbon?")
    assert not rc.undecided_start("You taught maths,", heard) and not rc.undecided_start("Yes.", heard)
    # a lead-in says nothing yet: live, "You know," was voiced and the rest left unsaid as a copy
    assert rc.undecided_start("You know,", "Hi, I'm Sam. My daughter Lily started at a new school this week.")
    assert rc.undecided_start("Yes,", heard)


def test_a_start_that_opens_with_a_run_of_their_words_is_begun_again_however_it_goes_on():
    heard = "Our neighbour Mrs. Kapoor painted her fence bright green over the weekend."
    assert rc.opens_with_their_words("Mrs. Kapoor painted", heard)
    assert rc.opens_with_their_words("Mrs. Kapoor's painted", heard)  # a word with 's is its word
    assert rc.bad_start("Mrs. Kapoor painted her fence, which must look cheerful.", heard)
    assert not rc.undecided_start("Mrs. Kapoor painted", heard)  # judged now, not after the next piece
    # two words, or three that carry little, are not yet their words back
    assert not rc.opens_with_their_words("Mrs. Kapoor", heard)
    assert not rc.opens_with_their_words("It is a fine day for it.", "It is a lovely day.")
    assert not rc.opens_with_their_words("A bright green fence sounds cheerful.", heard)  # not as they said it
    # asked, an answer in the question's words is the answer
    assert not rc.opens_with_their_words("The capital of Portugal is Lisbon.", "What is the capital of Portugal?")


def test_the_persons_words_turned_to_you_are_still_their_words():
    # heard live: the first clause was voiced, the rest of the sentence left unsaid as a copy
    heard = "Hello, I'm Priya. I've just come back from a run in the park."
    assert rc.bad_start("You've just come back from a run in the park.", heard)
    # three of their words back is already a copy: judged at once, not after the rest is generated
    assert not rc.undecided_start("You've just come back", heard) and rc.bad_start("You've just come back", heard)
    read = "For although the Chinese took impressions from wood blocks engraved in relief"
    assert not rc.undecided_start("For although the Chinese took impressions", read)
    assert rc.says_back("You're training for a half marathon in May.", "I'm training for a half marathon in May.")
    # the demo, in a clean clone: "You are worried" was voiced, the rest left unsaid as a copy
    worried = "I'm a bit worried because Max has been limping on his back leg since Sunday."
    assert rc.undecided_start("You are worried", worried)
    assert rc.bad_start("You are worried because Max has been limping on his back leg since Sunday.", worried)
    assert not rc.undecided_start("You are worried about Max", "I'm a bit worried.")
    # an answer says something of its own, however many of the question's words it takes
    assert not rc.bad_start("Your dog is called Max.", "What is my dog called?")
    assert not rc.says_back("You're training for a half marathon.", "What am I training for?")
    assert not rc.undecided_start("That sounds lovely,", heard)
    assert not rc.says_back("You're tired.", "I'm tired.")  # a short acknowledgement is no copy


def test_a_sentence_that_takes_the_examples_notes_borrows_them():
    props = frozenset({"pasta", "lunch", "trumpet"})
    assert kn.borrows("You should not eat pasta.", props, "Is there anything I shouldn't eat? I'm allergic to nuts.")
    assert not kn.borrows("You should not eat pasta.", props, "I can't eat pasta, it makes me ill. What shouldn't I eat?")
    assert not kn.borrows("You should avoid nuts.", props, "I'm allergic to nuts.")
    # said in another form (heard on a replies run: the right answer was thrown away as borrowed)
    assert not kn.borrows("Lily plays the piano.", frozenset({"plays", "trumpet"}), "What instrument does Lily play?")


def test_a_number_nobody_said_is_made_up():
    assert kn.invents_numbers("Max is 10 years old.", "How old is my dog? - My dog Max limps.")
    assert not kn.invents_numbers("Max is ten years old.", "How old is my dog? - My dog Max is 10.")
    assert not kn.invents_numbers("You have one dog.", "How many dogs do I have?")  # "one" is seldom a count
    assert not kn.invents_numbers("Your dog is Max.", "What is my dog called?")


def test_a_name_nobody_said_is_made_up():
    # heard live: "What is my daughter called?" heard as "What is my dog called?", with no dog told of
    assert kn.invents_names("Your dog is called Max.", "What is my dog called?")
    assert not kn.invents_names("Your dog is called Max.", "What is my dog called? - My dog Max limps.")
    assert kn.invents_names("Your birthday is in March.", "When is my birthday?")
    assert not kn.invents_names("You told me, Hearth, nothing of it.", "What did I say?")  # Hearth's own name


def test_a_name_they_gave_another_of_theirs_is_not_given_to_one_asked_about():
    # on a replies run, asked "What is my wife called?" with only a brother Sam told of
    told = "My daughter Chloe is learning to drive. - Marcus's brother Sam is coming for Christmas. My mum Rose is ill."
    assert kn.names_another("Your wife is Sam.", told)
    assert kn.names_another("Sam is your wife.", told)
    assert kn.names_another("Your wife's name is Chloe.", told)
    assert not kn.names_another("Your brother is Sam.", told)
    assert not kn.names_another("Your mother is called Rose.", told)  # mum, mom, mother: one relation
    assert not kn.names_another("Your dog is Max.", told)  # a name not given to anyone (invents_names' matter)
    # said beside the kind: "Your dog Sam is named Sam." to "What is my dog called?" (misheard, live)
    assert kn.names_another("Your dog Sam is named Sam.", told) and kn.names_another("Your little dog Chloe.", told)
    assert not kn.names_another("Your brother Sam is coming.", told)
    assert not kn.names_another("Your visit with Sam went well.", told)  # no kind of someone


def test_a_name_said_as_its_own_name_is_said_once():
    assert kn.named_once("Your daughter Sam is called Sam.") == "Your daughter is called Sam."  # (live)
    assert kn.named_once("Your daughter Sam is called Lily.") == "Your daughter Sam is called Lily."


def test_what_the_notes_say_they_did_is_turned_to_you():
    notes = "- Dana went to the market on Monday."
    assert rt.repaired("I went to the market on Monday.", "Dana", ["What did I do before that?"], notes) == \
        "You went to the market on Monday."
    assert rt.repaired("I think you should rest.", "Dana", ["I'm tired."], notes) == "I think you should rest."


def test_the_persons_own_name_given_to_one_of_theirs_is_a_slip():
    assert rn.their_name_for_another("Your daughter is named Sam.", "Sam") == ["Your daughter is named Sam"]
    assert rn.their_name_for_another("Sam is your daughter.", "Sam") == ["Sam is your daughter"]
    assert rn.their_name_for_another("Your new puppy's called Sam!", "sam")
    assert rn.their_name_for_another("Your daughter's name is Sam.", "Sam")
    assert rn.their_name_for_another("Her name is Raj.", "Raj")  # (heard on a replies run, of a grandmother)
    assert rn.their_name_for_another("His brother is called Maria.", "Maria")  # (live, to "What is my brother called?")
    assert rp.perspective_errors("Your daughter is named Sam.", "Sam", set())
    for fine in ("Your name is Sam.", "Your daughter is named Lily.", "Your dog is Sam's best friend.",
                 "Your daughter is lucky, Sam.", "Her name is Lily."):
        assert not rn.their_name_for_another(fine, "Sam"), fine
    assert not rn.their_name_for_another("Your dog is me.", "me")  # no name known: nothing to confuse


def test_stock_openings_are_kept_from_a_reply_only_when_nothing_earned_them():
    told = ro.unearned_openings("I just got back from a long walk with my dog Max.")
    assert {"You're", "You've", "You are welcome", "You are right"} <= set(told)
    assert {"You are very right", "You are wrong", "You are very correct"} <= set(
        ro.unearned_openings("He loved his garden, he grew roses and tomatoes every summer."))
    thanked = ro.unearned_openings("Thanks, that's all for now.")
    assert "You are welcome" not in thanked and "You're" not in thanked and "You are right" in thanked
    asked = ro.unearned_openings("I think we should leave early, don't you think?")
    assert "You are right" not in asked and "You're" not in asked and "You are welcome" in asked
    for heard in ("Do you think she will settle in?", "Thanks! What should I cook tonight?"):
        assert "That's a good question" in ro.unearned_openings(heard)  # praise answers no question
    assert "I don't know" in told and "I don't know" not in ro.unearned_openings("How old is my dog?")
    assert "I don't have enough" in told and "I don't have enough" not in ro.unearned_openings("How old is my dog?")
    assert "Hi" in told and "Hi" not in ro.unearned_openings("Hello again, how are you?")  # a greeting answers one
    # a worry told is not waved away; good news may be normal
    assert "That's normal" in ro.unearned_openings("I'm a bit worried, Max has been limping since Sunday.")
    assert "That's normal" not in told and "That's normal" not in ro.unearned_openings("I'm so happy today!")
    # an idea is praised only where one was put forward ("That sounds like a good idea." to a first day
    # at school, live)
    assert "That sounds like a good idea" in ro.unearned_openings("She loved her teacher on the first day.")
    assert "That sounds like a good idea" not in ro.unearned_openings("I think I'll take the train tomorrow.")
    # kindness is for what they did for Hearth ("You are very kind and supportive." to the same, live)
    assert "You are very kind" in ro.unearned_openings("She loved her teacher on the first day.")
    assert "You are very kind" not in ro.unearned_openings("I brought you some flowers.")


def test_the_reply_start_processor_bans_first_tokens_and_only_the_end_of_an_opening():
    import numpy as np

    from models.llm_local import _reply_start

    (process,) = _reply_start(first=[3], openings=[[5, 6], [5, 7, 8]])
    prompt = [1, 2]
    scores = process(prompt, np.zeros(10))
    assert scores[3] == -np.inf and np.isfinite(np.delete(scores, 3)).all()  # the reply's first token
    scores = process(prompt + [5], np.zeros(10))
    assert scores[6] == -np.inf and np.isfinite(np.delete(scores, 6)).all()  # "You" then not "'re"
    scores = process(prompt + [5, 7], np.zeros(10))
    assert scores[8] == -np.inf and scores[3] == 0  # later, the first-token ban is off
    assert np.isfinite(process(prompt + [4, 6], np.zeros(10))).all()  # another start: nothing banned


def test_a_reply_that_says_it_does_not_know_what_the_notes_hold_is_begun_again():
    # the demo's question in a clean-clone CI run: "I" led "My" by 0.04 nats, and won there
    notes = "- Before that, I just got back from a long walk with my dog Max."
    asked = "Hello again. Can you remind me what my dog is called?"
    denial = "I don't know, you haven't told me your dog's name yet."
    assert kn.denies_what_is_known("I don't know,", asked, notes)
    assert rc.bad_start(denial, asked, known=notes)
    assert kn.denies_what_is_known("You haven't told me that.", "What was I worried about?", "I feel worried about Max")
    # of the schema asked about: a daughter is family (live: "I don't know, you haven't told me your family yet.")
    assert kn.denies_what_is_known("I don't know, you haven't told me your family yet.",
                                   "What do you know about my family?", "My daughter Lily starts school next week.")
    # not known: nothing of what was asked is in the notes, so not knowing is the right answer
    assert not kn.denies_what_is_known(denial, "What's my favourite film?", notes)
    assert not kn.denies_what_is_known(denial, "What do you know about my family?", notes)
    assert not kn.denies_what_is_known("I don't know, you haven't told me your daughter's name yet.",
                                       "What is my daughter's name?", "My wife Ana starts a new job next week.")
    assert not rc.bad_start(denial, asked)
    # an answer is no denial, whatever the notes hold
    assert not kn.denies_what_is_known("Your dog is Max.", asked, notes)
    assert not kn.denies_what_is_known("I know how that feels.", asked, notes)


def test_not_knowing_answers_only_a_question():
    # the bundled model followed the worked example of not knowing where nothing was asked
    told = "I have to give a speech at the wedding and I'm really nervous about it."
    assert rc.bad_start("I don't know, you haven't told me your speech yet.", told)
    assert rc.bad_start("I don't know,", "Just so you know, I'm allergic to peanuts. It's quite serious.")
    # asked, with or without its question mark, not knowing may be the answer
    assert not rc.bad_start("I don't know, you haven't told me that yet.", "What's my favourite colour?")
    assert not rc.bad_start("I don't know,", "Tell me when my sister's wedding is")
    assert not rc.bad_start("I'm sorry to hear that.", told)  # kind, no denial
    assert not rc.bad_start("You know, I'm not sure what you mean", "4 queen of clothes")  # asks what was meant


def test_what_asks_and_what_tells():
    assert asks("Where does my sister live now?") and asks("is there anything I shouldn't eat")
    assert asks("Hi, I'm Dana. What is my dog called") and asks("Remind me what I planted.")
    assert not asks("I'm allergic to peanuts. It's quite serious.") and not asks("I wonder how it works.")
    assert not asks("What a day I've had.")
    assert is_question("When is my cousin's wedding") and is_question("What's her name") and is_question("Why?")
    assert not is_question("When I was little, I lived in Cork.") and not is_question("Had a long day.")
    assert not is_question("How lovely.")


def test_what_a_who_question_asks():
    assert asks_who("Who is coming to visit me?") and asks_who("who's Sam") and not asks_who("Whose car is it?")
    assert who_does("Who is coming to visit me?") == "coming" and who_does("Who called me?") == "called"
    assert who_does("Who is my doctor?") is None and who_does("What is coming up?") is None
    assert done_to_them("Who is helping me practise?") == ("helping", "me")
    assert done_to_them("Who took my keys?") == ("took", "my") and done_to_them("Who is Sam?") is None


def test_their_words_back_with_a_not_they_did_not_say_is_begun_again():
    # the replies benchmark: told of an allergy, the bundled model answered that there was none
    told = "Just so you know, I'm allergic to peanuts. It's quite serious."
    assert rc.negates("You are not allergic to peanuts.", told) and rc.bad_start("You are not allergic to peanuts.", told)
    assert rc.negates("You don't love it.", "I'm working at the bakery now and I love it.")
    assert not rc.negates("Peanuts are not good for you then.", told)  # something of its own
    assert not rc.negates("You're not allergic to anything else?", told)
    assert not rc.negates("So you are not going.", "I'm not going to the party.")  # the "not" is theirs
    # heard live: a day of news answered as if it had not happened
    assert rc.negates("I haven't finished my thesis yet.", "I finally finished my thesis today!")
    assert not rc.negates("Don't forget to celebrate your thesis.", "I finally finished my thesis today!")


def test_a_note_read_out_to_something_told_is_begun_again():
    # heard through the loop: told of a driving test, the bundled model read out the note of the turn before
    told = "I got my driving licence this morning!"
    known = "2 March 2026 (today):\n- Dana's grandad passed away on Tuesday (24 February 2026)."
    assert rc.recites("Your grandad passed away on 24 February 2026.", told, known)
    assert rc.bad_start("Your grandad passed away", told, [], known)
    assert not rc.recites("Your grandad passed away on 24 February 2026.", "When did my grandad die?", known)  # asked
    assert not rc.recites("Well done on your driving licence!", told, known)  # about what they just said
    assert not rc.recites("Your grandad would be proud.", told, known)  # a word of its own
    assert not rc.recites("Your grandad?", told, known)  # too few words to be a note


def test_a_reply_about_another_thing_told_before_is_begun_again():
    # heard live: told of a sister who moved away, the reply took up the worry told the turn before
    told = "My brother moved to Spain in the spring and I really miss him."
    known = "6 December 2026 (today):\n- Sam is dreading Sam's exam on Friday. Sam feels nervous because of the exam."
    assert rc.answers_another("I'm sorry to hear that you're feeling nervous about the exam.", told, known)
    assert rc.bad_start("I'm sorry to hear that you're feeling nervous about the exam.", told, [], known)
    assert not rc.answers_another("I'm sorry, you must miss him.", told, known)  # what they just said
    assert not rc.answers_another("That must be hard. How are you holding up?", told, known)  # nothing from before
    assert not rc.answers_another("Your exam is on Friday.", "When is my exam?", known)  # asked


def test_a_feeling_set_on_another_thing_told_before_is_begun_again():
    # heard live: told of a worry about a first school day, the reply gave it to the turn before's hobby
    told = "My son starts nursery on Monday and I'm a little anxious."
    before = "I took up the violin in the summer."
    replies = ["How lovely! What made you pick the violin?"]
    assert rf.feels_about_another("You are definitely anxious about the violin.", told, before)
    assert rf.feels_about_another("I'm sorry to hear about the violin.", told, before)
    assert rc.unsayable("You are definitely anxious about the violin.", told, replies, before)
    assert rf.feels_about_another("You must be anxious about the violin.", told, replies[0])  # from a reply
    assert not rf.feels_about_another("It's normal to feel anxious about your son starting nursery.", told, before)
    assert not rf.feels_about_another("You must be anxious about the first day.", told, before)  # nothing from before
    assert not rf.feels_about_another("Tell me about the violin.", told, before)  # no feeling
    assert not rf.feels_about_another("Are you anxious about the violin?", "Am I anxious about the violin?", before)


def test_a_short_reply_said_again_whole_is_begun_again():
    # heard live on a second day: "You are Dana." to a greeting, and again to a worry
    worry = "I'm a bit worried because Max has been limping on his back leg since Sunday."
    assert rc.bad_start("You are Dana.", worry, ["You are Dana."])
    assert not rc.said_again("You are Dana.", ["You are Dana, and Max is your dog."])  # not the whole of it
    assert not rc.bad_start("Oh no.", worry, ["That sounds great!"])


def test_an_answer_told_before_may_be_told_again_when_asked():
    # live: every start copied the first reply, and only "Leeds" was said
    earlier = ["That's great news! I'm glad you moved to Leeds.", "You should cook for her a hearty meal"]
    known = "Tom just moved to Leeds for a new job."
    assert not rc.bad_start("You moved to Leeds", "Where did I say I moved to", earlier, known)
    assert not rc.bad_start("Your dog is Max.", "What is my dog called?", ["Your dog is Max."])  # asked twice
    # a copy that answers nothing asked is still one
    assert rc.bad_start("Your dog is Max.", "Where do I live?", ["Your dog is Max."])
    assert rc.bad_start("You moved to Leeds.", "I moved to Leeds.", earlier)  # told, not asked


def test_asked_about_someone_of_theirs_hearth_does_not_answer_as_that_one():
    assert rc.bad_start("I'm feeling better now.", "How is my mum doing now?")
    # asked who in their life does something, Hearth is not the one who does it (live)
    assert rc.bad_start("I am coming to visit you.", "Who is coming to visit me?")
    assert not rc.bad_start("Your sister is coming on Saturday.", "Who is coming to visit me?")
    assert not rc.bad_start("I'm not sure who is coming.", "Who is coming to visit me?")
    assert not rc.bad_start("I'm Hearth, your assistant.", "Who are you?")  # asked of Hearth itself
    # nor, asked who does it to them, the person (live); asked what they do, the person answers it
    assert rc.bad_start("You are coming to visit me on Saturday.", "Who is coming to visit me?")
    assert not rc.bad_start("You are meeting Sam.", "Who am I meeting tomorrow?")


def test_the_persons_names_come_from_what_they_said_and_what_they_told_before():
    from assistant.reply.names import own_names

    notes = "4 December 2026 (yesterday):\n- I'm Dana. I just got back from a long walk with my dog Max."
    assert own_names(None, ["What is my dog called?"], notes) == {"Dana"}  # a desk whose one person has no name
    assert own_names("Sam", ["Hi, I'm Sam."], "") == {"Sam"}
    assert own_names(None, ["I'm tired."], "- I'm a bit worried about Max.") == set()


def test_a_note_read_out_that_shares_words_with_what_was_told_is_still_a_note():
    # heard live on a second day
    told = "Sam had a great week at school, she loves her new teacher."
    known = "- My daughter Sam started at a new school this week."
    assert rc.recites("Your daughter Sam started at a new school this week.", told, known)
    assert not rc.recites("Sam loves her new teacher already!", told, known)  # what is new in what they told


def test_their_name_told_back_to_a_greeting_is_begun_again():
    greeting = "Hi Hearth, I'm Dana. I just got back from a long walk with my dog Max."
    assert rc.tells_them_back("You are Dana.", greeting) and rc.bad_start("You are Dana.", greeting)
    assert rc.tells_them_back("You're Priya again.", "Hi, it's Priya again.")
    assert not rc.tells_them_back("Welcome back, Dana!", greeting)
    assert not rc.tells_them_back("You are allergic to peanuts.", "Am I allergic to peanuts?")  # the answer
    assert not rc.tells_them_back("You are a good friend to Max.", greeting)
    # "You were …" too, their words in any ending
    told = "We walked up to the old lighthouse with the kids."
    assert rc.tells_them_back("You were walking to the lighthouse today.", told)
    assert not rc.tells_them_back("You were brave to take the kids up there.", told)
    assert not rc.tells_them_back("You were walking to the lighthouse?", "Where was I walking?")  # the answer


def test_asked_about_one_of_theirs_a_reply_that_speaks_as_that_one_is_begun_again():
    asked = "How is my grandad getting on?"
    assert rc.bad_start("I'm getting stronger every day.", asked)  # the grandad's part taken
    assert rc.bad_start("I am walking again.", "How's my dog's leg?")
    assert not rc.bad_start("Your grandad is getting stronger every day.", asked)
    assert not rc.bad_start("I'm glad he is home.", asked)  # Hearth's own gladness
    assert not rc.bad_start("I don't know, you haven't told me.", "How old is my dog?")
    assert not rc.bad_start("I planted beans.", "What did I plant last week?")  # theirs: repaired to "You"
    assert not rc.bad_start("I'm getting stronger every day.", "My grandad is getting stronger.")  # told
    # asked about someone by name
    assert rc.bad_start("I am now a carpenter in Derby.", "What does Ravi do now?")
    assert rc.bad_start("I play in goal.", "Which position does Noor play?")
    assert not rc.bad_start("Ravi is a carpenter in Derby now.", "What does Ravi do now?")
    assert not rc.bad_start("I don't know, you haven't told me.", "What does Ravi do now?")
    assert not rc.bad_start("I played in goal.", "What did I play last Saturday?")  # theirs: repaired to "You"


def test_praise_of_how_they_are_doing_that_they_did_not_tell_is_begun_again():
    told = "We painted the fence this afternoon."
    assert rc.bad_start("Hi Sam! You're doing well.", told)
    assert rc.bad_start("You've been doing great!", told)
    assert rc.bad_start("You are really doing a great job.", told)
    assert not rc.bad_start("That sounds like a lot of work.", told)
    assert not rc.bad_start("You're doing well, then.", "I'm doing much better this week.")  # they told it
    assert not rc.bad_start("Your fence is doing well.", told)


def test_a_trouble_told_answered_with_neither_sympathy_nor_its_matter_is_begun_again():
    told = "I'm really worried, the boiler broke and the flat is freezing."
    assert rc.bad_start("It's always good to plan ahead for the winter months.", told)  # a platitude
    assert not rc.bad_start("Oh no, I'm sorry to hear that.", told)
    assert not rc.bad_start("That sounds miserable.", told)
    assert not rc.bad_start("A broken boiler in this weather is no fun.", told)  # takes up what they told
    assert not rc.ignores_trouble("It's always good to plan ahead.", "We booked the flights today!")  # no trouble
    assert not rc.ignores_trouble("It's always good to plan ahead.", "I'm worried, what should I do?")  # asked
    # a trouble no feeling word names, read as bad news as the memory writer reads it (here: always)
    night = "The people upstairs had a party until four, I barely slept."
    assert rc.ignores_trouble("That's a bit unusual.", night, bad_news=lambda heard: True)
    assert not rc.ignores_trouble("That's a bit unusual.", night)  # by default only a named feeling counts
    assert not rc.ignores_trouble("A party until four is a long night.", night, bad_news=lambda heard: True)


def test_a_trouble_told_is_met_before_it_is_mended():
    told = "My brother crashed his bike and he's in hospital, I'm so worried."
    assert rc.bad_start("You should call the hospital and ask.", told)
    assert rc.bad_start("Make sure you get some rest too.", told)
    assert not rc.bad_start("Oh no, I'm so sorry. You should rest too.", told)  # sympathy first
    assert not rc.bad_start("You should call the hospital and ask.", "My brother is in hospital, what should I do?")
    assert not rc.advises_first("You should try the new bakery.", "We moved to a new street last month.")  # no trouble


def test_their_words_said_back_behind_it_sounds_like_are_begun_again():
    # heard on the replies benchmark
    told = "My wife is having surgery on her heart tomorrow."
    assert rc.says_back("It sounds like your wife is having surgery on her heart tomorrow.", told)
    assert rc.bad_start("It sounds like your wife is having surgery on her heart tomorrow.", told)
    assert rc.tells_them_back("It sounds like you sold the house", "We sold the house for more than we asked.")
    assert not rc.says_back("It sounds like a worrying time for you both.", told)
    assert not rc.tells_them_back("It sounds like you got a great price!", "We sold the house for more than we asked.")


def test_heard_live_a_good_plan_to_bad_news_and_very_well_to_a_worry_are_begun_again():
    from assistant.reply.troubles import cheers_bad_news
    told = "I have had such a long day, my manager moved the deadline again."
    assert cheers_bad_news("That sounds like a good plan.", told, lambda heard: True)
    assert not cheers_bad_news("That sounds like a good plan.", "I'm going to paint the shed.", lambda heard: False)
    stressed = "Hi, my name is Tom. I have been really stressed at work this week."  # (live)
    assert cheers_bad_news("It's great that you're feeling stressed.", stressed)
    assert not cheers_bad_news("It's great that you're home.", "I just got home from the gym.")
    # only where the words say it is bad: a coming exam read as worry is no trouble told (a replies run)
    exam = "My daughter Lily has her piano exam on Saturday and she's been practicing every day."
    assert not cheers_bad_news("That sounds like a great plan.", exam, lambda heard: True)
    assert not cheers_bad_news("That sounds really hard.", told, lambda heard: True)
    assert rf.praises_untold("You are very well, Priya.", "My wife is having surgery on her heart tomorrow.")
    assert not rf.praises_untold("You are fine, the scan was clear.", "Am I all right?")  # asked


def test_advice_made_of_their_own_words_is_begun_again():
    moved = "My dentist appointment got moved to next Tuesday."
    assert rc.bad_start("You can try to schedule your appointment for the next Tuesday.", moved)  # (live)
    slides = "I have to give a talk at the conference on Friday and I haven't finished the slides."
    assert rc.advises_back("You can try to finish the slides before the conference.", slides)  # (live)
    assert not rc.advises_back("You could ask your dentist for an earlier slot.", moved)  # its own advice
    assert not rc.advises_back("You can find them in the drawer by the door.", "Where did I put my keys?")  # asked
    assert not rc.advises_back("That sounds stressful. You can do it!", slides)  # no advice opening


def test_a_start_the_replies_benchmark_calls_a_parrot_is_begun_again():
    told = "My neighbor on the allotment, Frank, had a fall last week and he's in hospital."
    assert rc.bad_start("Frank is in hospital.", told)  # (heard on a replies run)
    assert not rc.bad_start("Oh no, poor Frank. I hope he's out soon.", told)


def test_saying_it_has_not_got_what_is_theirs_is_begun_again():
    told = "My wife is having surgery on her heart tomorrow."
    assert rc.bad_start("I don't have a wife, but I can tell you that your wife is having surgery.", told)
    assert not rc.bad_start("I don't have any news of my own, but I hope it goes well.", told)
    # told of their own doings, the thing they spoke of, as if Hearth's (live)
    slides = "I have to give a talk at the conference on Friday and I haven't finished the slides."
    assert rc.bad_start("I don't have the slides yet.", slides)
    assert rc.bad_start("I haven't got a slide ready.", slides)
    assert not rc.bad_start("I don't have your slides, but I hope the talk goes well.", slides)
    assert not rp.disowns("I don't have a favourite colour.", "What's your favourite colour?")  # asked of Hearth


def test_a_feeling_they_did_not_tell_handed_to_them_is_begun_again():
    told = "The ferry was cancelled again and I missed my meeting."
    assert rf.tells_their_feeling("You are very sorry,", told)  # (heard live, of a cancelled train)
    assert rf.tells_their_feeling("You're so happy about the ferry.", told)
    assert rc.bad_start("You feel angry about the ferry.", told)
    assert not rf.tells_their_feeling("You must be fed up.", told)  # a guess, as people make
    assert not rf.tells_their_feeling("That sounds annoying.", told)
    assert not rf.tells_their_feeling("You are very relieved.", "Mum is home and I'm so relieved.")  # told
    assert not rf.tells_their_feeling("You are right.", "I think it will rain.")  # no feeling
    assert not rf.tells_their_feeling("You are worried about your knee.", "What's been bothering me?")  # asked
    # in any clause, glad of it or not (heard live, to "My son Leo starts school next week.")
    assert rf.tells_their_feeling("You are very busy, but I'm glad you're feeling better.", told)
    assert not rf.tells_their_feeling("I'm glad you're feeling better.", "I'm feeling a lot better today.")
    assert not rf.tells_their_feeling("I hope you feel better soon.", "I've got a cold.")  # a wish
    # gladness of a feeling or of being well that nobody told (live, to a report due on Friday)
    assert rf.tells_their_feeling("I'm glad you're feeling well and excited about the job.", told)
    assert not rf.tells_their_feeling("I'm glad you're excited!", "I'm so excited about the trip.")
    assert not rf.tells_their_feeling("I'm glad you're home.", told)  # no feeling
    # in other words than "you are <feeling>" (heard live, to a flooded kitchen)
    assert rf.tells_their_feeling("You are experiencing a lot of stress.", told)
    assert rf.tells_their_feeling("You've been feeling down lately.", told)
    assert not rf.tells_their_feeling("You're under a lot of stress.", "Work is so stressful this week.")  # told
    assert not rf.tells_their_feeling("You are telling me about your worried friend.", told)  # not theirs


def test_saying_it_was_never_told_answers_only_a_question():
    told = "My dad has a scan on Monday."
    for said in ("You don't know, you haven't told me.", "I don't have enough information to answer.",
                 "I don't have any details about that.", "I don't have a specific answer to this question."):
        assert kn.not_told(said) and rc.bad_start(said, told)
    assert not kn.not_told("You know, that's a big week.")


def test_bad_news_cheered_is_begun_again():
    died = "Our neighbour passed away last night."
    bad = lambda heard: heard == died  # noqa: E731  (the reply path reads it with the embedder)
    for cheer in ("That's great to hear!", "Congratulations!", "How wonderful,", "Glad to hear that."):
        assert rc.cheers_bad_news(cheer, died, bad) and rc.bad_start(cheer, died, bad_news=bad)
    assert not rc.cheers_bad_news("That's so sad.", died, bad)
    assert not rc.cheers_bad_news("Congratulations!", "I passed my driving test!", bad)  # good news
    assert not rc.cheers_bad_news("Great question!", "Did my neighbour pass away?", lambda heard: True)  # asked
    assert rc.bad_start("Great,", "I'm so worried about my mum.")  # by default: a bad feeling named


def test_how_a_death_sounds_is_no_cheer_and_gladness_at_it_is_one():
    # heard live: "That sounds wonderful!", then "I'm glad you got back.", to a grandmother's funeral
    wake = "We came home from my uncle's memorial service."
    for cheer in ("That sounds wonderful!", "That sounds amazing!", "I'm glad you came home.", "I'm so happy,"):
        assert rc.cheers_bad_news(cheer, wake) and rc.unsayable(cheer, wake), cheer
    # only where the words say so: news read as bad by the embedder alone may be met gladly
    assert not rc.cheers_bad_news("I'm glad you're back.", "I've just come back from the allotment.",
                                  lambda heard: True)
    assert not rc.cheers_bad_news("That sounds wonderful!", "We came home from a week in Crete.")


def test_words_that_go_on_with_a_death_told_before_are_read_with_it():
    # heard live: "That sounds great!" to "He was 94 and he loved his garden." after a granddad's death
    died, garden = "My granddad passed away on Tuesday.", "He was 94 and he loved his garden."
    happy = lambda heard: False  # noqa: E731  (the embedder read a loved garden as good news, live)
    for cheer in ("That sounds great!", "That sounds amazing!", "I'm so glad,", "That's good to hear."):
        assert rc.cheers_bad_news(cheer, garden, happy, before=died), cheer
        assert rc.unsayable(cheer, garden, bad_news=happy, before=died), cheer
    assert not rc.cheers_bad_news("That sounds great!", garden)  # alone, no bad news
    assert not rc.cheers_bad_news("That sounds great!", garden, before="My granddad turned 90 on Tuesday.")
    # words that do not go on with it are their own news
    assert not rc.cheers_bad_news("That sounds great!", "My brother started a new job in Leeds.", before=died)
    # a feeling of their own decides: "She is so happy there." is not read with the turn before
    assert not rc.cheers_bad_news("That sounds lovely!", "She is so happy in the new home.",
                                  before="My mum had to move into a care home, it was hard.")


def test_a_reply_does_not_say_they_never_told_what_they_did_not_ask():
    # heard live: "I don't know, you haven't told me your plans yet." to a question about the weather
    asked = "Will the shops be open on Monday?"
    assert kn.blames_them_for_not_telling("I don't know, you haven't told me your plans yet.", asked)
    assert rc.bad_start("I don't know, you haven't told me your plans yet.", asked)
    assert not kn.blames_them_for_not_telling("I don't know, you haven't told me your cat's name yet.",
                                              "What is my cat called?")
    assert not kn.blames_them_for_not_telling("You haven't told me what's on on Monday.", "What's on on Monday?")
    assert not kn.blames_them_for_not_telling("I don't know, you haven't told me.", "Where does Ravi work?")
    assert not kn.blames_them_for_not_telling("You haven't told me about your plans.", "The shops shut early.")
    # said after a start that passes, the piece is left unsaid
    kept = list(guard.own_words(iter(["I don't know,", "you haven't told me your plans yet."]), asked, []))
    assert kept == ["I don't know,"]


def test_a_reply_that_greets_hearth_itself_is_begun_again():
    hello = "Hi Hearth, I'm Sam."
    assert rc.greets_itself("Hi, hearth!") and rc.bad_start("Hi, Hearth! How can I help?", hello)
    assert rc.greets_itself("Hello Hearth.")
    assert not rc.greets_itself("Hi Sam!") and not rc.bad_start("Hi Sam!", hello)
    assert not rc.greets_itself("I'm Hearth, nice to meet you.")
    # Hearth's name as Whisper heard it, greeted back
    assert rc.bad_start("Hi Harris! You're welcome.", "Hi, Harris, I'm Sam.")
    assert not rc.bad_start("Hi Sam! Nice to meet you.", "Hi, Harris, I'm Sam.")
    assert not rc.greets_itself("Hi Sam!", "Hi Sam, it's me.")  # no name given for themselves: theirs, maybe
    # not even as the last try: "Hello, Harris!" was the whole reply to a son's broken arm (live)
    broken = "Hello, Harris, I am Marco. My son Leo broke his arm at football yesterday."
    assert rc.unsayable("Hello, Harris!", broken) and not rc.unsayable("Hello, Marco!", broken)


def test_not_knowing_what_was_told_counts_a_word_heard_two_ways():
    known = "- My grand had passed away on Tuesday."  # (Whisper's hearing of "my grandad")
    assert kn.denies_what_is_known("I don't know, you haven't told me.", "What happened to my granddad?", known)
    assert not kn.denies_what_is_known("I don't know, you haven't told me.", "What is my cat called?", known)


def test_the_persons_own_name_taken_as_hearths_is_a_slip_said_back_as_theirs():
    # "What is my name?" answered in the asker's words
    assert rn.claims_their_name("My name is Dana.", {"Dana"}) == ["My name is Dana"]
    assert rn.claims_their_name("Of course! I'm Dana.", {"Dana"}) == ["I'm Dana"]
    assert not rn.claims_their_name("Hi Dana, I'm Hearth.", {"Dana"})
    assert not rn.claims_their_name("My name is Dana.", {"me"})  # no name known: nothing to confuse
    assert rp.perspective_errors("My name is Dana.", "Dana", set()) == ["My name is Dana"]
    assert rt.repaired("My name is Dana.", "Dana", ["What is my name?"]) == "Your name is Dana."
    assert rt.repaired("Of course, I am Dana!", "Dana", ["Who am I?"]) == "Of course, you are Dana!"
    assert rt.repaired("Hi Dana! I'm Hearth.", "Dana", ["Hi, I'm Dana."]) == "Hi Dana! I'm Hearth."
    assert rt.your_name("My name is Mary Ann.", {"Mary Ann"}) == "Your name is Mary Ann."


def test_the_word_they_gave_as_their_name_is_never_hearths_whatever_it_is():
    # heard live: "Priya" misheard as "period", which is no name to learn, was taken as Hearth's
    heard = "Hi, my name is parlour."
    assert rn.takes_their_introduction("I'm parlour.", heard)
    assert rn.takes_their_introduction("You can call me parlour.", heard)
    assert rc.unsayable("I'm parlour.", heard)
    assert not rn.takes_their_introduction("Nice to meet you, parlour!", heard)
    assert not rn.takes_their_introduction("I'm Hearth, nice to meet you.", heard)
    assert not rn.takes_their_introduction("I'm parlour.", "I sat in the parlour.")  # no name given


def test_a_person_known_by_no_name_is_called_by_the_one_they_gave():
    notes = "- I'm Dana. I just got back from a walk with my dog Max."
    assert rt.repaired("My name is Dana.", "me", ["What is my name?"], notes) == "Your name is Dana."
    assert rt.repaired("Dana's dog is Max.", "", ["What is my dog called?"], notes) == "Your dog is Max."
    assert rt.repaired("Dana's dog is Max.", "", ["What is my dog called?"]) == "Dana's dog is Max."  # no name given


def test_what_another_of_theirs_does_is_not_told_them_as_theirs():
    told = "My sister and is coming to visit on Saturday."  # as heard live ("Anna")
    assert rc.bad_start("I'm glad you're coming to visit.", told)
    assert rc.unsayable("I'm glad you're coming to visit.", told)
    assert not rc.bad_start("How lovely, you must be looking forward to it.", told)
    # what they do themselves, or with them, is theirs
    from assistant.reply.perspective import gives_them_anothers
    assert not gives_them_anothers("You're cooking a feast!", "My sister is coming to visit and I'm cooking for her.")
    assert not gives_them_anothers("You're coming to the party!", "Sam and I are coming to the party.")
    # the name they give is their own; "back" is no one's doing (replies-more: "I'm glad you're back.")
    assert not gives_them_anothers("I'm glad you're back.", "Hi, I'm Omar. I've just come back from my allotment.")
    # two words of what she does, after a word of its own (live)
    home = "The doctors say she can come home next week."
    assert gives_them_anothers("You are free to come home next week.", home)
    assert not gives_them_anothers("That's wonderful, she must be relieved.", home)
    assert not gives_them_anothers("You are going to the station to meet her.",
                                   "My sister is coming and I'm going to the station to meet her.")
    # done with no "is" or "has" before it: "started" (told "you're starting school", live)
    school = "Hi Har, I'm Priya, my daughter Sam just started school this week."
    assert gives_them_anothers("It's great to hear that you're starting school.", school)
    assert not gives_them_anothers("It's great that your daughter is starting school.", school)
    assert not gives_them_anothers("You started a new job!", "I started a new job and my son loves it.")
    # a place is no one who does anything (replies benchmark)
    assert not gives_them_anothers("You're moving to Bristol for your partner's job.",
                                   "I moved from Leeds to Bristol last month for my partner's job.")


def test_the_person_is_not_told_they_are_one_of_theirs():
    told = "The kids decided to rename the kitten. She's called Luna now."
    assert rc.unsayable("You are the new kitten.", told, [], "We adopted a kitten yesterday! We're calling her Pepper.")
    assert rc.bad_start("You're my sister!", "My sister is coming on Saturday.")
    from assistant.reply.perspective import makes_them_theirs
    assert not makes_them_theirs("You're the teacher they needed.", ["I'm a teacher at Hillside."])  # what they are
    assert not makes_them_theirs("You are a great mum.", ["My mum is ill."])  # one, not theirs


def test_the_benchmarks_perspective_check_counts_both_slips():
    from assistant.reply.perspective import perspective_errors
    assert perspective_errors("You are the new kitten.", "Dana", set(), ["The kids decided to rename the kitten."])
    assert perspective_errors("I'm glad you're coming to visit.", "Dana", set(), ["My sister is coming to visit."])
    assert not perspective_errors("How lovely!", "Dana", set(), ["My sister is coming to visit."])


def test_not_knowing_is_not_told_them_when_they_said_none():
    assert rf.tells_their_feeling("You are not sure what happened to her.", "Actually she cancelled, she has the flu.")
    assert rc.unsayable("You're unsure about the move.", "I moved to Leeds last week.")
    assert not rf.tells_their_feeling("You are not sure what to cook.", "I'm not sure what to cook for her.")


def test_asked_who_does_something_to_them_the_answer_in_their_words_is_said_to_them():
    # live: "Sam is helping me practice." was begun again as their words back, and the last try,
    # "You are helping me practice.", said
    asked = "Who is helping me practice?"
    assert not rc.bad_start("Sam is helping me practice.", asked)
    said = ["My friend Sam said she would help me practice.", asked]
    assert rt.repaired("Sam is helping me practice.", "Priya", said) == "Sam is helping you practice."
    assert rt.repaired("Tell me more about it.", "Priya", ["Can you tell me about it?"]) == "Tell me more about it."
    assert rc.bad_start("Omar planted tomatoes in the garden.", "I planted tomatoes in the garden.")  # told, not asked


def test_a_thing_they_have_claimed_as_hearths_is_said_to_them():
    # live: "On Thursday, I have an appointment on 10 December 2026." to "What is happening on Thursday?"
    notes = "Priya has a dentist appointment on Thursday (10 December 2026) morning."
    said = ["What is happening on Thursday?"]
    assert rt.repaired("On Thursday, I have an appointment on 10 December 2026.", "Priya", said, notes) == \
        "On Thursday, you have an appointment on 10 December 2026."
    assert rt.repaired("I have a question for you.", "Priya", said, notes) == "I have a question for you."


def test_an_answer_of_which_nothing_was_said_is_made_up():
    from assistant.reply.knowing import tells_untold

    # live: "It's a busy day." to "What is happening on Thursday?", nothing noted of Thursday
    asked = "What is happening on Thursday?"
    assert tells_untold("It's a busy day.", "", asked)
    assert not tells_untold("On Thursday, you have a dentist appointment.", "Dana has a dentist appointment.", asked)
    assert not tells_untold("I don't know, you haven't told me that yet.", "", asked)
    assert not tells_untold("What would you like to do?", "", asked) and not tells_untold("Yes!", "", asked)
    # what the question itself told is told: "Your dog is called Biscuit." to "What do you know about my dog Biscuit?"
    assert not tells_untold("Your dog is called Biscuit.", "", "What do you know about my dog Biscuit?")
    # what something is, made up (live), and what the notes say it is
    family = "What do you know about my family?"
    assert tells_untold("Your family is very supportive", "Tom's daughter Lily starts school next week.", family)
    assert not tells_untold("Your daughter Lily is fine.", "Tom's daughter Lily starts school. She is fine.", family)
    assert not tells_untold("Your family sounds lovely.", "Tom's daughter Lily starts school next week.", family)
    assert not tells_untold("You are going to Leeds.", "", "Am I going to Leeds?")
    # the question's own words tell nothing: "You are doing your homework today." (live)
    assert tells_untold("You are doing your homework today.", "Dana's grandmother is in hospital.",
                        "What am I doing tomorrow?")
    # the notes' header says "today", and they said "I'm Dana": neither tells of housework
    assert tells_untold("I'm doing my housework today.", "7 December 2026 (today): Dana's mum is ill. Hi, I'm Dana",
                        "What am I doing tomorrow?")
    # a first clause alone is judged by a thing it names, not by a word that may go on to one
    assert not tells_untold("You are still working", "Ines started a pottery class.", "Which evening is my class?")
    assert tells_untold("You're doing your homework", "Dana's grandmother can come home.", "What am I doing tomorrow?")


def test_what_they_do_told_as_anothers_doing_is_begun_again():
    from assistant.reply.perspective import gives_another_theirs

    # live: "Your grandmother is going to visit the wrong on 12 December 2026." to "How is my grandmother
    # doing?", the visit being theirs ("I am going to visit her on Saturday", misheard)
    notes = "Maria is going to visit the wrong Saturday (12 December 2026). Maria's grandmother is in hospital."
    said = ["How is my grandmother doing?", rt.first_person(notes, "Maria")]
    assert gives_another_theirs("Your grandmother is going to visit the wrong on 12 December 2026.", said)
    assert not gives_another_theirs("Your grandmother is in hospital.", said)
    assert not gives_another_theirs("Your sister is coming to visit on Saturday.", ["My sister is coming to visit."])
    assert not gives_another_theirs("Your dog is feeling better.", ["I am feeling better. My dog is feeling better too."])


def test_only_hearth_is_told():
    # live: the model's own slip, not a repair's
    said = ["What do I have on Friday?"]
    assert rt.repaired("I don't know, you haven't told you what you have on Friday yet.", "Priya", said) == \
        "I don't know, you haven't told me what you have on Friday yet."
    assert rt.repaired("You told your sister.", "Priya", ["I told my sister."]) == "You told your sister."


def test_a_wish_to_get_better_is_for_an_illness_or_hurt_they_told_of():
    assert rf.tells_their_feeling("I hope you're feeling better soon.", "I am really nervous about it.")  # (live)
    assert not rf.tells_their_feeling("I hope you feel better soon.", "I have a terrible cold.")
    assert not rf.tells_their_feeling("I hope she gets better soon.", "My mum is in hospital.")  # not theirs to get


def test_what_another_of_theirs_has_is_not_given_them():
    # heard live: "You are very lucky to have a beautiful garden." to a granddad who had died and "loved his garden"
    said = ["My granddad passed away on Tuesday.", "He was 94 and he loved his garden."]
    for reply in ("You are very lucky to have a beautiful garden.", "Your garden sounds lovely."):
        assert rp.hands_them_anothers_thing(reply, said), reply
        assert rc.unsayable(reply, said[1], before=said[0]), reply
    for reply in ("His garden sounds lovely.", "Your granddad must have loved it.", "You have a lovely family."):
        assert not rp.hands_them_anothers_thing(reply, said), reply
    # what they call theirs too is theirs
    assert not rp.hands_them_anothers_thing("Your garden sounds lovely.",
                                            ["My dad loved his garden, and I love my garden."])


def test_an_age_told_of_another_of_theirs_is_not_given_them():
    # heard live: "You are very old." to "My grand and passed away on Tuesday, he was 94."
    said = ["My granddad passed away on Tuesday, he was ninety four.", "He loved his garden."]
    for reply in ("You are very old.", "You're 94 now.", "You are ninety four."):
        assert rp.hands_them_anothers_age(reply, said), reply
        assert rc.unsayable(reply, said[1], before=said[0]), reply
    for reply in ("He was very old.", "Ninety four is a long life.", "You are very kind to remember him."):
        assert not rp.hands_them_anothers_age(reply, said), reply
    # their own age is theirs, and with no age told no age is handed over
    assert not rp.hands_them_anothers_age("You are still young.", ["My dad was 60 when I was 30."])
    assert not rp.hands_them_anothers_age("You are very young.", ["I started school today."])
    assert not rp.hands_them_anothers_age("You are so young.", ["It was 20 degrees at the party."])


def test_told_of_a_death_no_reply_hopes_the_one_who_died_lives():
    from assistant.reply.troubles import hopes_for_the_dead
    # heard live, twice: "That's a very sad news. I hope you're okay and that your friend is still alive."
    died = "My friend had passed away on Tuesday. He was 94."
    for piece in ("I hope you're okay and that your friend is still alive.", "I hope he recovers soon.",
                  "I hope he gets better."):
        assert hopes_for_the_dead(piece, died), piece
    assert not hopes_for_the_dead("I hope you feel better soon.", died)  # the mourner's hope
    assert not hopes_for_the_dead("I hope he gets better.", "My friend is in hospital with a broken hip.")
    # words that go on with a death are read with it
    assert hopes_for_the_dead("I hope he recovers.", "He loved his garden.", before=died)
    assert not hopes_for_the_dead("I hope he recovers.", "My brother started a new job.", before=died)


def test_an_age_given_hearth_is_a_slip_of_perspective():
    # the replies benchmark's birthday, after "My birthday is on the fourteenth of March, I'll be forty."
    assert rp.tells_its_age("Your birthday is on the 14th of March. I will be 40.") == ["I will be 40"]
    assert rp.tells_its_age("I'll be forty-one then.") and rp.tells_its_age("I am 94.")
    assert rp.perspective_errors("I will be 40.", "Dana", set(), ["I'll be forty."])
    assert not rp.tells_its_age("You will be 40.") and not rp.tells_its_age("I'm 100% sure it was Tuesday.")
    assert not rp.tells_its_age("I'm glad you're turning forty.")
