"""The silence that ends the utterance in progress, tuned while it is heard: from its partial
transcripts, from its whole transcript made in the silence, and from how its end sounded (the
end-of-turn model, once per pause). The rule is assistant/pipeline/end_silence.py's; this holds
what has been heard of the utterance so far and sets the endpointer's silence from it."""

from __future__ import annotations

from typing import Callable

from audio.endpointer import Endpointer

from assistant.config import Config
from assistant.pipeline.end_silence import EndSilence, end_silence_heard


class EndpointTuner:
    def __init__(self, config: Config, adaptive: bool, finished: Callable | None) -> None:
        """adaptive: tune at all (off: the fixed end_silence_ms); finished(recent_audio): the
        end-of-turn model's P(finished), or None without it."""
        self.config, self.adaptive, self._model = config, adaptive, finished
        self.finished: float | None = None  # the end-of-turn model's P(finished) at this pause's start
        self._decided: EndSilence | None = None  # the silence this pause was last given to end the turn
        self._last_text = ""  # the words last heard of the utterance in progress
        self._last_whole = False  # they are the transcript of all of it, made in the silence

    def speech_started(self, endpointer: Endpointer) -> None:
        self.speech_resumed()
        self._last_text = ""
        endpointer.set_end_silence(self.config.end_silence_ms / 1000)

    def speech_resumed(self) -> None:
        self.finished = self._decided = None  # how the last silence's start sounded no longer holds
        self._last_whole = False  # nor does a transcript of what came before it stand for all of it

    def voice_stopped(self, endpointer: Endpointer, recent_audio) -> None:
        """On the listening thread, as the voice stops: does the utterance sound finished? (30-70 ms
        of the end-of-turn model, once per pause, asked after the utterance's transcription has
        begun: the reply waits for that, and the model's answer is wanted only with it)"""
        if self.adaptive and self._model is not None:
            self.finished = self._model(recent_audio())
            self.heard(endpointer, self._last_text, whole=self._last_whole)

    def heard(self, endpointer: Endpointer, text: str, whole: bool = False) -> None:
        """Words heard of the utterance (`whole`: the transcript of all of it, made in the silence)."""
        self._last_text, self._last_whole = text, whole
        if self.adaptive:
            c = self.config
            self._decided = end_silence_heard(text, self.finished, c.end_silence_ms, c.end_silence_finished_ms,
                                              c.end_silence_unfinished_ms, whole=whole)
            endpointer.set_end_silence(self._decided.ms / 1000)

    def decision(self) -> EndSilence:
        """The silence that ended the utterance, and why."""
        return self._decided or EndSilence(self.config.end_silence_ms, "words" if self.adaptive else "fixed")
