"""The reply worker: transcribe, recall, generate, voice and play one job at a time, on its own thread.

A job may be speculative: its events and audio are held back until the endpoint releases it, and
dropped without a trace (but for a SpeculationDropped event) if the person resumes. A job that is
cancelled while playing (barge-in) stops at once and leaves only what was heard in the history.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from typing import Callable

import numpy as np

from audio.sinks import AudioSink

from assistant import events as ev
from assistant.clock import Clock
from assistant.config import Config
from assistant.pipeline.anticipation import Anticipation, anticipate, recall
from assistant.pipeline.heap import release_free_memory
from assistant.engines import Engines
from assistant.memory_access.routing import SpeakerRouting
from assistant.pipeline.jobs import CarriedUtterance, Job, JobCancelled
from assistant.pipeline.lifecycle import JobEvent, JobState, cancel_event
from assistant.pipeline.voicing import Voicer
from assistant.pipeline.worker import Worker
from assistant.reply.prompt import History, build_messages
from assistant.reply.prompt_cache import PromptCache
from assistant.reply.checks import repaired

log = logging.getLogger(__name__)

class Responder:
    def __init__(self, engines: Engines, sink: AudioSink, emit: Callable[[ev.Event], None], clock: Clock,
                 config: Config, history: History, routing: SpeakerRouting, stream_audio: bool = True,
                 prefill: bool = True, on_transcript: Callable[[int, str], None] | None = None,
                 is_echo: Callable[[int, str], bool] | None = None) -> None:
        self.engines, self.sink, self.clock, self.config, self.history = engines, sink, clock, config, history
        self._emit_now = emit
        self.routing = routing  # whose memory each turn uses
        self.prefill = prefill  # evaluate the prompt from partial transcripts while the person speaks
        # told a speculative job's transcript while the endpoint is still pending (endpoint tuning)
        self._on_transcript = on_transcript or (lambda turn_id, text: None)
        # told each transcript: is it Hearth's own voice heard back (assistant/pipeline/echo_guard.py)?
        self._is_echo = is_echo or (lambda turn_id, text: False)
        self._anticipation: Anticipation | None = None
        self.prompt_cache = PromptCache(engines.llm, engines.llm_gate, history, config.memory_budget_tokens)
        self.llm_gate = engines.llm_gate
        self._lock = threading.RLock()
        self._jobs: dict[int, Job] = {}
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self.finished: queue.Queue[int] = queue.Queue()  # job ids, read by the loop
        self._between_turns_done = threading.Event()  # set once no job is queued and the work after the last is done
        self._between_turns_done.set()
        self._carry = CarriedUtterance()
        self._identifier = Worker("identifying the speaker")  # beside the ASR, for every job
        self._voicer = Voicer(engines, config, clock, history, stream_audio, self._emit, self._play_chunks,
                              self._check)
        self._thread = threading.Thread(target=self._run, name="responder", daemon=True)
        self._thread.start()
        self.warming = threading.Thread(target=self.prompt_cache.warm, args=(routing.anticipated,),
                                        name="warm-prompt", daemon=True)
        if prefill:
            self.warming.start()

    # -- called from the listening thread ---------------------------------------------------
    def start(self, job_id: int, turn_id: int, audio: np.ndarray, speculative: bool) -> Job:
        with self._lock:
            job = Job(job_id, turn_id, self._carry.before(audio), JobState.HELD if speculative else JobState.RELEASED)
            self._jobs[job_id] = job
            self._between_turns_done.clear()
            self._queue.put(job)
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

    def cancel(self, job_id: int, reason: str) -> float | None:
        """Drop a job. For a barge-in, playback stops now and the seconds heard are returned;
        None when nothing of the reply had been played (the person simply went on talking)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.ended:
                return None
            job.advance(cancel_event(reason))
            if job.state is JobState.CONTINUED:
                self._carry.keep(job)
                self._emit_now(ev.TurnSkipped(job.turn_id, self.clock.now(), reason="continued in the next turn"))
            elif job.state is JobState.INTERRUPTED:
                job.heard_seconds = self.sink.stop()
                return job.heard_seconds
            else:
                job.stop_reason = reason
            return None

    def anticipate(self, turn_id: int, partial_text: str) -> None:
        """On the partial worker: look up memories for the words so far and, when the model is free,
        evaluate the prompt they make, so the final reply only has to evaluate what changed. After
        an utterance carried over, the partial is joined to its words, as the final transcript
        will be (without them the partial covers too little of it to stand in for it)."""
        partial_text = self._carry.joined(partial_text)
        memory = self.routing.anticipated()  # the person who spoke last, before the voice is identified
        a = self._anticipation = anticipate(turn_id, partial_text, memory)
        if self.prefill:
            self.prompt_cache.prefill_partial(partial_text, memory, a.block)

    @property
    def anticipated_text(self) -> str:
        """The words the last anticipated lookup was made for ("" before any)."""
        a = self._anticipation
        return a.text if a is not None else ""

    @property
    def open_jobs(self) -> int:
        """Jobs started and not yet finished (each holds its utterance's audio)."""
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
            unreleased = [j.job_id for j in self._jobs.values() if j.state is JobState.HELD]
        for job_id in unreleased:  # a reply made in a silence that never ended: nobody is waiting for it
            self.cancel(job_id, "closed")
        self._queue.put(None)
        self._thread.join(timeout=120)
        self._identifier.close()

    # -- the worker ----------------------------------------------------------------------
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
                job.memory_turn = job.memory.begin_turn(job.heard)
            self.sink.start_reply(job.turn_id)
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

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            if job.stopped:  # dropped before it began
                with self._lock:
                    self._jobs.pop(job.job_id, None)  # (it holds the utterance's audio)
                job.done.set()
                self.finished.put(job.job_id)
                continue
            cpu = time.thread_time()
            try:
                with self.llm_gate.wanted():  # background memory rewrites stand aside from now on
                    self._answer(job)
            except JobCancelled:
                self._after_cancel(job, time.thread_time() - cpu)
            except Exception as exc:  # one bad turn must not silence Hearth for the rest of the session
                log.error("turn %s failed (%s)", job.turn_id, type(exc).__name__)
                log.debug("turn %s failed", job.turn_id, exc_info=True)
                if job.released:
                    self._emit_now(ev.TurnSkipped(job.turn_id, self.clock.now(),
                                                  reason=f"failed: {type(exc).__name__}"))
            finally:
                job.done.set()
                with self._lock:
                    self._jobs.pop(job.job_id, None)
                self.finished.put(job.job_id)
            if self.prefill and job.heard and self._queue.empty():
                self.prompt_cache.prefill_next(job.memory.person_name if job.memory else None)
            if self._queue.empty():
                release_free_memory()
            with self._lock:
                if self._queue.empty():
                    self._between_turns_done.set()

    def _after_cancel(self, job: Job, cpu_seconds: float) -> None:
        if job.state is JobState.INTERRUPTED and job.heard:
            spoken = self._spoken_text(job)
            self.history.add(job.heard, spoken)
            self._emit_now(ev.ReplyDone(job.turn_id, self.clock.now(), text=spoken, interrupted=True))
            if job.memory_turn is not None:
                job.memory.finish_turn(job.memory_turn, spoken)
        elif job.state in (JobState.DROPPED, JobState.CONTINUED):  # thrown-away work, counted from the event
            with self._lock:
                if job.state is JobState.CONTINUED:
                    self._carry.transcribed(job)
            self._emit_now(ev.SpeculationDropped(job.turn_id, self.clock.now(), cpu_seconds=cpu_seconds,
                                                 reason=job.stop_reason or job.state.value))

    def _spoken_text(self, job: Job) -> str:
        """The sentences whose audio had begun to play when the person spoke over the reply."""
        return " ".join(s for s, start in job.sentences if start < job.heard_seconds)

    def _answer(self, job: Job) -> None:
        started = self.clock.now()
        routing = self.routing
        identified = self._identifier.submit(routing.identify, job.audio)
        text = job.transcript = self.engines.asr.transcribe(job.audio)
        self._emit(job, ev.AsrDone(job.turn_id, self.clock.now(), text=text, started=started))
        if job.state is JobState.HELD:
            self._on_transcript(job.turn_id, text)
        job.speaker = self._identifier.result(identified)
        if job.speaker is not None:
            self._emit(job, ev.SpeakerIdentified(job.turn_id, self.clock.now(), **job.speaker.fields))
        job.memory = routing.memory_for(job.speaker)
        if not worth_answering(text) or self._is_echo(job.turn_id, text):
            reason = "no words" if not worth_answering(text) else "echo"
            self._emit(job, ev.TurnSkipped(job.turn_id, self.clock.now(), reason=reason))
            job.settled.wait()  # held until the endpoint, which shows it
            with self._lock:
                if job.state is JobState.RELEASED:
                    job.advance(JobEvent.FINISH)
            return
        job.heard = text

        started = self.clock.now()
        block, memories = recall(self._anticipation, job.turn_id, job.memory, text)
        self._emit(job, ev.RecallDone(job.turn_id, self.clock.now(), memories=tuple(memories), started=started))

        step = routing.dialog_step(text, job.speaker)
        if step is not None and step.handled:  # the enrolment dialog answers this one itself
            reply = self._voicer.say(job, step.say)
        else:
            notes = self.prompt_cache.use_notes(job.memory, block)
            name = job.memory.person_name if job.memory else None
            said = [user for user, _ in self.history.turns] + [text]
            reply = self._voicer.speak(job, build_messages(text, self.history, notes, name),
                                repair=lambda sentence: repaired(sentence, name or "", said, notes))
        # A reply made whole within the silence waits there for the endpoint, or for the person to go on.
        job.settled.wait()
        self._check(job)
        self.sink.finish_reply()  # waits until it has all been heard
        with self._lock:
            self._check(job)
            self._emit_now(ev.ReplyDone(job.turn_id, self.clock.now(), text=reply))
            job.advance(JobEvent.FINISH)  # from here on a barge-in has nothing to stop
        self.history.add(text, reply)
        if job.memory_turn is not None:
            job.memory.finish_turn(job.memory_turn, reply)
        routing.learn(job.speaker)


_NO_WORDS = re.compile(r"^[\W_]*$")
_NON_SPEECH_TAG = re.compile(r"^\s*[\[(].*[\])]\s*$")  # "[BLANK_AUDIO]", "(music)"


def worth_answering(text: str) -> bool:
    """Whisper returns tags or punctuation for noise; those are not turns."""
    return not (_NO_WORDS.match(text) or _NON_SPEECH_TAG.match(text))
