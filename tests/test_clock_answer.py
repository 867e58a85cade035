"""Questions of the day and the time, answered from the clock (assistant/reply/clock_answer.py): pure."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.reply.clock_answer import clock_answer

NOW = datetime(2027, 3, 9, 15, 5)  # a Tuesday afternoon


@pytest.mark.parametrize("heard", ["What day is it today?", "Wait, what day is it to me?", "what's the date",
                                   "What is today's date?", "What is today's day?", "Hey, what date is it?"])
def test_the_day_is_told_from_the_clock(heard):
    assert clock_answer(heard, NOW) == "It's Tuesday, 9 March 2027."


@pytest.mark.parametrize("heard", ["What time is it?", "What's the time?", "what time is it now"])
def test_the_time_is_told_from_the_clock(heard):
    assert clock_answer(heard, NOW) == "It's 3:05 in the afternoon."
    assert clock_answer(heard, NOW.replace(hour=0, minute=40)) == "It's 12:40 in the morning."


@pytest.mark.parametrize("heard", ["What's the date of my interview?", "What time is my dentist appointment?",
                                   "What day is my sister's wedding?", "I had a long day.", "What time did I leave?"])
def test_other_questions_of_days_and_times_are_for_the_reply(heard):
    assert clock_answer(heard, NOW) is None


def test_asked_by_voice_the_day_is_told_through_the_real_loop(engines, test_config, tmp_path):
    """Said with the bundled voice and replayed through the loop (VAD, Whisper, recall, Piper): the
    answer is the clock's, not the model's."""
    from assistant.memory_access.routing import OneMemory
    from assistant.modes.demo import synthesize_user
    from assistant.modes.replay import replay_session

    wav = synthesize_user(engines.tts, ["What's the date today?"], tmp_path / "asked.wav")
    before = datetime.now()
    result = replay_session(wav, tmp_path / "out", engines, test_config, OneMemory())
    after = datetime.now()
    (reply,) = [r.reply for r in result.records if r.heard]
    # the same answer unless the replay ran across midnight
    assert reply in {clock_answer("What's the date?", before), clock_answer("What's the date?", after)}, reply
