"""Whether what Hearth plays reaches the microphone, as pure logic: frame levels in, a state out."""

from __future__ import annotations

from audio.echo_path import MEASURE_FRAMES, EchoPath, EchoPathMeter

FLOOR = 1e-6  # a quiet room (-60 dBFS)


def meter_after_quiet() -> EchoPathMeter:
    meter = EchoPathMeter()
    for _ in range(50):
        meter.observe(FLOOR, playing=False, arrived=False)
    return meter


def play(meter: EchoPathMeter, mic: float, frames: int, arrived_after: int = 0) -> list[EchoPath]:
    return [meter.observe(mic, playing=True, arrived=i >= arrived_after) for i in range(frames)]


def test_a_reply_with_the_microphone_at_its_floor_has_no_echo_path_and_passes_the_microphone():
    meter = meter_after_quiet()
    states = play(meter, FLOOR, MEASURE_FRAMES + 20, arrived_after=10)
    assert states[MEASURE_FRAMES + 8] is EchoPath.MEASURING  # the echo has had MEASURE_FRAMES - 1 to show
    assert states[MEASURE_FRAMES + 9] is EchoPath.ABSENT
    assert states[-1] is EchoPath.ABSENT and not meter.cancel


def test_the_first_frame_above_the_floor_makes_the_path_present_and_the_canceller_is_taken():
    meter = meter_after_quiet()
    play(meter, FLOOR, 5)
    assert meter.observe(FLOOR * 10, playing=True, arrived=False) is EchoPath.PRESENT
    assert meter.cancel
    play(meter, FLOOR, 40, arrived_after=0)  # later quiet frames do not flip it back mid-reply
    assert meter.state is EchoPath.PRESENT


def test_a_person_talking_once_the_path_is_absent_does_not_bring_the_canceller_back():
    meter = meter_after_quiet()
    play(meter, FLOOR, MEASURE_FRAMES + 10)
    assert play(meter, 1e-2, 30)[-1] is EchoPath.ABSENT and not meter.cancel


def test_while_measuring_the_last_replys_path_decides_what_is_taken():
    meter = meter_after_quiet()
    play(meter, FLOOR, 3)
    assert meter.state is EchoPath.MEASURING and not meter.cancel  # a session's first reply: as it came
    play(meter, 1e-3, 3)
    meter.observe(FLOOR, playing=False, arrived=False)  # the reply ends: its echo was there
    play(meter, FLOOR, 3)
    assert meter.state is EchoPath.MEASURING and meter.cancel  # the next reply is cancelled meanwhile
    play(meter, FLOOR, MEASURE_FRAMES)
    meter.observe(FLOOR, playing=False, arrived=False)  # that one had none
    play(meter, FLOOR, 3)
    assert meter.state is EchoPath.MEASURING and not meter.cancel


def test_the_floor_is_the_quiet_end_of_the_unplayed_frames():
    meter = EchoPathMeter()
    for i in range(100):
        meter.observe(1e-2 if i % 3 == 0 else FLOOR, playing=False, arrived=False)  # a person between replies
    assert meter.floor == FLOOR
    assert EchoPathMeter().floor > 0  # a digitally silent microphone still has a floor to rise above
