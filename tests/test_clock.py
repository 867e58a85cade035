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
    c.frame_read(0.5)  # an older frame read late (from the queue) does not move time back
    assert c.now() >= before + busy
