import time

from assistant.clock import ReplayClock


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
