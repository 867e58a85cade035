"""The command line: a configuration flag counts wherever it is given, before the mode or after it."""

import pytest

from assistant.modes.arguments import build_parser


@pytest.mark.parametrize("argv", [["--data-dir", "/tmp/x", "replay", "a.wav"],
                                  ["replay", "a.wav", "--data-dir", "/tmp/x"],
                                  ["--data-dir", "/tmp/x", "demo"], ["--data-dir", "/tmp/x"]])
def test_a_flag_before_the_mode_is_not_overwritten_by_the_modes_defaults(argv):
    # "hearth --data-dir X replay FILE" wrote to the default database: the mode's own default won
    assert build_parser().parse_args(argv).data_dir == "/tmp/x"


def test_flags_not_given_anywhere_keep_their_defaults():
    args = build_parser().parse_args(["replay", "a.wav"])
    assert args.data_dir is None and args.memory is None and args.debug is False and args.no_tui is False
    args = build_parser().parse_args(["--no-memory", "--debug", "--events", "e.jsonl", "live"])
    assert args.memory is False and args.debug is True and str(args.events) == "e.jsonl"
