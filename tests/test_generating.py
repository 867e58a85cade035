"""The generating stage (assistant/pipeline/generating.py) with the real embedder reading how what
was told is for the person, and a scripted model: the test is of what the reply path voices of a
reply that cheers, which the bundled model writes only now and then ("That's great to hear!" to
"She was 94", the turn after a grandmother's funeral, heard live)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assistant.clock import MonotonicClock
from assistant.pipeline.generating import Generator
from assistant.pipeline.jobs import Job
from assistant.pipeline.lifecycle import JobState
from assistant.pipeline.stages import Recalled, Sentence
from assistant.reply.general_checks import SORRY_REPLY
from assistant.reply.prompt import History
from assistant.reply.prompt_cache import PromptCache
from fakes import ScriptedChat


def voiced(engines, config, history: History, heard: str, cheer: str = "That's great to hear!") -> str:
    """What the generating stage voices to `heard`, every try of the model the same cheer."""
    engines = replace(engines, llm=ScriptedChat(cheer))
    said: list[str] = []
    generator = Generator(engines, config, MonotonicClock(), history,
                          PromptCache(engines.llm, engines.llm_gate, history, config.memory_budget_tokens), True,
                          emit=lambda job, event: None, check=lambda job: None,
                          speak=lambda m: said.append(m.text) if isinstance(m, Sentence) else None,
                          spoken=lambda: None)
    job = Job(1, 1, np.zeros(0, dtype=np.float32), JobState.RELEASED)
    job.heard = heard
    generator.reply(Recalled(job, ""))
    return " ".join(said)


def test_words_that_go_on_with_bad_news_told_the_turn_before_are_not_cheered(engines, test_config):
    after_a_death = History(turns=[("My uncle died in his sleep last week.", "I'm so sorry.")])
    assert voiced(engines, test_config, after_a_death, "He was eighty one.") == SORRY_REPLY
    # the same words alone, or after good news, are no bad news
    assert voiced(engines, test_config, History(), "He was eighty one.") == "That's great to hear!"
    after_a_party = History(turns=[("My uncle threw a huge birthday party.", "How lovely!")])
    assert voiced(engines, test_config, after_a_party, "He was eighty one.") == "That's great to hear!"


def test_how_words_that_go_on_with_a_death_sound_is_no_cheer(engines, test_config):
    # heard live: "That sounds great!" to "He was 94 and he loved his garden." after a granddad's death
    after_a_death = History(turns=[("My granddad passed away on Tuesday.", "I'm sorry to hear that.")])
    garden = "He was 94 and he loved his garden."
    assert voiced(engines, test_config, after_a_death, garden, "That sounds great!") == SORRY_REPLY
    assert voiced(engines, test_config, History(), garden, "That sounds great!") == "That sounds great!"


def test_told_of_a_death_a_hope_that_the_one_who_died_lives_is_left_unsaid(engines, test_config):
    # heard live, twice: "That's a very sad news. I hope you're okay and that your friend is still alive."
    said = voiced(engines, test_config, History(), "My friend passed away on Tuesday.",
                  "That is very sad news. I hope your friend is still alive.")
    assert said == "That is very sad news."


def test_every_try_thrown_words_that_go_on_with_a_death_are_met_as_the_death_however_they_read_alone(
        engines, test_config):
    # heard live: "That's good to hear." to "He loved his garden…" the turn after a granddad's death, said
    # when every try had been thrown: the reply's last resort met the garden as the embedder read it alone
    after_a_death = History(turns=[("My granddad passed away on Tuesday, he was 94.", "I'm so sorry.")])
    garden = "He loved his garden, he grew roses and tomatoes every summer."
    assert voiced(engines, test_config, after_a_death, garden, "That's good to hear.") == SORRY_REPLY
    assert voiced(engines, test_config, after_a_death, garden, "You are very lucky!") == SORRY_REPLY  # (live)
