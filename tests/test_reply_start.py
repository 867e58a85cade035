"""A reply begun badly is begun again, before any of it is voiced: pure, on scripted replies."""

from __future__ import annotations

from assistant.reply_start import TRIES, begun_well

HEARD = "I planted tomatoes in the garden this spring."


def scripted(*replies: list[str]):
    """make_pieces for begun_well: each call starts the next scripted reply; what was avoided is kept."""
    calls: list[str] = []
    closed: list[int] = []

    def make(avoid: str):
        n = len(calls)
        calls.append(avoid)

        def pieces():
            try:
                yield from replies[n]
            finally:
                closed.append(n)
        return pieces()
    return make, calls, closed


def test_a_good_start_is_voiced_as_it_came_from_one_try():
    make, calls, _ = scripted(["How lovely,", "what kind are they?"])
    assert list(begun_well(make, HEARD)) == ["How lovely,", "what kind are they?"]
    assert calls == [""]


def test_a_parrot_is_begun_again_avoiding_its_start():
    make, calls, closed = scripted(["Omar planted tomatoes in the garden this spring."], ["Lovely!", "Which kind?"])
    assert list(begun_well(make, HEARD)) == ["Lovely!", "Which kind?"]
    assert calls == ["", "Omar planted tomatoes in the garden this spring."]
    assert 0 in closed  # the thrown-away reply's generation was stopped


def test_an_apology_waits_for_the_next_piece_before_it_is_judged():
    make, calls, _ = scripted(["I'm sorry,", "but I can't assist with that."], ["Oh no,", "what happened?"])
    assert list(begun_well(make, "My phone broke today.")) == ["Oh no,", "what happened?"]
    make, calls, _ = scripted(["I'm sorry,", "that sounds hard."])
    assert list(begun_well(make, "My phone broke today.")) == ["I'm sorry,", "that sounds hard."]
    assert calls == [""]


def test_the_last_try_is_voiced_whatever_it_is_and_every_start_is_avoided():
    bad = ["I'm sorry, but I can't assist with that."]
    make, calls, _ = scripted(*([bad] * TRIES))
    assert list(begun_well(make, "Tell me about my day.")) == bad
    assert calls[-1].splitlines() == bad * (TRIES - 1)


def test_nothing_said_is_nothing_voiced():
    make, calls, _ = scripted([])
    assert list(begun_well(make, HEARD)) == []
