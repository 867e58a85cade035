"""The command line: live (default), replay, demo, devices. Errors are one line and a non-zero exit."""

from __future__ import annotations

import faulthandler
import functools
import os
import signal
import sys
import time

from audio.sources import AudioInputError, on_first_frame
from memory import MemoryStoreError
from models import ModelError

from assistant import events as ev
from assistant.config import load_config
from assistant.modes.arguments import OVERRIDES, build_parser
from assistant.errors import HearthError

USER_ERRORS = (HearthError, AudioInputError, ModelError, MemoryStoreError)


@functools.cache  # once per process: main() runs many times in one test process
def _dump_threads_on_usr1() -> None:
    """`kill -USR1` prints where every thread is, for a Hearth that hangs (on a copy of the
    terminal: plain live mode moves descriptor 2 itself to a pipe)."""
    faulthandler.register(signal.SIGUSR1, file=os.dup(2), all_threads=True)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _dump_threads_on_usr1()
    try:
        config = load_config(args.config, {k: getattr(args, k, None) for k in OVERRIDES})
        mode = args.mode or ("replay" if getattr(args, "replay_files", None) else "live")
        if mode == "replay" and not args.mode:
            args.files, args.out, args.realtime = args.replay_files, None, True
        modes = {"live": run_live, "replay": run_replay, "demo": run_demo, "devices": run_devices,
                 "enrol": run_enrol, "people": run_people, "prepare": run_prepare}
        return modes[mode](args, config)
    except USER_ERRORS as exc:
        if getattr(args, "debug", False):
            raise
        print(f"hearth: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _load(config, background: bool = False, on_failure=None):
    from assistant.engines import load_engines

    def progress(name: str, state: str, seconds: float) -> None:
        if state == "ready":
            print(f"  {name:<4} ready in {seconds:.1f} s", file=sys.stderr, flush=True)

    print("loading models…", file=sys.stderr)
    return load_engines(config, progress, background=background, on_failure=on_failure)


def run_prepare(args, config) -> int:
    """What the very first start would pay for, paid once now (measured by benchmarks/startup.py
    --first-ever: 39 s to listening with nothing prepared, of which 26 s compiling the voice
    encoder's numba code, against 10 s once it is cached), and the text embedder's ONNX graph exported
    (about 6 s)."""
    from audio.voiceprint import VoiceEncoder
    from models import bundled
    from models.embedder import exported_graph

    started = time.monotonic()
    bundled.bundled_llm(config.cache_path)
    print(f"  language model ready in {time.monotonic() - started:.1f} s", file=sys.stderr)
    started = time.monotonic()
    exported_graph(bundled.text_embedder_dir(), config.cache_path)
    print(f"  text embedder exported in {time.monotonic() - started:.1f} s", file=sys.stderr)
    started = time.monotonic()
    VoiceEncoder().warm_up()  # numba compiles on first use and caches what it compiled
    print(f"  voice encoder compiled in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


def _window(args) -> bool:
    """The TUI opens only for a person at a terminal; scripts and pipes get plain output."""
    return not getattr(args, "no_tui", False) and sys.stdout.isatty() and sys.stdin.isatty()


def _routing(config, engines, store):
    """Whose memory each turn uses: the household's, by voice; none when memory is off."""
    from assistant.memory_access.household import Household
    from assistant.memory_access.routing import OneMemory

    return Household(store, config, engines) if store is not None else OneMemory()


def _tui_memory(config):
    """For the window: the household's memory and its store, once the engines are loaded."""
    from assistant.memory_access.remembering import open_memory_store

    def make(engines):
        store = open_memory_store(config, engines)
        return _routing(config, engines, store), store
    return make


def run_replay(args, config) -> int:
    from audio.sources import FileSource

    from assistant.memory_access.remembering import open_memory_store
    from assistant.modes.replay import output_folder, print_table, replay_session

    for path in args.files:  # check every input before loading models
        FileSource(path)
    if _window(args):
        from tui.app import run_tui

        return run_tui(config, "replay", args.files, out=args.out, make_memory=_tui_memory(config))
    if args.out is None:  # `hearth --replay FILE` in a pipe: the cache folder, said at the end
        args.out = config.cache_path / "replay"
    engines = _load(config)
    store = open_memory_store(config, engines)
    used: set[str] = set()
    results = []
    try:
        for path in args.files:  # each recording is one session
            folder = output_folder(args.out, path, used)
            routing = _routing(config, engines, store)
            results.append(replay_session(path, folder, engines, config, routing, realtime=args.realtime))
    finally:
        if store:
            store.close()
    print_table(results)
    print(f"replies, transcripts and events in {args.out}")
    return 0


def run_demo(args, config) -> int:
    from assistant.modes.demo import SESSIONS, run_demo as demo, session_printout
    from assistant.modes.replay import print_table

    out = args.out or config.cache_path / "demo"
    if _window(args):
        from tui.app import run_tui

        from assistant.modes.demo import PERSON, fresh_demo_config
        from assistant.memory_access.remembering import open_memory_store, session_memory
        from assistant.memory_access.routing import OneMemory

        def make(engines):
            store = open_memory_store(demo_config, engines)
            return OneMemory(session_memory(store, demo_config, engines, PERSON)), store

        demo_config = fresh_demo_config(config, out)
        return run_tui(demo_config, "demo", [], out=out, make_memory=make)
    engines = _load(config)
    print("demo: the user's side is synthesized with the bundled Piper voice, faster and higher-pitched.")
    results = demo(engines, config, out)
    for n, (lines, result) in enumerate(zip(SESSIONS, results), 1):
        print("\n" + "\n".join(session_printout(n, lines, result.records)))
    print()
    print_table(results)
    print(f"audio, events and the demo's own memory database in {out}")
    return 0


def run_enrol(args, config) -> int:
    from assistant.modes import people

    print(people.enrol(config, args.name, args.files))
    return 0


def run_people(args, config) -> int:
    from assistant.modes import people

    wanted = {"list": 0, "rename": 2, "merge": 2, "forget": 1}[args.action]
    if len(args.names) != wanted:
        raise HearthError(f"'hearth people {args.action}' takes {wanted} name(s), got {len(args.names)}")
    if args.action == "list":
        print(people.list_people(config))
    elif args.action == "rename":
        print(people.rename(config, *args.names))
    elif args.action == "merge":
        print(people.merge(config, *args.names))
    else:
        if not args.yes:
            if not sys.stdin.isatty():
                raise HearthError("forgetting a person cannot be undone: add --yes to confirm")
            answer = input(f"Forget {args.names[0]} and everything Hearth remembers of them? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("nothing forgotten")
                return 1
        print(people.forget(config, args.names[0]))
    return 0


def run_devices(args, config) -> int:
    from audio.devices import list_devices

    for d in list_devices():
        kinds = [k for k, key in (("in", "max_input_channels"), ("out", "max_output_channels")) if d[key] > 0]
        print(f"{d['index']:>3}  {'/'.join(kinds):<7} {int(d['default_samplerate']):>6} Hz  {d['name']}")
    return 0


def run_live(args, config) -> int:
    from audio.sinks import SpeakerSink
    from audio.microphone import MicSource

    from assistant.clock import MonotonicClock
    from assistant.pipeline.loop import TurnLoop
    from assistant.pipeline.loop_types import LIVE_RECORDS
    from assistant.memory_access.remembering import open_memory_store

    if _window(args):
        from tui.app import run_tui

        if not args.debug:  # ALSA's underruns were written across the window
            from assistant.modes.quiet import quiet_alsa

            quiet_alsa()  # (only that: the window itself draws on descriptor 2, which stays the terminal's)
        return run_tui(config, "live", [], make_memory=_tui_memory(config))
    if not args.debug:
        from assistant.modes.quiet import quiet_libraries

        quiet_libraries()
    # The microphone's state is Hearth's status, not something Hearth said: marked as such, on stderr.
    mic = MicSource(config.input_device or None,
                    on_status=lambda state, message: print(f"status: {message}", file=sys.stderr, flush=True))
    event_log = None
    if args.events is not None:  # checked before the models load: a bad path is a quick error
        from assistant.modes.replay import EventLog

        try:
            event_log = EventLog(args.events)
        except OSError as exc:
            raise HearthError(f"cannot write the events file {str(args.events)!r}: {exc.strerror}") from None
    # Listening starts once the VAD is loaded; the rest load meanwhile, and what a turn needs is
    # waited for there. A model that cannot be loaded ends the session with its one-line error,
    # whenever it fails: everything opened is closed again on the way out.
    failed: list[BaseException] = []

    def load_failed(error: BaseException) -> None:  # on the loading thread
        failed.append(error)
        mic.stop()

    speaker = store = routing = None
    try:
        speaker = SpeakerSink(config.output_device or None)
        engines = _load(config, background=True, on_failure=load_failed)
        store = open_memory_store(config, engines)
        routing = _routing(config, engines, store)
        bus = ev.EventBus()
        bus.subscribe(_print_live)
        if event_log is not None:
            bus.subscribe(event_log)
        loop = TurnLoop(engines, speaker, bus, MonotonicClock(), config, routing=routing,
                        keep_records=LIVE_RECORDS)
        loop.run(on_first_frame(mic.frames(), lambda: print(f"listening on {mic.name!r}; speak, or Ctrl-C to stop",
                                                            file=sys.stderr, flush=True)))
    finally:
        mic.close()
        if speaker is not None:
            speaker.close()
        if routing is not None:
            routing.end_session()
        if store:
            store.close()
        if event_log is not None:
            event_log.close()
    if failed:
        raise failed[0]
    return 0


_printed_turn = [0]  # the turn whose "you:" line was printed last


def _print_live(event: ev.Event) -> None:
    if isinstance(event, ev.AsrDone):
        _printed_turn[0] = event.turn_id
        print(f"you: {event.text}", flush=True)
    elif isinstance(event, ev.ReplyDone):
        print(f"hearth: {event.text}  [{time.strftime('%H:%M:%S')}]", flush=True)
    elif isinstance(event, ev.TurnSkipped) and event.reason == "echo" and event.turn_id == _printed_turn[0]:
        print("  (that was Hearth's own voice: not answered)", flush=True)  # the "you:" line above was


if __name__ == "__main__":
    sys.exit(main())
