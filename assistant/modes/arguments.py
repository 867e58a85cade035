"""The command line's arguments: the modes, their flags, and which flags override the config file."""

from __future__ import annotations

import argparse
from pathlib import Path

from assistant.config import default_config_path


DESCRIPTION = f"""\
Hearth: a voice assistant that runs on this desk and remembers who talks to it.

modes:
  hearth                      talk to it: microphone in, speakers out, in the terminal window
                              (--no-tui: plain text output instead)
  hearth replay FILE... --out DIR
                              feed recordings through the same loop; per input, DIR/<name>/ gets
                              reply-NNN.wav, transcript.txt and events.jsonl, and a table of turns
                              with per-stage timings is printed (--realtime paces it like a mic)
  hearth --replay FILE...     the window, driven by recordings paced in real time
  hearth demo                 a scripted two-session conversation through the full loop, no
                              microphone or speakers needed (the user's side is synthesized)
  hearth devices              list sound devices
  hearth prepare              do now what the first start would otherwise do itself: assemble the
                              bundled language model, compile the voice encoder's code (make
                              install runs it)
  hearth enrol NAME FILE...   remember NAME's voice from recordings of them speaking
  hearth people [list | rename OLD NEW | merge KEEP REMOVE | forget NAME --yes]
                              the people Hearth knows, their voices and memories

The window opens only when standard output is a terminal; otherwise the plain mode runs.

configuration: {default_config_path()} (TOML; flags override it)
"""


def _common(parser: argparse.ArgumentParser, mode: bool = False) -> None:
    """The configuration flags, taken before the mode or after it. A mode's parser leaves out those
    not given (argparse.SUPPRESS): its defaults would overwrite what was given before the mode
    ("hearth --data-dir X replay FILE" wrote to the default database)."""
    unset, off = (argparse.SUPPRESS, argparse.SUPPRESS) if mode else (None, False)
    g = parser.add_argument_group("configuration (override the config file)")
    g.add_argument("--config", type=Path, help="config file (default: your config file)", default=unset)
    g.add_argument("--asr-model", dest="asr_model", default=unset, help="a faster-whisper model folder")
    g.add_argument("--llm-model", dest="llm_model", default=unset, help="a GGUF language model file")
    g.add_argument("--llm-endpoint", dest="llm_endpoint", default=unset,
                   help="OpenAI-compatible server base URL (e.g. http://host:8080/v1)")
    g.add_argument("--voice", dest="tts_voice", default=unset, help="a Piper voice .onnx file")
    g.add_argument("--input-device", dest="input_device", default=unset, help="microphone: index or part of its name")
    g.add_argument("--output-device", dest="output_device", default=unset,
                   help="speakers: index or part of their name")
    g.add_argument("--end-silence-ms", dest="end_silence_ms", type=int, default=unset,
                   help="silence that ends a turn (default 500)")
    g.add_argument("--threads", type=int, default=unset, help="CPU threads for the models (default 2)")
    g.add_argument("--data-dir", dest="data_dir", default=unset, help="where Hearth keeps its database")
    g.add_argument("--person", default=unset, help="who is talking while no voice is enrolled (default: me)")
    g.add_argument("--no-memory", dest="memory", action="store_const", const=False, default=unset,
                   help="recall nothing and store nothing")
    g.add_argument("--no-tui", dest="no_tui", action="store_true", default=off,
                   help="plain text output instead of the window")
    g.add_argument("--debug", action="store_true", default=off, help="show tracebacks")


def _live_flags(parser: argparse.ArgumentParser, mode: bool = False) -> None:
    parser.add_argument("--events", type=Path, metavar="FILE", default=argparse.SUPPRESS if mode else None,
                        help="live mode: write every event as one JSON line to FILE (as replay's events.jsonl)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hearth", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(parser)
    _live_flags(parser)
    parser.add_argument("--replay", dest="replay_files", nargs="+", type=Path, metavar="FILE",
                        help="open the window on recordings instead of the microphone")
    sub = parser.add_subparsers(dest="mode", metavar="MODE")
    live = sub.add_parser("live", help="microphone in, speakers out (the default)")
    _common(live, mode=True)
    _live_flags(live, mode=True)
    replay = sub.add_parser("replay", help="replay recordings through the loop")
    replay.add_argument("files", nargs="+", type=Path, metavar="FILE")
    replay.add_argument("--out", type=Path, help="folder for replies, transcripts and events (default: the cache folder)")
    replay.add_argument("--realtime", action="store_true", help="pace the audio as it was recorded")
    _common(replay, mode=True)
    demo = sub.add_parser("demo", help="a scripted conversation, no audio devices needed")
    demo.add_argument("--out", type=Path, default=None, help="folder for the demo's audio and logs")
    _common(demo, mode=True)
    devices = sub.add_parser("devices", help="list sound devices")
    _common(devices, mode=True)
    prepare = sub.add_parser("prepare", help="assemble and compile what the first start needs (make install runs it)")
    _common(prepare, mode=True)
    enrol = sub.add_parser("enrol", help="remember a person's voice from recordings")
    enrol.add_argument("name")
    enrol.add_argument("files", nargs="+", type=Path, metavar="FILE")
    _common(enrol, mode=True)
    people = sub.add_parser("people", help="list, rename, merge or forget people")
    people.add_argument("action", nargs="?", default="list", choices=("list", "rename", "merge", "forget"))
    people.add_argument("names", nargs="*", metavar="NAME")
    people.add_argument("--yes", action="store_true", help="forget without asking")
    _common(people, mode=True)
    return parser


# the flags that override the configuration file's keys of the same name
OVERRIDES = ("asr_model", "llm_model", "llm_endpoint", "tts_voice", "input_device", "output_device",
              "end_silence_ms", "threads", "data_dir", "person", "memory")
