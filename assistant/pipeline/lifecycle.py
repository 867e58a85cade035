"""A reply job's lifecycle as a state table: pure, no threads, no I/O.

A job is made when the voice stops (held back, speculative) or at the endpoint (released). The
endpoint releases a held job; its first audio to the speakers makes it playing; the last of it
heard finishes it. A job with no reply to give (no words were heard, or only Hearth's own echo)
finishes at the endpoint without playing. The person speaking ends it early: before any of it played, the utterance is
carried into the next turn (continued); while it plays, it stops there (interrupted). A held job
is dropped when the person resumes within the silence, or Hearth closes. A job whose engine
raised fails: that turn is skipped and Hearth goes on.

Only the transitions in TRANSITIONS exist; any other raises, so a job cannot, say, play before it
is released or finish twice. Events that race the stages to an ended job (an endpoint that
arrives just after a barge-in) are the caller's to ignore, by checking `ended` first.
"""

from __future__ import annotations

from enum import Enum


class JobState(Enum):
    HELD = "held"  # speculative: its events and audio are held back until the endpoint
    HELD_EMPTY = "held with nothing to say"  # speculative, and no reply to give: the endpoint ends it
    RELEASED = "released"  # the endpoint confirmed it; none of the reply has played yet
    PLAYING = "playing"  # its audio has begun to play
    FINISHED = "finished"  # all of it heard: a barge-in has nothing left to stop
    CONTINUED = "continued"  # the person went on before it played: answered with what they say next
    INTERRUPTED = "interrupted"  # the person spoke over it: stopped, and what was heard is kept
    DROPPED = "dropped"  # thrown away before the endpoint: the person resumed, or Hearth closed
    FAILED = "failed"  # an engine raised: the turn is skipped


class JobEvent(Enum):
    RELEASE = "release"  # the endpoint confirmed the utterance
    PLAY = "play"  # the first of its audio went to the speakers
    BARGE_IN = "barge-in"  # the person spoke
    DROP = "drop"  # the planner cancelled it for another reason (speech resumed, discarded, closed)
    FINISH = "finish"  # the whole reply has been heard
    SKIP = "skip"  # there is no reply to give: no words were heard, or only Hearth's own echo
    FAIL = "fail"  # an engine raised while making it


S, E = JobState, JobEvent

TRANSITIONS: dict[tuple[JobState, JobEvent], JobState] = {
    (S.HELD, E.RELEASE): S.RELEASED,
    (S.HELD, E.BARGE_IN): S.CONTINUED,
    (S.HELD, E.DROP): S.DROPPED,
    (S.HELD, E.SKIP): S.HELD_EMPTY,
    (S.HELD_EMPTY, E.RELEASE): S.FINISHED,  # the endpoint shows that the turn was skipped
    (S.HELD_EMPTY, E.BARGE_IN): S.CONTINUED,
    (S.HELD_EMPTY, E.DROP): S.DROPPED,
    (S.RELEASED, E.PLAY): S.PLAYING,
    (S.RELEASED, E.BARGE_IN): S.CONTINUED,
    (S.RELEASED, E.SKIP): S.FINISHED,  # nothing was played
    (S.PLAYING, E.BARGE_IN): S.INTERRUPTED,
    (S.PLAYING, E.FINISH): S.FINISHED,
    (S.HELD, E.FAIL): S.FAILED,
    (S.HELD_EMPTY, E.FAIL): S.FAILED,
    (S.RELEASED, E.FAIL): S.FAILED,
    (S.PLAYING, E.FAIL): S.FAILED,
}

# Not yet confirmed by the endpoint.
HELD = frozenset({S.HELD, S.HELD_EMPTY})
# Ended without finishing: every stage abandons the job at its next step.
STOPPED = frozenset({S.CONTINUED, S.INTERRUPTED, S.DROPPED, S.FAILED})
ENDED = STOPPED | {S.FINISHED}
# The endpoint has confirmed it: its events go out as they happen.
RELEASED = frozenset({S.RELEASED, S.PLAYING, S.FINISHED, S.INTERRUPTED})

del S, E


class IllegalTransition(RuntimeError):
    pass


def next_state(state: JobState, event: JobEvent) -> JobState:
    """The state `event` moves a job in `state` to; IllegalTransition if it cannot happen there."""
    try:
        return TRANSITIONS[(state, event)]
    except KeyError:
        raise IllegalTransition(f"a reply job cannot {event.value} when {state.value}") from None


def cancel_event(reason: str) -> JobEvent:
    """The planner's cancel reason as a lifecycle event."""
    return JobEvent.BARGE_IN if reason == "barge-in" else JobEvent.DROP
