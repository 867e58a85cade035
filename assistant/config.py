"""Configuration: defaults, then the user's TOML file, then command-line flags.

The file lives in the user's config folder (see `hearth --help`); every key is optional.
Model paths left empty mean the bundled models.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

from assistant.errors import HearthError

APP = "hearth"


def default_config_path() -> Path:
    return Path(os.environ.get("HEARTH_CONFIG") or Path(user_config_dir(APP)) / "config.toml")


def _default_data_dir() -> str:
    return os.environ.get("HEARTH_DATA_DIR") or user_data_dir(APP)


def _default_cache_dir() -> str:
    return os.environ.get("HEARTH_CACHE_DIR") or user_cache_dir(APP)


@dataclass
class Config:
    # [models]: empty means the bundled model
    asr_model: str = ""  # a faster-whisper model folder
    llm_model: str = ""  # a GGUF file
    llm_endpoint: str = ""  # an OpenAI-compatible base URL, e.g. http://gpu-box:8080/v1 (replaces llm_model)
    llm_endpoint_model: str = "default"
    llm_api_key: str = ""
    llm_endpoint_timeout_s: float = 20.0  # a server silent this long fails the turn (a person will not wait longer)
    tts_voice: str = ""  # a Piper .onnx voice (its .onnx.json beside it)
    threads: int = 2
    llm_context: int = 4096
    # the same prompt gets the same reply whatever was evaluated before it (tests), about 0.2 s later
    repeatable_replies: bool = False
    # [audio]
    input_device: str = ""  # index or part of the name; empty = system default
    output_device: str = ""
    end_silence_ms: int = 500  # silence that ends a turn when nothing tells how it ends
    # the end-of-turn model (Smart Turn, models/turn_end.py) hears whether a turn is finished: then
    # this short silence ends it, and one that sounds unfinished waits the long one
    turn_end_model: bool = True
    end_silence_finished_ms: int = 150
    end_silence_unfinished_ms: int = 1100
    max_utterance_s: float = 30.0
    vad_threshold: float = 0.5
    # speech over a playing reply is held (the reply pauses) until it is told a backchannel
    # ("mm-hmm", "yeah": it plays on) or an interruption (it stops); this much voice is always one.
    # 0: any speech over the reply stops it at once
    backchannel_ms: int = 800
    partial_interval_ms: int = 600  # how often the growing utterance is transcribed while it is spoken
    # "speakers": Hearth's echo is cancelled and recognised; "headphones": no echo to guard against;
    # "half-duplex": the microphone is ignored while Hearth talks (older names: ECHO_GUARD_ALIASES)
    echo_guard: str = "speakers"
    # [assistant]
    max_reply_tokens: int = 120
    max_reply_sentences: int = 3  # a spoken reply stops after this many sentences
    history_turns: int = 6
    temperature: float = 0.0
    memory: bool = True  # false turns memory off: nothing is recalled or stored
    person: str = "me"  # who is talking while no voice is enrolled (a single-person desk)
    # on a desk with no enrolled voice, learn this person's voice from their first utterances; from then
    # on a clearly different voice is a stranger and gets none of their memories (false: every voice is theirs)
    learn_owner_voice: bool = True
    # keep how each turn was said (loudness, pitch, rate, pauses, the room: audio/voice_cues.py) beside its
    # words, worked out by the memory writer after the reply
    voice_cues: bool = True
    # let clusters emerge from what is asked: entities the person's questions pull together coherently
    # (memory/clusters.py) become a topic recall matches like a schema; cluster_coherence is the
    # research's threshold α on the mean overlap of each question's answer with the group
    clusters: bool = True
    cluster_coherence: float = 0.4
    memory_budget_tokens: int = 200
    data_dir: str = field(default_factory=_default_data_dir)
    cache_dir: str = field(default_factory=_default_cache_dir)

    @property
    def cache_path(self) -> Path:
        return Path(self.cache_dir).expanduser()

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()


SECTIONS = {
    "models": ("asr_model", "llm_model", "llm_endpoint", "llm_endpoint_model", "llm_api_key",
               "llm_endpoint_timeout_s", "tts_voice",
               "threads", "llm_context", "repeatable_replies"),
    "audio": ("input_device", "output_device", "end_silence_ms", "turn_end_model", "end_silence_finished_ms",
              "end_silence_unfinished_ms", "max_utterance_s", "vad_threshold", "backchannel_ms",
              "partial_interval_ms", "echo_guard"),
    "assistant": ("max_reply_tokens", "max_reply_sentences", "history_turns", "temperature", "memory", "person", "learn_owner_voice",
                  "voice_cues", "clusters", "cluster_coherence", "memory_budget_tokens", "data_dir", "cache_dir"),
}
_TYPES = {f.name: f.type for f in dataclasses.fields(Config)}


def load_config(path: Path | None = None, overrides: dict | None = None) -> Config:
    """Defaults, then the TOML file if it exists, then overrides (flags); validated."""
    if path is not None and not Path(path).exists():
        raise HearthError(f"config file not found: {path}")
    path = Path(path) if path else default_config_path()
    values: dict = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise HearthError(f"config file {path} is not valid TOML: {exc}") from None
        for section, body in data.items():
            if section not in SECTIONS or not isinstance(body, dict):
                raise HearthError(f"config file {path}: unknown section [{section}] (known: {', '.join(SECTIONS)})")
            for key, value in body.items():
                if key not in SECTIONS[section]:
                    raise HearthError(f"config file {path}: unknown setting {section}.{key}")
                values[key] = value
    for key, value in (overrides or {}).items():
        if value is not None:
            values[key] = value
    config = Config()
    for key, value in values.items():
        setattr(config, key, _coerce(key, value))
    validate(config)
    return config


def _coerce(key: str, value):
    kind = _TYPES[key]
    try:
        if kind == "bool":
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                return value.lower() in ("true", "1", "yes", "on")
            if isinstance(value, (bool, int)):
                return bool(value)
            raise ValueError
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        return str(value)
    except (TypeError, ValueError):
        raise HearthError(f"setting {key} must be a {kind}, got {value!r}") from None


ECHO_GUARDS = ("speakers", "headphones", "half-duplex")
ECHO_GUARD_ALIASES = {"threshold": "speakers", "off": "headphones", "mute": "half-duplex"}


def validate(config: Config) -> None:
    """Reject values that cannot work, each with a one-line reason."""
    if not 100 <= config.end_silence_ms <= 5000:
        raise HearthError(f"end_silence_ms must be between 100 and 5000, got {config.end_silence_ms}")
    for name in ("end_silence_finished_ms", "end_silence_unfinished_ms"):
        if not 100 <= getattr(config, name) <= 5000:
            raise HearthError(f"{name} must be between 100 and 5000, got {getattr(config, name)}")
    if config.end_silence_finished_ms > config.end_silence_unfinished_ms:
        raise HearthError("end_silence_finished_ms must not be longer than end_silence_unfinished_ms")
    if not 1.0 <= config.max_utterance_s <= 300:
        raise HearthError(f"max_utterance_s must be between 1 and 300, got {config.max_utterance_s}")
    if not 0 <= config.backchannel_ms <= 5000:
        raise HearthError(f"backchannel_ms must be between 0 and 5000, got {config.backchannel_ms}")
    if not 0.05 <= config.vad_threshold <= 0.95:
        raise HearthError(f"vad_threshold must be between 0.05 and 0.95, got {config.vad_threshold}")
    if not 0.0 < config.cluster_coherence <= 1.0:
        raise HearthError(f"cluster_coherence must be above 0 and at most 1, got {config.cluster_coherence}")
    if config.partial_interval_ms < 100:
        raise HearthError(f"partial_interval_ms must be at least 100, got {config.partial_interval_ms}")
    config.echo_guard = ECHO_GUARD_ALIASES.get(config.echo_guard, config.echo_guard)
    if config.echo_guard not in ECHO_GUARDS:
        raise HearthError(f"echo_guard must be speakers, headphones or half-duplex, got {config.echo_guard!r}")
    if config.threads < 1:
        raise HearthError(f"threads must be at least 1, got {config.threads}")
    if not 1 <= config.llm_endpoint_timeout_s <= 600:
        raise HearthError(f"llm_endpoint_timeout_s must be between 1 and 600, got {config.llm_endpoint_timeout_s}")
    if config.max_reply_tokens < 8:
        raise HearthError(f"max_reply_tokens must be at least 8, got {config.max_reply_tokens}")
    if config.max_reply_sentences < 1:
        raise HearthError(f"max_reply_sentences must be at least 1, got {config.max_reply_sentences}")
    for key in ("asr_model", "llm_model", "tts_voice"):
        value = getattr(config, key)
        if value and not Path(value).expanduser().exists():
            raise HearthError(f"{key} path does not exist: {value}")
