"""The reply job's lifecycle table (assistant/pipeline/lifecycle.py): every path a job takes, and the
transitions that cannot happen."""

from __future__ import annotations

import numpy as np
import pytest

from assistant import events as ev
from assistant.pipeline.jobs import Job, Remains, remains_of
from assistant.pipeline.lifecycle import (ENDED, TRANSITIONS, IllegalTransition, JobEvent, JobState, cancel_event,
                                 next_state)

S, E = JobState, JobEvent


def walk(state: JobState, *events: JobEvent) -> JobState:
    for event in events:
        state = next_state(state, event)
    return state


def test_a_speculative_reply_is_released_played_and_finished():
    assert walk(S.HELD, E.RELEASE, E.PLAY, E.FINISH) is S.FINISHED


def test_the_person_going_on_before_it_played_carries_the_utterance_over():
    assert walk(S.HELD, E.BARGE_IN) is S.CONTINUED
    assert walk(S.RELEASED, E.BARGE_IN) is S.CONTINUED


def test_speaking_over_a_playing_reply_interrupts_it():
    assert walk(S.HELD, E.RELEASE, E.PLAY, E.BARGE_IN) is S.INTERRUPTED


def test_a_turn_with_nothing_to_say_ends_at_the_endpoint_or_when_the_person_goes_on():
    assert walk(S.RELEASED, E.SKIP) is S.FINISHED
    assert walk(S.HELD, E.SKIP) is S.HELD_EMPTY
    assert walk(S.HELD, E.SKIP, E.RELEASE) is S.FINISHED
    assert walk(S.HELD, E.SKIP, E.BARGE_IN) is S.CONTINUED
    assert walk(S.HELD, E.SKIP, E.DROP) is S.DROPPED
    with pytest.raises(IllegalTransition):
        walk(S.HELD, E.SKIP, E.RELEASE, E.PLAY)  # nothing to play


def test_an_engine_that_raises_ends_the_job_wherever_it_was():
    for state in (S.HELD, S.HELD_EMPTY, S.RELEASED, S.PLAYING):
        assert next_state(state, E.FAIL) is S.FAILED


def test_only_a_held_job_is_dropped():
    assert walk(S.HELD, E.DROP) is S.DROPPED
    for state in (S.RELEASED, S.PLAYING):
        with pytest.raises(IllegalTransition):
            next_state(state, E.DROP)


@pytest.mark.parametrize("state,event", [
    (S.HELD, E.PLAY),  # held audio waits for the endpoint
    (S.HELD, E.FINISH),  # a reply nobody released was never heard
    (S.PLAYING, E.RELEASE),  # released once
    (S.PLAYING, E.PLAY),  # the first audio starts playing once
])
def test_impossible_steps_raise(state, event):
    with pytest.raises(IllegalTransition, match=event.value):
        next_state(state, event)


@pytest.mark.parametrize("state", sorted(ENDED, key=lambda s: s.value))
def test_nothing_leaves_an_ended_job(state):
    for event in JobEvent:
        with pytest.raises(IllegalTransition):
            next_state(state, event)


def test_every_state_is_reachable_from_a_new_job():
    reached, frontier = {S.HELD, S.RELEASED}, [S.HELD, S.RELEASED]
    while frontier:
        state = frontier.pop()
        for (source, _), target in TRANSITIONS.items():
            if source is state and target not in reached:
                reached.add(target)
                frontier.append(target)
    assert reached == set(JobState)


def test_cancel_reasons_map_to_events():
    assert cancel_event("barge-in") is E.BARGE_IN
    for reason in ("speech resumed", "discarded", "closed"):
        assert cancel_event(reason) is E.DROP


def test_a_job_is_settled_once_it_is_no_longer_held():
    held = Job(1, 1, np.zeros(10, dtype=np.float32), S.HELD)
    assert not held.settled.is_set() and not held.released
    held.advance(E.RELEASE)
    assert held.settled.is_set() and held.released and not held.ended
    dropped = Job(2, 2, np.zeros(10, dtype=np.float32), S.HELD)
    dropped.advance(E.DROP)
    assert dropped.settled.is_set() and dropped.stopped and not dropped.released
    assert Job(3, 3, np.zeros(10, dtype=np.float32), S.RELEASED).settled.is_set()
    empty = Job(4, 4, np.zeros(10, dtype=np.float32), S.HELD)
    empty.advance(E.SKIP)
    assert not empty.settled.is_set() and not empty.released and not empty.ended


# -- what an ended job leaves behind -----------------------------------------------------------------

def _job(state: JobState, **fields) -> Job:
    return Job(1, 4, np.zeros(160, dtype=np.float32), state, **fields)


def test_an_interrupted_reply_is_kept_as_far_as_it_was_heard():
    job = _job(JobState.INTERRUPTED, heard="what is my dog called?", heard_seconds=1.2,
               sentences=[("Your dog is Max.", 0.0), ("He is three.", 1.1), ("He likes walks.", 2.0)])
    remains = remains_of(job, now=9.0)
    assert remains.spoken == "Your dog is Max. He is three."
    assert [(type(e), e.text, e.interrupted) for e in remains.events] == [(ev.ReplyDone, remains.spoken, True)]


def test_thrown_away_work_is_counted_and_work_never_begun_says_nothing():
    dropped = remains_of(_job(JobState.DROPPED, cpu_seconds=0.4, stop_reason="speech resumed"), now=2.0)
    assert [(type(e), e.cpu_seconds, e.reason) for e in dropped.events] == [(ev.SpeculationDropped, 0.4,
                                                                             "speech resumed")]
    continued = remains_of(_job(JobState.CONTINUED, cpu_seconds=0.1), now=2.0)
    assert continued.events[0].reason == "continued" and continued.spoken is None
    assert remains_of(_job(JobState.DROPPED), now=2.0) == Remains()


def test_a_finished_or_failed_job_has_already_said_what_it_had_to():
    for state in (JobState.FINISHED, JobState.FAILED):
        assert remains_of(_job(state, heard="hello", cpu_seconds=1.0, sentences=[("Hi.", 0.0)]), now=1.0) == Remains()
