"""The turn loop: frames in, utterances found, answered and spoken, with an event at every moment.

The listening thread (this one) runs the VAD and the endpointer on every frame and never waits
for a model. Reply work runs in the Responder's four stages (hearing, recalling, generating,
speaking: each its own thread); partial transcripts on their own. The TurnPlanner decides, from
the endpointer's signals alone, what to start, release or cancel.

LoopOptions switch each speed-up on or off; all off is the sequential baseline the benchmark
compares against: no partials, no anticipation, no speculation, the whole reply voiced first.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Iterator

import numpy as np

from audio.echo_decision import brief
from audio.endpointer import Signal, Step
from audio.listener import Listener
from audio.sinks import AudioSink
from audio.sources import Frame

from assistant import events as ev
from assistant.clock import Clock, SpeechPacer
from assistant.config import Config
from assistant.pipeline.endpoint_tuning import EndpointTuner
from assistant.pipeline.echo_guard import EchoGuard
from assistant.engines import Engines
from assistant.pipeline.partials import PartialTranscriber
from assistant.reply.prompt import History
from assistant.pipeline.responder import Responder
from assistant.memory_access.routing import OneMemory, SpeakerRouting
from assistant.pipeline.loop_types import LoopOptions, TurnRecord, endpoint_settings
from assistant.pipeline.overlap import OverlapJudge, Ruling
from assistant.pipeline.planner import CancelJob, ReleaseJob, StartJob, TurnPlanner


class TurnLoop:
    def __init__(self, engines: Engines, sink: AudioSink, bus: ev.EventBus, clock: Clock, config: Config,
                 routing: SpeakerRouting | None = None, options: LoopOptions | None = None,
                 keep_records: int | None = None) -> None:
        self.engines = engines
        self.sink = sink
        self.bus = bus
        self.clock = clock
        self.config = config
        self.routing = routing if routing is not None else OneMemory()  # whose memory each turn uses
        self.options = options or LoopOptions()
        self.history = History(max_turns=config.history_turns)
        self.records: list[TurnRecord] = []
        # A replay returns every turn's record; a live session, which may run for days, keeps the last few.
        self.keep_records = keep_records
        self._records_by_turn: dict[int, TurnRecord] = {}
        self._records_lock = threading.Lock()
        self._frame_times: deque[tuple[int, float]] = deque(maxlen=4096)
        self._planner: TurnPlanner | None = None
        self._listener: Listener | None = None
        self.tuner = EndpointTuner(config, self.options.adaptive_endpoint,
                                   engines.turn_end.finished if engines.turn_end is not None else None)
        self._paused = False  # the reply is held, silent, while speech over it is judged
        self.echo = EchoGuard(config.echo_guard, sink, clock)
        self.overlap = OverlapJudge(endpoint_settings(config).frames(config.backchannel_ms / 1000),
                                    self._transcribe_overlap, self.echo.heard_echo, self._transcribe_overlap_start)
        self.responder = Responder(engines, sink, self._emit, clock, config, self.history, self.routing,
                                   stream_audio=self.options.stream_audio, prefill=self.options.prefill,
                                   on_transcript=self._on_silence_transcript, is_echo=self.echo.heard_echo)

    # -- events ---------------------------------------------------------------------------
    def _emit(self, event: ev.Event) -> None:
        with self._records_lock:
            record = self._records_by_turn.get(event.turn_id)
            if record is not None:
                record.events.append(event)
                if isinstance(event, ev.AsrDone):
                    record.heard = event.text
                elif isinstance(event, ev.ReplyDone):
                    record.reply, record.interrupted = event.text, event.interrupted
                elif isinstance(event, ev.TurnSkipped):
                    record.skipped = event.reason
        if isinstance(event, ev.SentenceReady):
            self.echo.said(event.text)
        self.bus.emit(event)

    def _new_record(self, turn_id: int) -> None:
        with self._records_lock:
            record = TurnRecord(turn_id)
            self.records.append(record)
            self._records_by_turn[turn_id] = record
            if self.keep_records is not None and len(self.records) > self.keep_records:
                oldest = self.records.pop(0)
                self._records_by_turn.pop(oldest.turn_id, None)

    @property
    def records_held(self) -> int:
        """Turn records events can still reach (a live session keeps only the last few)."""
        with self._records_lock:
            return len(self._records_by_turn)

    def _time_of_frame(self, index: int) -> float:
        """Clock time at which the end of frame `index` was read."""
        for i, t in reversed(self._frame_times):
            if i <= index:
                return t
        return self.clock.now()

    def _timed(self, frames: Iterator[Frame]) -> Iterator[Frame]:
        for frame in frames:
            self._frame_times.append((frame.index, self.clock.now()))
            yield frame

    @property
    def busy(self) -> bool:
        """Listening to a turn, working on a reply, or speaking one."""
        listening = self._listener is not None and self._listener.endpointer.in_speech
        replying = self._planner is not None and self._planner.replying is not None
        return listening or replying or self.sink.playing

    @property
    def talking(self) -> bool:
        return self.sink.playing

    # -- listening ------------------------------------------------------------------------
    def run(self, frames: Iterator[Frame]) -> list[TurnRecord]:
        opts = self.options
        self.engines.vad.reset()
        listener = Listener(self.engines.vad.probability, endpoint_settings(self.config), self.config.vad_threshold)
        planner = self._planner = TurnPlanner(speculate=opts.speculate)
        partials = PartialTranscriber(self._transcribe_partial, self._emit, self.clock,
                                      interval=self.config.partial_interval_ms / 1000,
                                      on_text=self._on_partial) if opts.partials else None
        self._listener = listener
        pacer = SpeechPacer() if opts.pace_speech else None
        try:
            for heard in listener.hear(self.echo.frames(self._timed(frames))):
                self._collect_finished(planner)
                listener.threshold = self._threshold(planner)
                voiced = heard.speech_probability >= listener.threshold
                step, echo = self.echo.judge(heard.step, voiced, planner.turn_id,
                                             loud_may_pause=self._loud_may_pause(planner, listener))
                step, held, ruling = self._judge_overlap(step, echo, voiced, planner, listener, heard.utterance)
                # before acting on the step: a fast replay waits at the endpoint for memory writes,
                # which must not still be told that someone is speaking
                self.engines.llm_gate.listening(listener.endpointer.in_speech and not self.echo.suspect
                                                and not self.overlap.holding)
                if step.signal is Signal.SPEECH_RESUMED:
                    self.tuner.speech_resumed()
                if step.signal is Signal.SPEECH_START:
                    self._new_record(planner.turn_id + 1)
                    self.tuner.speech_started(listener.endpointer)
                    if partials:
                        partials.reset(planner.turn_id + 1)
                if partials and step.signal is Signal.SILENCE_START:
                    partials.reset(0)  # a partial still running now would arrive after the final one
                elif partials and step.signal is Signal.SPEECH_RESUMED:
                    partials.reset(planner.turn_id)
                # what began as a possible echo, or was held as a possible backchannel, is a person
                # talking over the reply: it stops before the step is acted on (a ruling that came with
                # the utterance's endpoint, acted on after it, stopped the turn's own new job instead,
                # and the reply played on: "wait", transcribed slowly beside the playing reply)
                barge_in = (echo == "person" and not held) or (ruling is not None and ruling.stops)
                actions = planner.confirm_barge_in() if barge_in else []
                actions += planner.on_signal(step.signal, heard.frame.index + 1, step.end_frame,
                                             barge_in=echo != "suspect" and not held)
                if ruling is not None and not ruling.stops:  # a backchannel (or echo, or a blip): it plays on
                    self._emit(ev.TurnSkipped(planner.turn_id, self.clock.now(), reason=ruling.why))
                elif echo == "echo" and not barge_in:
                    self._emit(ev.TurnSkipped(planner.turn_id, self.clock.now(), reason="echo"))
                if echo == "pause" or held:
                    self._pause(True)
                self._announce(step, heard, planner.turn_id, listener)
                for action in actions:
                    self._act(action, heard.utterance.audio if heard.utterance is not None
                              else listener.current_audio())
                if step.signal is Signal.SILENCE_START:  # after the reply's transcription has started
                    self.tuner.voice_stopped(listener.endpointer, listener.recent_audio)
                if step.signal is Signal.DISCARD and self.responder.carrying:
                    for action in planner.answer_carried():  # the carried utterance alone, nothing after it
                        self._act(action, np.zeros(0, dtype=np.float32))
                if (echo in ("person", "echo", "resume") and not held) or ruling is not None:
                    self._pause(False)  # after a barge-in's stop, so none of it plays again
                if partials and listener.endpointer.in_speech and not listener.endpointer.in_silence_window \
                        and not self.echo.suspect and not self.overlap.holding:
                    partials.offer(planner.turn_id, listener.current_audio)
                if pacer:
                    pacer.frame_read(heard.frame.media_end, listener.endpointer.in_speech)
        finally:
            self.engines.llm_gate.listening(False)
            if partials:
                partials.close()
            self.overlap.close()
            self._pause(False)  # the input ended while speech over the reply was judged: it finishes
            self._drain(planner)
        return self.records

    def _loud_may_pause(self, planner: TurnPlanner, listener: Listener) -> bool:
        """A reply is being heard and no utterance is being heard or judged: a loud sound before any
        speech may pause it (assistant/pipeline/echo_guard.py)."""
        return self._reply_audible(planner) and not listener.endpointer.in_speech and not self.overlap.holding

    def _judge_overlap(self, step, echo: str, voiced: bool, planner: TurnPlanner, listener: Listener, utterance):
        """Speech that would stop a reply being heard is held while it may be a backchannel
        (assistant/pipeline/overlap.py): the step to act on, whether it was held now, and the ruling
        on speech held before, once there is one."""
        audible = self._reply_audible(planner)
        if echo in ("unsure", "faded"):  # a person too brief to confirm on levels, ended: its words decide, now
            # its words decide, not its length (Hearth's own words heard back are echo however long); a
            # brief voice, or one that went quiet with the reply, only by words asking Hearth to stop
            quiet = echo == "faded" or brief(listener.endpointer.voiced_frames)
            held = audible and self.overlap.hold(planner.turn_id, 0, brief=quiet)
            if not held:
                return Step(Signal.NONE), False, Ruling(False, "echo")  # no words to judge by: echo, as it was
            step, ruling = self.overlap.judge(step, voiced, lambda: utterance.audio)
            return step, False, ruling
        would_stop = echo == "person" or (step.signal is Signal.SPEECH_START and echo == "")
        if would_stop and audible and not self.overlap.holding:
            turn_id = planner.turn_id + (step.signal is Signal.SPEECH_START)
            if self.overlap.hold(turn_id, listener.endpointer.voiced_frames):
                return step, True, None
        step, ruling = self.overlap.judge(step, voiced, listener.current_audio)
        return step, False, ruling

    def _transcribe_overlap(self, samples: np.ndarray) -> str:
        """On the overlap judge's worker: as a partial is, beside a prompt evaluated ahead."""
        with self.engines.llm_gate.transcribing():
            return self.engines.asr.transcribe(samples)

    def _transcribe_overlap_start(self, samples: np.ndarray) -> str | None:
        """Its first words, as a partial is made: in the fitted window only, None where unsure."""
        with self.engines.llm_gate.transcribing():
            return self.engines.asr.transcribe_partial(samples)

    def _pause(self, on: bool) -> None:
        """The reply held, silent, while speech over it is judged, or played on; each change said once."""
        if on != self._paused:
            self._paused = on
            self.sink.pause(on)
            self._emit(ev.ReplyPaused(self._current_turn(), self.clock.now(), paused=on))

    def _threshold(self, planner: TurnPlanner) -> float:
        """While Hearth is talking, half-duplex ignores the microphone (see assistant/pipeline/echo_guard.py)."""
        return self.echo.threshold(self.config.vad_threshold, self._reply_audible(planner))

    def _reply_audible(self, planner: TurnPlanner) -> bool:
        """A reply is being played (or held paused) to the person."""
        return planner.replying is not None and self.sink.playing

    def _announce(self, step, heard, turn_id: int, listener: Listener) -> None:
        signal = step.signal
        if signal is Signal.SPEECH_START:
            onset = heard.frame.index - listener.endpointer.start_frames + 1
            self._emit(ev.SpeechStart(turn_id, self._time_of_frame(onset - 1)))
        elif signal is Signal.SPEECH_RESUMED:
            self._emit(ev.SpeechResumed(turn_id, self.clock.now()))
        elif signal is Signal.DISCARD:
            self._emit(ev.TurnSkipped(turn_id, self.clock.now(), reason="too short"))
        elif signal is Signal.ENDPOINT:
            u = heard.utterance
            self._emit(ev.SpeechEnd(turn_id, self._time_of_frame(u.last_voiced_frame)))
            decided = self.tuner.decision()
            self._emit(ev.Endpoint(turn_id, self.clock.now(), audio_seconds=u.seconds, cut=u.cut,
                                   silence_ms=decided.ms, why="too long" if u.cut else decided.why,
                                   finished=self.tuner.finished))

    def _act(self, action, audio: np.ndarray) -> None:
        if isinstance(action, StartJob):
            self.responder.start(action.job_id, action.turn_id, audio, action.speculative)
            if not action.speculative and self.options.wait_for_reply:
                self._wait_for_turn(action.job_id)
        elif isinstance(action, ReleaseJob):
            self.responder.release(action.job_id)
            if self.options.wait_for_reply:
                self._wait_for_turn(action.job_id)
        elif isinstance(action, CancelJob):
            heard = self.responder.cancel(action.job_id, action.reason)
            if action.reason == "barge-in" and heard is not None:
                self._emit(ev.PlaybackStopped(self._current_turn(), self.clock.now(), heard_seconds=heard))

    def _wait_for_turn(self, job_id: int) -> None:
        """Fast replays: the recording waits for the reply and for what it taught the memory, so a
        replay is repeatable whatever the machine's speed; with prefill on, also for the next
        prompt's start to be evaluated, as it is while a reply plays and the person answers."""
        self.responder.wait(job_id)
        self.routing.flush()
        if self.options.prefill:
            self.responder.wait_between_turns()

    def _current_turn(self) -> int:
        return self.records[-1].turn_id if self.records else 0

    def _transcribe_partial(self, samples: np.ndarray, wanted) -> str | None:
        """On the partial worker; a prompt evaluated ahead meanwhile stands aside (both use every core)."""
        with self.engines.llm_gate.transcribing():
            return self.engines.asr.transcribe_partial(samples, wanted)

    def _on_partial(self, turn_id: int, text: str) -> None:
        """On the partial worker: anticipate recall, and tune the endpoint to how the sentence ends."""
        if self.options.anticipate:
            self.responder.anticipate(turn_id, text)
        if turn_id == self._current_turn() and self._listener is not None:
            self.tuner.heard(self._listener.endpointer, text)

    def _on_silence_transcript(self, turn_id: int, text: str) -> None:
        """On the hearing stage, inside the silence window: the whole utterance's transcript judges how
        it ends better than the last partial, which was cut mid-word ("And so my fellow mirror...")."""
        listener = self._listener
        if turn_id == self._current_turn() and listener is not None and listener.endpointer.in_silence_window:
            self.tuner.heard(listener.endpointer, text, whole=True)

    def _collect_finished(self, planner: TurnPlanner) -> None:
        while not self.responder.finished.empty():
            planner.job_finished(self.responder.finished.get_nowait())

    def _drain(self, planner: TurnPlanner) -> None:
        """The input ended: let the reply in progress finish, then stop the worker."""
        if planner.replying is not None:
            self.responder.wait(planner.replying, timeout=120)
        self.responder.close()
