"""Speech recognition: faster-whisper on a model folder (the bundled tiny.en by default).

Whisper pads every input to 30 s and faster-whisper's `transcribe` encodes all of it: 0.37 s of
the 0.47 s a 3 s utterance took here. An utterance under 19 s is first encoded in a window fitted
to it and decoded with CTranslate2 directly (about 2x faster on the shared clips). Whisper
was trained on 30 s windows, and in a short one it sometimes repeats itself ("10 of clubs 10 of
clubs..."); such a decode, or an unsure one, is done again the usual way. A loop that one keeps
(over Hearth's own echo: a sentence twice, and begun a third time) is cut to its first pass.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import numpy as np

from . import ModelError
from .internals import require_internals


SAMPLE_RATE = 16000
WINDOW_STEP = 10  # seconds: 5 s windows dropped words ("five five" heard as "5")
MAX_WORDS_PER_SECOND = 5  # brisk speech is about 3
# Whisper's own thresholds (faster-whisper's defaults): below this mean log-probability a decode
# is unsure; above this no-speech probability, an unsure decode is silence.
LOG_PROB_THRESHOLD = -1.0
NO_SPEECH_THRESHOLD = 0.6
_REPEATS = re.compile(r"(.{1,24}?)\1{3,}|(.{4,24})\2{2,}")  # a piece four times, or a phrase three times


def window_seconds(audio_seconds: float, margin: float = 1.0) -> int:
    """The encoder window for an utterance: just longer than it (in 10 s steps, at least 1 s to spare),
    at most Whisper's 30 s."""
    steps = int(-(-(audio_seconds + margin) // WINDOW_STEP))
    return max(WINDOW_STEP, min(30, steps * WINDOW_STEP))


def ran_away(text: str, audio_seconds: float) -> bool:
    """A decode that repeats itself (a piece of a word, or a run of words: `without_loop`), or has more
    words than anyone says in the time."""
    return (bool(_REPEATS.search(text)) or len(text.split()) > audio_seconds * MAX_WORDS_PER_SECOND + 3
            or without_loop(text) != text)


LOOP_MIN_WORDS = 3  # a run this long said again and again is Whisper looping, not the speaker


def _word(token: str) -> str:
    return re.sub(r"[^\w']", "", token.lower())


def without_loop(text: str) -> str:
    """Pure. The transcript with a loop of Whisper's cut to its first pass: a run of words said back
    to back three times or more, or twice and begun again where the decode ended ("Eight of spades,
    four of close, seven of hearts. Eight of spades, four of close, seven of hearts. Eight of", a
    person's words over Hearth's echo, in the echo benchmark). A phrase said twice, whole, is kept:
    people do ("tear down the fence, tear down the fence.")."""
    tokens = text.split()
    words = [_word(t) for t in tokens]
    for size in range(len(words) // 2, LOOP_MIN_WORDS - 1, -1):  # the longest run first
        for start in range(len(words) - 2 * size + 1):
            run = words[start:start + size]
            if words[start + size:start + 2 * size] != run:
                continue
            end = start + 2 * size
            while words[end:end + size] == run:
                end += size
            tail = words[end:]
            begun_again = 0 < len(tail) < size and tail == run[:len(tail)]
            if end - start >= 3 * size or begun_again:
                kept = tokens[:start + size] + ([] if begun_again else tokens[end:])
                return " ".join(kept)
    return text


FASTER_WHISPER_PINNED = "1.2.1"  # = pyproject.toml's pin; the internals below are this version's
WHISPER_MODEL_INTERNALS = ("model.is_multilingual", "model.encode", "model.generate", "hf_tokenizer",
                           "get_prompt", "feature_extractor")
FASTER_WHISPER_FUNCTIONS = ("tokenizer.Tokenizer", "transcribe.get_suppressed_tokens", "audio.pad_or_trim")


def check_whisper_internals(model, faster_whisper_module) -> None:
    """ModelError if this faster-whisper lacks what WhisperTranscriber reaches into (models/internals.py)."""
    require_internals("faster-whisper", FASTER_WHISPER_PINNED, "models/asr.py",
                      [("WhisperModel", model, WHISPER_MODEL_INTERNALS),
                       ("faster_whisper", faster_whisper_module, FASTER_WHISPER_FUNCTIONS)])


class WhisperTranscriber:
    def __init__(self, model_dir: Path, threads: int = 2, compute_type: str = "int8", beam_size: int = 1,
                 name: str | None = None) -> None:
        from faster_whisper import WhisperModel

        model_dir = Path(model_dir)
        if not (model_dir / "model.bin").is_file():
            raise ModelError(f"no faster-whisper model in {model_dir} (expected model.bin there)")
        try:
            self._model = WhisperModel(str(model_dir), device="cpu", compute_type=compute_type,
                                       cpu_threads=threads, local_files_only=True)
        except Exception as exc:
            raise ModelError(f"cannot load the speech model in {model_dir}: {str(exc).splitlines()[0]}") from None
        import faster_whisper.audio
        import faster_whisper.tokenizer
        import faster_whisper.transcribe

        check_whisper_internals(self._model, faster_whisper)
        self.name = name or model_dir.name
        self.beam_size = beam_size
        # An English-only model (".en") must not be asked to detect the language; a multilingual
        # one is left to faster-whisper, which detects it.
        self.language = "en" if not self._model.model.is_multilingual else None
        self.fitted_decodes = 0  # how often the fitted window's decode was kept
        self.full_decodes = 0  # how often the utterance was transcribed in the full 30 s window
        if self.language:  # the fitted window uses faster-whisper's own prompt and token rules (1.x)
            from faster_whisper.tokenizer import Tokenizer
            from faster_whisper.transcribe import get_suppressed_tokens

            self._tokenizer = Tokenizer(self._model.hf_tokenizer, False, task="transcribe", language=self.language)
            self._prompt = self._model.get_prompt(self._tokenizer, [], without_timestamps=True)
            self._suppress = get_suppressed_tokens(self._tokenizer, [-1])

    def transcribe(self, audio: np.ndarray) -> str:
        """16 kHz mono float32 -> text."""
        if len(audio) < 1600:  # under 0.1 s there is nothing to recognise
            return ""
        audio = np.asarray(audio, dtype=np.float32)
        window = self._fitted_window(audio)
        if window:
            text = self._fitted(audio, window)
            if text is not None:
                self.fitted_decodes += 1
                return text
        self.full_decodes += 1
        segments, _ = self._model.transcribe(
            audio, language=self.language, beam_size=self.beam_size, vad_filter=False,
            condition_on_previous_text=False, without_timestamps=True,
        )
        return without_loop(" ".join(s.text.strip() for s in segments).strip())

    def word_times(self, audio: np.ndarray) -> list[tuple[str, float, float]]:
        """(word, start, end) in seconds for each word heard, from faster-whisper's own word
        timestamps: for benchmarks that cut speech at word boundaries, not for the reply path."""
        segments, _ = self._model.transcribe(np.asarray(audio, dtype=np.float32), language=self.language,
                                             beam_size=self.beam_size, vad_filter=False,
                                             condition_on_previous_text=False, word_timestamps=True)
        return [(w.word.strip(), float(w.start), float(w.end)) for s in segments for w in (s.words or [])]

    def transcribe_partial(self, audio: np.ndarray, wanted: Callable[[], bool] = lambda: True) -> str | None:
        """While the person is still speaking: the fitted window only. An unsure decode is not done
        again in the full window (three times the work, and the next partial comes soon), and none
        is decoded once `wanted()` is false (the person stopped: the final transcription, on the same
        model and the same cores, should not wait for it). None: no partial this time."""
        if len(audio) < 1600:
            return ""
        audio = np.asarray(audio, dtype=np.float32)
        window = self._fitted_window(audio)
        if window:
            return self._fitted(audio, window, wanted)
        return self.transcribe(audio) if wanted() else None

    def _fitted_window(self, audio: np.ndarray) -> int | None:
        """The fitted window's seconds, where it applies: an English-only model, an utterance under 19 s."""
        window = window_seconds(len(audio) / SAMPLE_RATE)
        return window if self.language and window < 30 else None

    def _fitted(self, audio: np.ndarray, window: int, wanted: Callable[[], bool] = lambda: True) -> str | None:
        """Encode a window fitted to the utterance and decode it; None when the decode is not to be
        trusted, or no longer wanted once encoded."""
        import ctranslate2
        from faster_whisper.audio import pad_or_trim

        seconds = len(audio) / SAMPLE_RATE
        model = self._model
        features = pad_or_trim(model.feature_extractor(audio), window * 100)  # 100 frames/s
        encoded = model.model.encode(ctranslate2.StorageView.from_array(
            np.ascontiguousarray(features[None], dtype=np.float32)), to_cpu=False)
        if not wanted():
            return None
        max_tokens = int(seconds * MAX_WORDS_PER_SECOND * 2) + 10  # a runaway decode stops early
        result = model.model.generate(
            encoded, [self._prompt], beam_size=self.beam_size, max_length=max_tokens, suppress_blank=True,
            suppress_tokens=self._suppress, return_scores=True, return_no_speech_prob=True)[0]
        tokens = [t for t in result.sequences_ids[0] if t < self._tokenizer.eot]
        mean_log_prob = result.scores[0] * len(tokens) / (len(tokens) + 1)  # as faster-whisper reckons it
        if result.no_speech_prob > NO_SPEECH_THRESHOLD and mean_log_prob < LOG_PROB_THRESHOLD:
            return ""
        text = self._tokenizer.decode(tokens).strip()
        if mean_log_prob < LOG_PROB_THRESHOLD or ran_away(text, seconds):
            return None
        return text
