"""The reply pipeline: each utterance (a job) passes through four stages, each one long-lived
thread that owns one step (see assistant/pipeline/stages.py):

    hearing -> recalling -> generating -> speaking

This module wires them and owns the jobs: it starts them, releases or cancels them for the planner
(by job id, through the lifecycle table), and ends each once, in whichever stage finds it over.

A job may be speculative: its events and audio are held back until the endpoint releases it, and
dropped without a trace (but for a SpeculationDropped event) if the person resumes. A job that is
cancelled while playing (barge-in) stops at once and leaves only what was heard in the history.
"""

from __future__ import annotations

import functools
import logging
import queue
import threading
from typing import Callable

import numpy as np

from audio.sinks import AudioSink
from models import ModelError

from assistant import events as ev
from assistant.clock import Clock
from assistant.config import Config
from assistant.engines import Engines
from assistant.memory_access.routing import SpeakerRouting
from assistant.pipeline.generating import Generator
from assistant.pipeline.hearing import Hearer
from assistant.pipeline.heap import release_free_memory
from assistant.pipeline.jobs import CarriedUtterance, Job, JobCancelled, remains_of
from assistant.pipeline.recalling import Recaller
from assistant.pipeline.lifecycle import JobEvent, JobState, cancel_event
from assistant.pipeline.speaking import Speaker
from assistant.pipeline.stages import BetweenTurns, Recalled, ReplyEnd, Sentence, Stage, run_step
from assistant.reply.prompt import History
from assistant.reply.prompt_cache import PromptCache

log = logging.getLogger(__name__)


class Responder:
    def __init__(self, engines: Engines, sink: AudioSink, emit: Callable[[ev.Event], None], clock: Clock,
                 config: Config, history: History, routing: SpeakerRouting, stream_audio: bool = True,
                 prefill: bool = True, on_transcript: Callable[[int, str], None] | None = None,
                 is_echo: Callable[[int, str], bool] | None = None) -> None:
        self.engines, self.sink, self.clock, self.config, self.history = engines, sink, clock, config, history
        self._emit_now = emit
        self.routing = routing  # whose memory each turn uses
        self.prefill = prefill  # evaluate the prompt ahead, from partial transcripts and between turns
        self.prompt_cache = PromptCache(engines.llm, engines.llm_gate, history, config.memory_budget_tokens)
        self.llm_gate = engines.llm_gate
        self._lock = threading.RLock()
        self._jobs: dict[int, Job] = {}  # started and not yet ended
        self._last_done: threading.Event | None = None  # the newest job's `done`
        self.finished: queue.Queue[int] = queue.Queue()  # job ids, read by the loop
        self._between_turns_done = threading.Event()  # set once no job is open and the work after the last is done
        self._between_turns_done.set()
        self._carry = CarriedUtterance()
        hearer = self._hearer = Hearer(engines, routing, clock, self._emit, lambda job: self._recalling.put(job),
                                       self._skip, on_transcript or (lambda turn_id, text: None),
                                       is_echo or (lambda turn_id, text: False))
        recaller = self._recaller = Recaller(routing, clock, history, self.prompt_cache, prefill, self._emit,
                                             lambda message: self._generating.put(message))
        generator = Generator(engines, config, clock, history, self.prompt_cache, stream_audio, self._emit,
                              self._check, lambda message: self._speaking.put(message),
                              lambda: self._speaking.wait_idle())
        speaker = Speaker(engines, stream_audio, self._play_chunks, self._check, self._complete)
        # the pipeline, in order; each stage hands its job on to the next
        self._hearing: Stage[Job] = Stage("hearing", functools.partial(self._hear, hearer))
        self._recalling: Stage[Job] = Stage("recalling", lambda job: self._work(job, recaller.recall, job))
        self._generating: Stage[Recalled | BetweenTurns] = Stage("generating", lambda message: (
            self._between_turns(message) if isinstance(message, BetweenTurns)
            else self._work(message.job, generator.reply, message)))
        self._speaking: Stage[Sentence | ReplyEnd] = Stage(
            "speaking", lambda message: self._work(message.job, speaker.handle, message))
        self.warming = threading.Thread(target=self.prompt_cache.warm, args=(routing.anticipated,),
                                        name="warm-prompt", daemon=True)
        if prefill:
            self.warming.start()

    # -- called from the listening thread ---------------------------------------------------
    def start(self, job_id: int, turn_id: int, audio: np.ndarray, speculative: bool) -> Job:
        with self._lock:
            job = Job(job_id, turn_id, self._carry.before(audio), JobState.HELD if speculative else JobState.RELEASED,
                      after=self._last_done)
            if not speculative:  # released at once: the carried utterance is answered in it, and only in it
                self._carry.clear()
            self._jobs[job_id] = job
            self._last_done = job.done
            self._between_turns_done.clear()
            self.llm_gate.reply_started()  # background memory rewrites stand aside from now on
        self._hearing.put(job)
        return job

    def release(self, job_id: int) -> None:
        """The endpoint confirmed this job: its held events and audio go out now."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.ended:  # it lost a race with a barge-in
                return
            job.advance(JobEvent.RELEASE)
            self._carry.clear()
            for e in job.held_events:
                self._emit_now(e)
            job.held_events.clear()
            held, job.held_audio = job.held_audio, []
            for chunk in held:
                self._play(job, chunk)
            if job.state is JobState.FINISHED:  # it had nothing to say: the endpoint was all it waited for
                self._end(job)

    def cancel(self, job_id: int, reason: str) -> float | None:
        """Drop a job. For a barge-in, playback stops now and the seconds heard are returned;
        None when nothing of the reply had been played (the person simply went on talking)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.ended:
                return None
            idle = job.state is JobState.HELD_EMPTY  # no stage holds it: it ends here
            job.advance(cancel_event(reason))
            heard = None
            if job.state is JobState.CONTINUED:
                self._carry.keep(job)
                self._emit_now(ev.TurnSkipped(job.turn_id, self.clock.now(), reason="continued in the next turn"))
            elif job.state is JobState.INTERRUPTED:
                heard = job.heard_seconds = self.sink.stop()
                job.underruns = self.sink.underruns - job.underruns_before
            else:
                job.stop_reason = reason
            if idle:
                self._end(job)
            return heard

    def anticipate(self, turn_id: int, partial_text: str) -> None:
        """On the partial worker. After an utterance carried over, the partial is joined to its
        words, as the final transcript will be (without them the partial covers too little of it
        to stand in for it)."""
        self._recaller.anticipate(turn_id, self._carry.joined(partial_text))

    @property
    def anticipated_text(self) -> str:
        return self._recaller.anticipated_text

    @property
    def carrying(self) -> bool:
        """An utterance is carried over, waiting to be answered with what is said next."""
        with self._lock:
            return self._carry.audio is not None

    @property
    def open_jobs(self) -> int:
        """Jobs started and not yet ended (each holds its utterance's audio)."""
        with self._lock:
            return len(self._jobs)

    def wait(self, job_id: int, timeout: float | None = None) -> None:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is not None:
            job.done.wait(timeout)

    def wait_between_turns(self) -> None:
        """Fast replays: wait for what is done between two turns (the next prompt evaluated ahead),
        as it would be while the reply plays and the person starts to speak."""
        self._between_turns_done.wait()

    def close(self) -> None:
        with self._lock:
            unreleased = [j.job_id for j in self._jobs.values() if j.state in (JobState.HELD, JobState.HELD_EMPTY)]
        for job_id in unreleased:  # a reply made in a silence that never ended: nobody is waiting for it
            self.cancel(job_id, "closed")
        for stage in (self._hearing, self._recalling, self._generating, self._speaking):
            stage.close()  # after the stage before it: what that handed on is handled first
        self._hearer.close()

    # -- what the stages share: a job's events, audio and end -------------------------------
    def _emit(self, job: Job, event: ev.Event) -> None:
        with self._lock:
            self._check(job)
            if job.released:
                self._emit_now(event)
            else:
                job.held_events.append(event)

    def _play(self, job: Job, chunk: np.ndarray) -> None:
        """Called with the lock held: play now if released, else hold."""
        if job.state is JobState.HELD:
            job.held_audio.append(chunk)
            return
        if job.state is JobState.RELEASED:
            job.advance(JobEvent.PLAY)
            if job.memory is not None and job.heard:  # before a reply is heard, what was said is on disk
                job.memory_turn = job.memory.begin_turn(job.heard, job.recalled)
            self.sink.start_reply(job.turn_id)
            job.underruns_before = self.sink.underruns
            self._emit_now(ev.FirstAudio(job.turn_id, self.clock.now()))
        self.sink.play(chunk, self.engines.tts.sample_rate)

    def _play_chunks(self, job: Job, chunks: list[np.ndarray]) -> None:
        with self._lock:
            for chunk in chunks:
                self._check(job)
                self._play(job, chunk)

    def _check(self, job: Job) -> None:
        if job.stopped:
            raise JobCancelled

    def _work(self, job: Job, step: Callable, *args) -> None:
        run_step(job, step, args, self._end, self._fail)

    def _fail(self, job: Job, exc: Exception) -> None:
        # A model's own error is one line written by Hearth (a server unreachable, say); any other
        # may carry what was said, which is never logged: its type only.
        log.error("turn %s failed: %s", job.turn_id, exc if isinstance(exc, ModelError) else type(exc).__name__)
        log.debug("turn %s failed", job.turn_id, exc_info=exc)
        with self._lock:
            if not job.ended:
                released = job.released
                job.advance(JobEvent.FAIL)
                if released:
                    self._emit_now(ev.TurnSkipped(job.turn_id, self.clock.now(),
                                                  reason=f"failed: {type(exc).__name__}"))
        self._end(job)

    def _voice_of(self, job: Job) -> np.ndarray | None:
        """The turn's audio, for memory to hear how it was said (None: voice cues are off)."""
        return job.audio if self.config.voice_cues else None

    def _end(self, job: Job) -> None:
        """Once per job, from whichever stage (or the planner's call) finds it over: what a stopped
        job leaves behind, then the loop is told and, with no job open, the time between turns used."""
        with self._lock:
            if self._jobs.pop(job.job_id, None) is None:
                return  # another stage ended it
            idle = not self._jobs
            if job.state is JobState.CONTINUED:
                self._carry.transcribed(job)
        remains = remains_of(job, self.clock.now())
        if remains.spoken is not None:
            self.history.add(job.heard, remains.spoken)
        for event in remains.events:
            self._emit_now(event)
        if remains.spoken is not None and job.memory_turn is not None:
            job.memory.finish_turn(job.memory_turn, remains.spoken, self._voice_of(job))
        self.llm_gate.reply_ended()
        job.done.set()
        self.finished.put(job.job_id)
        if idle:
            person = job.memory.person_name if job.memory else None
            self._generating.put(BetweenTurns(person, prefill=self.prefill and bool(job.heard)))

    # -- the stages' steps ---------------------------------------------------------------------
    def _skip(self, job: Job) -> None:
        """From the hearing stage: no reply to give. A held job waits for the endpoint to show that."""
        with self._lock:
            self._check(job)
            job.advance(JobEvent.SKIP)
            if job.state is JobState.FINISHED:
                self._end(job)

    def _hear(self, hearer: Hearer, job: Job) -> None:
        # The job before it ends first: its reply is then in the history this one's prompt is built
        # from, and nothing is transcribed while a reply plays (on two cores, Whisper beside the
        # playback starved the echo canceller, and Hearth's own voice was heard as a person).
        if job.after is not None:
            job.after.wait()
        self._work(job, hearer.hear, job)

    def _between_turns(self, message: BetweenTurns) -> None:
        if message.prefill and not self.open_jobs:
            self.prompt_cache.prefill_next(message.person_name)
        if not self.open_jobs:
            release_free_memory()
        with self._lock:
            if not self._jobs:
                self._between_turns_done.set()

    def _complete(self, job: Job) -> None:
        """On the speaking stage, after the reply's last sentence: it finishes once all of it is heard."""
        # A reply made whole within the silence waits there for the endpoint, or for the person to go on.
        job.settled.wait()
        with self._lock:  # release() hands the held audio to the sink under the lock: all of it is there now
            self._check(job)
        self.sink.finish_reply()  # waits until it has all been heard
        reply = " ".join(sentence for sentence, _ in job.sentences)
        with self._lock:
            self._check(job)
            self._emit_now(ev.ReplyDone(job.turn_id, self.clock.now(), text=reply,
                                        underruns=self.sink.underruns - job.underruns_before))
            job.advance(JobEvent.FINISH)  # from here on a barge-in has nothing to stop
        self.history.add(job.heard, reply)
        if job.memory_turn is not None:
            job.memory.finish_turn(job.memory_turn, reply, self._voice_of(job))
        self.routing.learn(job.speaker)
        self._end(job)
