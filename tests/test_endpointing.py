import pytest

from assistant.pipeline.end_silence import EndSilence, end_silence_for, end_silence_heard


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


@pytest.mark.parametrize("partial, finished, expected", [
    ("I was thinking", 0.1, EndSilence(1300, "unfinished")),         # sounds unfinished: the person is waited for
    ("I was thinking", 0.9, EndSilence(500, "pending")),             # sounds finished: the whole transcript decides
    ("I went to the shop and", 0.9, EndSilence(1300, "hanging")),    # the words leave it hanging, however it sounded
    ("Where are you from?", 0.2, EndSilence(200, "question")),       # a question is finished
    ("", 0.9, EndSilence(500, "pending")),                           # nothing transcribed yet
    ("I was thinking", None, EndSilence(500, "words")),              # no model: the words alone, as end_silence_for
    ("and then I", None, EndSilence(800, "hanging")),
    ("Is it far?", None, EndSilence(350, "question")),
])
def test_the_end_of_turn_model_and_the_words_decide_together_and_say_which_did(partial, finished, expected):
    assert end_silence_heard(partial, finished, 500, 200, 1300) == expected


@pytest.mark.parametrize("transcript, finished, expected", [
    ("I went to the shop.", 0.9, EndSilence(200, "finished")),                  # sounds finished and ends a sentence
    ('He said "no!"', 0.9, EndSilence(200, "finished")),
    ("You who were always accusing", 0.9, EndSilence(1300, "unended")),        # sounds finished, ends no sentence
    ("I was talking to Mr.", 0.9, EndSilence(1300, "unended")),                 # an abbreviation's dot ends none
    ("Seven of clubs", 0.9, EndSilence(200, "finished")),                       # a short answer, often left unmarked
    ("I went to the shop.", 0.1, EndSilence(1300, "unfinished")),               # sounds unfinished: waited for
    ("I went to the shop and", 0.9, EndSilence(1300, "hanging")),
    ("Is it far", None, EndSilence(500, "words")),                              # no model: as before
])
def test_a_turn_that_sounds_finished_ends_short_once_its_whole_transcript_ends_a_sentence(transcript, finished,
                                                                                          expected):
    assert end_silence_heard(transcript, finished, 500, 200, 1300, whole=True) == expected


def test_a_turn_that_sounds_finished_beyond_doubt_ends_short_without_waiting_for_its_transcript():
    assert end_silence_heard("", 0.97, 500, 150, 1300) == EndSilence(150, "sure")
    assert end_silence_heard("You who were always accusing", 0.97, 500, 150, 1300, whole=True) == \
        EndSilence(150, "sure")
    assert end_silence_heard("", 0.9, 500, 150, 1300) == EndSilence(500, "pending")  # sure only from SURE
    assert end_silence_heard("I went to the shop and", 0.99, 500, 150, 1300) == EndSilence(1300, "hanging")


def test_a_model_in_doubt_is_outweighed_by_a_transcript_that_ends_a_sentence():
    assert end_silence_heard("I went to the shop.", 0.4, 500, 150, 1300, whole=True) == EndSilence(500, "doubtful")
    assert end_silence_heard("I went to the shop", 0.4, 500, 150, 1300, whole=True) == \
        EndSilence(1300, "unfinished")  # no mark: the doubt stands
    assert end_silence_heard("I went to the shop.", 0.4, 500, 150, 1300) == \
        EndSilence(1300, "unfinished")  # a partial's mark is not the whole transcript's
    assert end_silence_heard("I went to the shop.", 0.1, 500, 150, 1300, whole=True) == \
        EndSilence(1300, "unfinished")  # heard as unfinished, not in doubt


def test_a_long_base_silence_is_never_cut_short_by_an_unfinished_sound():
    # end_silence_ms 1500: a trailing "and" waits 2.4 s by the words, and so with the model
    assert end_silence_heard("the middle classes, and we", 0.1, 1500, 200, 1300).ms == 2400
    assert end_silence_heard("the middle classes", 0.1, 1500, 200, 1300).ms == 1500


def test_a_whole_transcript_heard_before_the_model_answers_still_counts_as_whole():
    """The end-of-turn model is asked after the reply's transcription has begun, so the whole
    transcript may come first: the model's answer is then judged with it, not as a partial's."""
    from assistant.config import Config
    from assistant.pipeline.endpoint_tuning import EndpointTuner
    from audio.endpointer import Endpointer

    tuner = EndpointTuner(Config(), adaptive=True, finished=lambda audio: 0.8)
    endpointer = Endpointer()
    tuner.speech_started(endpointer)
    tuner.heard(endpointer, "I went to the shop.", whole=True)
    tuner.voice_stopped(endpointer, lambda: None)
    assert tuner.decision() == EndSilence(Config().end_silence_finished_ms, "finished")
    tuner.speech_resumed()  # what came before is no longer all of it
    tuner.voice_stopped(endpointer, lambda: None)
    assert tuner.decision().why == "pending"
