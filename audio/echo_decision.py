"""Is it Hearth's own voice, or a person? Pure decisions, no audio I/O, no state.

Two kinds of evidence, each decided here:
- levels, frame by frame: the microphone as it came, the same after the echo canceller, and what
  was playing. What the canceller removed is its estimate of the echo; speech is a person's only
  where the cleaned signal holds more than that estimate leaves unexplained.
- words: the transcript of what was heard against what Hearth was saying. Whisper hears an echo
  as Hearth's own words, cut and misheard at the edges ("Great new" for "Great news for Sam!").
"""

from __future__ import annotations

import re
from typing import Sequence

from .echo import FrameLevels

PERSON_RATIO_DB = -6.0  # the cleaned signal keeps at least a quarter of the microphone's energy
# A frame the canceller made this much louder than the microphone holds its own echo estimate: it
# subtracted an echo that was not there (the echo's delay jumped, as the live room's did after a
# barge-in, 9.4 and 12.2 dB), adding Hearth's voice to the quiet. A person's voice passes through
# it: over Hearth, in the quiet between their words, the canceller added up to 6.4 dB (echo benchmark).
INJECTED_DB = 9.0
RESIDUAL_MARGIN_DB = 6.0  # and stands this far above the echo the canceller has lately left
CEILING_MARGIN_DB = 6.0  # with the canceller lost: the microphone this far above the loudest echo the room carried
QUIET = 1e-7  # mean square below which nothing is there to judge (-70 dBFS)
# Frames the canceller took less than this of (half their energy) that stand no higher than the loudest
# echo the room has lately carried of that much playing are its own echo, which it has lapsed on: live
# at 60%, the tail of a word 1 s into a reply came out within 1.2 dB of the microphone, 7-10 dB under
# that loudest echo and 30 dB over the residue learned, and paused the reply. Talked over in the echo
# benchmark (-6 and -20 dB), a person's voice stood 2-35 dB above it where the canceller took so little.
TOOK_LITTLE_DB = 3.0
ONSET_FRAMES = 4  # 128 ms judged together: the frames that started the speech and the one after
ECHO_WORD_SHARE = 0.6  # most of the words heard were Hearth's own, in its order: an echo
PAUSE_FRAMES = 2  # voiced frames in a row that hold a person before the reply is paused (64 ms)
# ...and before playback stops (320 ms). A sound stack now and then carries back a piece of the reply
# played a second before, which no canceller fed the played samples can remove: recorded in the live
# test, it held "a person" for 8 frames in a row (tests/test_echo_recorded.py).
PERSON_FRAMES = 10
# A voice that stands above the loudest echo of what is playing may take this many frames (384 ms)
# to become speech to the listener: the canceller's suppressor takes the start of a person's voice
# over a loud reply for echo and silences it (echo benchmark, -6 dB: the cleaned signal held -94
# dBFS for 190 ms while the microphone rose to -24), and the voice detector needs a few frames more.
LOUD_ONSET_WAIT_FRAMES = 12
# ...and longer, up to this many (704 ms, the longest the suppressor was seen to hold a voice), while
# the microphone still stands within FADED_DB of its level at the pause: a person still talking. At
# -6 dB the reply played on again one frame before the speech start came, 416 ms into a talk-over,
# and was paused again 128 ms later (echo benchmark); an echo paused for fades at once.
LOUD_ONSET_MAX_FRAMES = 22
# ...judged only once the room's loudest echo has been learned from this many frames (about 2 s):
# live at 60%, learned from the first second of the session's first reply, it paused that reply
# for its own echo.
LOUD_CEILING_FRAMES = 60
# A voice the reply was paused for that ended unconfirmed, with fewer voiced frames than this (640
# ms), is brief: a word or two ("wait", "no"), or a fragment of Hearth's echo that faded with the
# pause; only words asking Hearth to stop tell the first. A longer one was a person whose levels the
# echo blurred to its end (at -6 dB, "Eight of spades, four of clubs, seven of hearts", paused for
# late), whose words decide as a confirmed person's do.
BRIEF_FRAMES = 2 * PERSON_FRAMES
# A voice the reply was paused for that fell this far below its level at the pause, from this many
# frames after it (256 ms: the room's delay and reverberation) to its end, went quiet with Hearth: its
# own voice, which the canceller had let through (echo benchmark, -6 dB: 1.7 s of a reply's echo
# held 1-3 dB by the canceller, paused for, then 21 dB down within 300 ms of the pause, and its
# transcript answered). A person talking over Hearth goes on at their level.
FADE_WAIT_FRAMES = 8
FADED_DB = 15.0


def _db(ratio: float) -> float:
    import math

    return 10.0 * math.log10(max(ratio, 1e-12))


def person_speaking(frames: Sequence[FrameLevels], echo_possible: bool) -> bool:
    """Do the last frames of voiced input hold a person, rather than the echo of what played?

    Nothing played within the echo tail: whatever speaks is a person. Before the canceller has
    converged its estimate explains nothing, so nothing is confirmed on it yet. After, the
    frames speak for a person when the cleaned signal keeps most of the microphone's energy
    (an echo loses most of it to the canceller, a person's voice passes through) and stands well
    above what the canceller has lately left of the echo of that much playing, unless the canceller
    took little of a sound no louder than the room's loudest echo (it lapsed). While the canceller
    learns the echo again (it lost it: its delay jumped, or a person's voice over Hearth's threw it),
    the microphone alone speaks for a person where it stands well above the loudest echo the room
    has lately carried of that much playing."""
    if not echo_possible:
        return True
    recent = list(frames)[-ONSET_FRAMES:]
    if not recent:
        return False
    if not recent[-1].converged:
        ceiling = sum(f.echo_ceiling for f in recent)
        return ceiling > 0 and _db(sum(f.mic for f in recent) / ceiling) >= CEILING_MARGIN_DB
    mic = sum(f.mic for f in recent)
    cleaned = sum(f.cleaned for f in recent)
    if cleaned / len(recent) < QUIET:
        return False
    ceiling = sum(f.echo_ceiling for f in recent)
    if _db(cleaned / mic) > -TOOK_LITTLE_DB and 0 < mic <= ceiling:
        return False
    residual = sum(f.residual for f in recent)
    return _db(cleaned / mic) >= PERSON_RATIO_DB and _db(cleaned / max(residual, 1e-12)) >= RESIDUAL_MARGIN_DB


def louder_than_echo(frame: FrameLevels) -> bool:
    """The microphone, as it came, stands well above the loudest echo the room has lately carried
    of what is playing, and the canceller's output is what the listener hears: a person's voice (or
    another sound in the room) that the canceller's suppressor may be silencing. Unknown (False)
    until the room's echo has been learned; False where no echo path was measured (the microphone
    goes to the listener as it came, and the room's noise, against the little that reached it,
    stood above that "loudest echo" as the reply's echo tail faded)."""
    return (frame.cancelled and frame.echo_ceiling > 0 and frame.ceiling_frames >= LOUD_CEILING_FRAMES
            and frame.mic >= QUIET and _db(frame.mic / frame.echo_ceiling) >= CEILING_MARGIN_DB)


def loud_run(run: int, frame: FrameLevels) -> int:
    """How many frames in a row, counting this one, have stood above the loudest echo."""
    return run + 1 if louder_than_echo(frame) else 0


def onset_waits(waited: int, level_at_pause: float, loudest_lately: float) -> bool:
    """Does a reply paused for a loud sound before any speech stay paused after `waited` frames?
    `loudest_lately`: the microphone's loudest of the last few frames."""
    if waited < LOUD_ONSET_WAIT_FRAMES:
        return True
    return waited < LOUD_ONSET_MAX_FRAMES and _db(loudest_lately / max(level_at_pause, 1e-12)) > -FADED_DB


def canceller_added(frame: FrameLevels) -> bool:
    """The frame came out of the canceller much louder than it went in: the canceller has lost the
    echo (it subtracts its estimate where no echo came), and what it has lately left of the echo
    says nothing until it is learned again."""
    return frame.cleaned >= QUIET and _db(frame.cleaned / max(frame.mic, 1e-12)) > INJECTED_DB


def person_run(run: int, frames: Sequence[FrameLevels], voiced: bool, echo_possible: bool) -> int:
    """How many voiced frames in a row have held a person, counting the one just judged (`run`: the
    count before it). An echo passes for a person for a few frames where the canceller falls behind
    (a sentence's first syllable after a pause, the room's level changing, a piece of the reply
    carried back late); a person talking over Hearth keeps talking. Unvoiced frames neither count
    nor break the run. (Taking one back per echo frame, rather than starting again, was tried: in
    the echo benchmark it missed a talk-over and let an echo turn through.)"""
    if not voiced:
        return run
    return run + 1 if person_speaking(frames, echo_possible) else 0


def person_suspected(run: int) -> bool:
    """Enough to pause the reply while the guard finds out (the person hears Hearth give way)."""
    return run >= PAUSE_FRAMES


def person_confirmed(run: int) -> bool:
    return run >= PERSON_FRAMES


def faded_with_pause(level_at_pause: float, loudest_after: float | None) -> bool:
    """Pure. The microphone's loudest frame from FADE_WAIT_FRAMES after the pause to the voice's end
    (None: it ended sooner, which says nothing) stands FADED_DB or more below its level at the pause."""
    return loudest_after is not None and level_at_pause > 0 and _db(loudest_after / level_at_pause) <= -FADED_DB


def brief(voiced_frames: int) -> bool:
    """An unconfirmed voice too brief to tell a person by anything but words asking Hearth to stop."""
    return voiced_frames < BRIEF_FRAMES


_WORD = re.compile(r"[a-z0-9']+")


def words(text: str) -> list[str]:
    return [w.replace("'", "") for w in _WORD.findall(text.lower())]


def _same_word(heard: str, said: str) -> bool:
    """Equal, or cut at the end of an echo ("new" for "news"), or one letter misheard: anywhere in
    a longer word, the last in a short one ("big" for "bit", live: "like a big one." was heard of
    "…like a bit of a challenge." and answered)."""
    if heard == said:
        return True
    if len(heard) >= 3 and said.startswith(heard):
        return True
    if len(heard) >= 4 and len(heard) == len(said):
        return sum(a != b for a, b in zip(heard, said)) <= 1
    return len(heard) == len(said) == 3 and heard[:2] == said[:2]


def _in_order(heard: list[str], own: list[str]) -> int:
    """How many of the heard words follow the own words in order (their longest common
    subsequence, words compared as _same_word does)."""
    prev = [0] * (len(own) + 1)
    for h in heard:
        cur = [0]
        for j, w in enumerate(own, 1):
            cur.append(prev[j - 1] + 1 if _same_word(h, w) else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def share_of_own_words(heard: str, said: Sequence[str]) -> float:
    """The largest fraction of the words heard that follow, in order, a run of Hearth's words
    (from its recent sentences) hardly longer than what was heard: an echo is Hearth's words in
    Hearth's order, while a person's question that shares a few of them ("What is my daughter
    called?" after "My daughter is Sam. Sam has a dog called Biscuit.") keeps its own."""
    heard_words = words(heard)
    own = [w for s in said for w in words(s)]
    if not heard_words or not own:
        return 0.0
    span = len(heard_words) + 2  # a word or two misheard as more, or dropped
    best = max(_in_order(heard_words, own[start:start + span]) for start in range(max(1, len(own) - span + 1)))
    return best / len(heard_words)


def is_echo(heard: str, said: Sequence[str]) -> bool:
    """A transcript heard while Hearth was talking (or in its echo's tail) is Hearth's own voice
    when most of its words are words Hearth was saying."""
    return share_of_own_words(heard, said) >= ECHO_WORD_SHARE
