"""The generating stage: the language model's tokens into sentences, each checked and said to the
person as "you", handed to the speaking stage as it completes. The first is cut at a clause so
sound starts sooner.

The responder owns the job and its lifecycle; it hands this its ways of touching a job: emit (an
event, held while the job is speculative), check (JobCancelled once the job has stopped) and
speak (a Sentence or ReplyEnd to the speaking stage).
"""

from __future__ import annotations

from functools import cache
from typing import Callable

from assistant import events as ev
from assistant.clock import Clock
from assistant.config import Config
from assistant.engines import Engines
from assistant.pipeline.jobs import Job
from assistant.pipeline.stages import Recalled, ReplyEnd, Sentence
from assistant.reply.checks import opens_with_their_words
from assistant.reply.knowing import (borrows, invents_names, invents_numbers, named_once, names_another,
                                     tells_untold)
from assistant.reply.general_checks import FALLBACK_REPLY, NOT_TOLD_REPLY, acknowledgement
from assistant.reply.guard import begun_well, continued, own_words
from assistant.reply.openings import unearned_openings
from assistant.reply.names import names_itself, own_names, their_name_for_another
from assistant.reply.perspective import claims_anothers, gives_another_theirs, tells_its_age
from assistant.reply.retold import first_person, repaired
from assistant.reply.troubles import goes_on_from, goes_on_with_bad_news, hopes_for_the_dead
from assistant.reply.prompt import EXAMPLE_PROPS, EXAMPLE_WORDS, History, build_messages
from assistant.reply.prompt_cache import PromptCache
from assistant.reply.sentences import sentences_from_tokens, spoken_form
from memory.affect import Affect, detect_affect
from memory.implied import implied_feelings, is_bad
from text.questions import asks, asks_about_themselves


class Generator:
    def __init__(self, engines: Engines, config: Config, clock: Clock, history: History, prompt_cache: PromptCache,
                 stream_audio: bool, emit: Callable[[Job, ev.Event], None], check: Callable[[Job], None],
                 speak: Callable[[Sentence | ReplyEnd], None], spoken: Callable[[], None]) -> None:
        self.engines, self.config, self.clock, self.history = engines, config, clock, history
        self.prompt_cache = prompt_cache
        self.clause_words = 2 if stream_audio else 0  # the whole reply plays at once: no early clause
        self._emit, self._check, self._speak = emit, check, speak
        # Waits until the speaking stage has voiced what it was given: the model and the voice take
        # turns on the CPU, as they did on one thread. On two cores every core taken by work beside
        # the playback is taken from the listener's echo canceller (see responder._hear).
        self._spoken = spoken

    def reply(self, recalled: Recalled) -> None:
        job = recalled.job
        fixed = recalled.fixed_reply
        about_them = asks_about_themselves(job.heard)  # only what they said can answer it
        # how what they said is for them: the same words on every try, so at most one embedding a reply
        # (two where they go on with the turn before), asked only of a start that cheers, passes a
        # trouble by or advises, and of the last resort
        felt_alone = cache(self._felt)
        before = self.history.turns[-1][0] if self.history.turns else ""  # what they said the turn before

        def felt(heard: str) -> Affect | None:
            """What their words imply, or, words with no feeling of their own that go on with the turn
            before ("She was 94." after a grandmother's funeral, cheered live), what that one did: where
            it was bad, whatever these imply alone ("That's good to hear." to "He loved his garden…"
            after a granddad's death, live: the embedder read the garden as glad)."""
            now = felt_alone(heard)
            if now is None and goes_on_from(heard, before, bool) or goes_on_with_bad_news(heard, before):
                return felt_alone(before)
            return now

        # the model said nothing worth saying: say so rather than leave the person waiting
        if fixed is None and not self._generated(job, recalled.block, about_them, felt, before):
            if about_them or asks(job.heard):
                fixed = NOT_TOLD_REPLY if about_them else FALLBACK_REPLY
            else:
                fixed = acknowledgement(felt(job.heard))
        if fixed is not None:
            self._first_token(job)
            self._said(job, fixed)
        self._speak(ReplyEnd(job))

    def _felt(self, heard: str) -> Affect | None:
        """The feeling their words name, else the one they imply (memory.implied, as the writer reads it)."""
        if self.engines.embedder is None:
            return detect_affect(heard)
        return implied_feelings(self.engines.embedder).felt(heard)

    def _generated(self, job: Job, block: str, about_them: bool, felt: Callable[[str], Affect | None],
                   before: str) -> bool:
        """Each sentence is said to the person as "you" (`repaired`): a small model slips into
        "Dana's dog". False if the model gave no sentence worth saying. `about_them`: the person
        asked about themselves, so a number nobody said is made up."""
        past = [fact for memory in job.recalled for fact in memory.get("past", ())]
        notes = self.prompt_cache.use_notes(job.memory, block, past)
        name = job.memory.person_name if job.memory else None
        said = [user for user, _ in self.history.turns] + [job.heard]
        messages = build_messages(job.heard, self.history, notes, name)

        def reply(avoid: str):
            return sentences_from_tokens(self._tokens(job, messages, avoid), first_clause_words=self.clause_words,
                                         max_sentences=self.config.max_reply_sentences,
                                         cut_short=lambda: self.engines.llm.cut_at_limit,
                                         judged_now=lambda words: opens_with_their_words(words, job.heard))

        # not to be copied: the earlier replies, and what the worked examples' person said
        replies = [answer for _, answer in self.history.turns]
        earlier = replies + list(EXAMPLE_WORDS)
        conversation = " ".join([*said, *replies, notes])
        told = " ".join([notes, *said[:-1]])  # what they told Hearth, before this question

        names = own_names(name, said, notes)
        in_their_words = said + [first_person(notes, name) if name else notes]  # what they do, as they say it

        @cache  # a piece is judged as it would be voiced, then voiced: one repair for both
        def voiced(piece: str) -> str:
            return named_once(repaired(spoken_form(piece), name or "", said, notes))

        def unfounded(piece: str) -> bool:
            """The examples' notes, a number or a name nobody said, or the person's own name, or one they
            gave another of theirs, given to one of theirs (judged as it would be voiced: "My dog is
            Dana." is said "Your dog is Dana."), or what they do told as another's doing, or what
            another of theirs did told as Hearth's, or Hearth called by a name not its own or given an
            age, or, told of a death, a hope that someone is alive or recovers."""
            return (borrows(piece, EXAMPLE_PROPS, conversation)
                    or about_them and (invents_numbers(piece, conversation) or invents_names(piece, conversation)
                                       or tells_untold(piece, told, job.heard))
                    or any(their_name_for_another(voiced(piece), own) for own in names)
                    or names_another(voiced(piece), conversation)
                    or bool(gives_another_theirs(voiced(piece), in_their_words))
                    or bool(claims_anothers(voiced(piece), said)) or bool(names_itself(voiced(piece)))
                    or bool(tells_its_age(piece))
                    or hopes_for_the_dead(piece, job.heard, before))

        def bad_news(heard: str) -> bool:
            return is_bad(felt(heard))

        last = ""
        begun = begun_well(reply, job.heard, earlier, unfounded, told, bad_news, before)
        for piece in own_words(begun, job.heard, earlier, unfounded):
            sentence = continued(last, voiced(piece))
            if sentence:
                self._said(job, sentence)
                last = sentence
        return bool(last)

    def _tokens(self, job: Job, messages: list[dict], avoid: str = ""):
        with self.engines.llm_gate.foreground():
            stream = self.engines.llm.stream(messages, self.config.max_reply_tokens, self.config.temperature,
                                             avoid=avoid, never_open_with=unearned_openings(job.heard))
            try:
                for piece in stream:
                    self._check(job)
                    if not job.first_token_reported:
                        cached, evaluated = self.engines.llm.last_prompt_tokens
                        self._first_token(job, cached, evaluated)
                    yield piece
            finally:
                stream.close()

    def _first_token(self, job: Job, cached: int = 0, evaluated: int = 0) -> None:
        if not job.first_token_reported:  # a second try (reply/guard.py) reports no second first token
            job.first_token_reported = True
            self._emit(job, ev.LlmFirstToken(job.turn_id, self.clock.now(), cached_tokens=cached,
                                             evaluated_tokens=evaluated))

    def _said(self, job: Job, sentence: str) -> None:
        self._emit(job, ev.SentenceReady(job.turn_id, self.clock.now(), text=sentence))
        self._speak(Sentence(job, sentence))
        self._spoken()
