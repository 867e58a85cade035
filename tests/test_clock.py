import time

from assistant.clock import ReplayClock, SpeechPacer


def test_replay_clock_follows_media_time_when_idle():
    c = ReplayClock()
    c.frame_read(10.0)
    assert 10.0 <= c.now() < 10.5


def test_replay_clock_counts_real_time_while_busy_and_never_goes_back():
    c = ReplayClock()
    c.frame_read(1.0)
    before = c.now()
    time.sleep(0.05)
    busy = c.now() - before
    assert busy >= 0.04  # real work shows as real time
    c.frame_read(1.032)  # the next frame, read late: the recording was paused, not skipped
    assert c.now() >= before + busy
    t = c.now()
    c.frame_read(1.064)
    assert abs(c.now() - t - 0.032) < 0.01  # later frames keep their spacing


def test_speech_is_read_at_its_recorded_pace_and_pauses_are_skipped():
    now, slept = [100.0], []

    def sleep(seconds):
        slept.append(round(seconds, 3))
        now[0] += seconds

    pacer = SpeechPacer(sleep=sleep, monotonic=lambda: now[0])
    pacer.frame_read(5.0, speaking=True)  # a stretch of speech starts: nothing to wait for
    pacer.frame_read(5.032, speaking=True)  # read at once: it waits out the frame's 32 ms
    now[0] += 0.1  # the loop was busy for longer than the next frames last
    pacer.frame_read(5.064, speaking=True)  # already due: read at once, catching up
    pacer.frame_read(9.0, speaking=False)  # a pause: skipped
    pacer.frame_read(9.032, speaking=True)  # a new stretch, anchored afresh
    pacer.frame_read(9.064, speaking=True)
    assert slept == [0.032, 0.032]
