"""The command line: live (default), replay, demo, devices. Errors are one line and a non-zero exit."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from audio.sources import AudioInputError
from models import ModelError

from . import events as ev
from .config import default_config_path, load_config
from .errors import HearthError

USER_ERRORS = (HearthError, AudioInputError, ModelError)

DESCRIPTION = f"""\
Hearth: a voice assistant that runs on this desk and remembers who talks to it.

modes:
  hearth                      talk to it: microphone in, speakers out
  hearth replay FILE... --out DIR
                              feed recordings through the same loop; per input, DIR/<name>/ gets
                              reply-NNN.wav, transcript.txt and events.jsonl, and a table of turns
                              with per-stage timings is printed
  hearth demo                 a scripted conversation through the full loop, no microphone or
                              speakers needed (the user's side is synthesized)
  hearth devices              list sound devices

configuration: {default_config_path()} (TOML; flags override it)
"""


def _common(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("configuration (override the config file)")
    g.add_argument("--config", type=Path, help="config file (default: %(default)s)", default=None)
    g.add_argument("--asr-model", dest="asr_model", help="a faster-whisper model folder")
    g.add_argument("--llm-model", dest="llm_model", help="a GGUF language model file")
    g.add_argument("--llm-endpoint", dest="llm_endpoint", help="OpenAI-compatible server base URL (e.g. http://host:8080/v1)")
    g.add_argument("--voice", dest="tts_voice", help="a Piper voice .onnx file")
    g.add_argument("--input-device", dest="input_device", help="microphone: index or part of its name")
    g.add_argument("--output-device", dest="output_device", help="speakers: index or part of their name")
    g.add_argument("--end-silence-ms", dest="end_silence_ms", type=int, help="silence that ends a turn (default 500)")
    g.add_argument("--threads", type=int, help="CPU threads for the models (default 2)")
    g.add_argument("--data-dir", dest="data_dir", help="where Hearth keeps its database")
    g.add_argument("--debug", action="store_true", help="show tracebacks")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hearth", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(parser)
    sub = parser.add_subparsers(dest="mode", metavar="MODE")
    live = sub.add_parser("live", help="microphone in, speakers out (the default)")
    _common(live)
    replay = sub.add_parser("replay", help="replay recordings through the loop")
    replay.add_argument("files", nargs="+", type=Path, metavar="FILE")
    replay.add_argument("--out", type=Path, required=True, help="folder for replies, transcripts and events")
    replay.add_argument("--realtime", action="store_true", help="pace the audio as it was recorded")
    _common(replay)
    demo = sub.add_parser("demo", help="a scripted conversation, no audio devices needed")
    demo.add_argument("--out", type=Path, default=None, help="folder for the demo's audio and logs")
    _common(demo)
    devices = sub.add_parser("devices", help="list sound devices")
    _common(devices)
    return parser


_OVERRIDES = ("asr_model", "llm_model", "llm_endpoint", "tts_voice", "input_device", "output_device",
              "end_silence_ms", "threads", "data_dir")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = load_config(args.config, {k: getattr(args, k, None) for k in _OVERRIDES})
        mode = args.mode or "live"
        return {"live": run_live, "replay": run_replay, "demo": run_demo, "devices": run_devices}[mode](args, config)
    except USER_ERRORS as exc:
        if getattr(args, "debug", False):
            raise
        print(f"hearth: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _load(config):
    from .engines import load_engines

    def progress(name: str, state: str, seconds: float) -> None:
        if state == "ready":
            print(f"  {name:<4} ready in {seconds:.1f} s", file=sys.stderr)

    print("loading models…", file=sys.stderr)
    return load_engines(config, progress)


def run_replay(args, config) -> int:
    from audio.sources import FileSource

    from .replay import output_folder, print_table, replay_file

    for path in args.files:  # check every input before loading models
        FileSource(path)
    engines = _load(config)
    used: set[str] = set()
    results = []
    for path in args.files:
        folder = output_folder(args.out, path, used)
        results.append(replay_file(path, folder, engines, config, realtime=args.realtime))
    print_table(results)
    return 0


def run_demo(args, config) -> int:
    from .demo import SCRIPT, run_demo as demo
    from .replay import print_table

    out = args.out or config.cache_path / "demo"
    engines = _load(config)
    print("demo: the user's side is synthesized with the bundled Piper voice, faster and higher-pitched.")
    result = demo(engines, config, out)
    for said, record in zip(SCRIPT, result.records):
        print(f"\nscript: {said}\n heard: {record.heard}\nhearth: {record.reply or '(' + record.skipped + ')'}")
    print()
    print_table([result])
    print(f"audio and events in {out}")
    return 0


def run_devices(args, config) -> int:
    from audio.devices import list_devices

    for d in list_devices():
        kinds = [k for k, key in (("in", "max_input_channels"), ("out", "max_output_channels")) if d[key] > 0]
        print(f"{d['index']:>3}  {'/'.join(kinds):<7} {int(d['default_samplerate']):>6} Hz  {d['name']}")
    return 0


def run_live(args, config) -> int:
    from audio.sinks import SpeakerSink
    from audio.sources import MicSource

    from .clock import MonotonicClock
    from .loop import TurnLoop

    mic = MicSource(config.input_device or None)
    speaker = SpeakerSink(config.output_device or None)
    engines = _load(config)
    bus = ev.EventBus()
    bus.subscribe(_print_live)
    print(f"listening on {mic.name!r}; speak, or Ctrl-C to stop", file=sys.stderr)
    loop = TurnLoop(engines, speaker, bus, MonotonicClock(), config)
    try:
        loop.run(mic.frames())
    finally:
        mic.close()
        speaker.close()
    return 0


def _print_live(event: ev.Event) -> None:
    if isinstance(event, ev.AsrDone):
        print(f"you: {event.text}", flush=True)
    elif isinstance(event, ev.ReplyDone):
        print(f"hearth: {event.text}  [{time.strftime('%H:%M:%S')}]", flush=True)


if __name__ == "__main__":
    sys.exit(main())
