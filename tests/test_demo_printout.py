"""The plain demo's printout: every turn shown with its own words and reply (assistant/modes/demo.py)."""

from assistant import events as ev
from assistant.modes.demo import NOTE_CHARS, session_printout
from assistant.pipeline.loop_types import TurnRecord

LINES = ("Hi, I'm Ada. I just came back from the market.", "I bought far too many apples.")


def test_a_line_carried_into_the_next_turn_leaves_each_reply_beside_its_own_words():
    """Ada's first line was carried into the next turn (its reply had not begun when she went on): two
    lines, two turns, but the first turn has no reply and the second answers both lines."""
    carried = TurnRecord(1, heard="", skipped="continued in the next turn")
    both = TurnRecord(2, heard=" ".join(LINES), reply="That sounds like a lot of apples!",
                      events=[ev.RecallDone(2, 1.0, memories=({"source": "fact", "score": 0.5, "text": "Ada likes apples"},))])
    out = session_printout(1, LINES, [carried, both])
    assert out[:3] == ["--- session 1 ---", f"script: {LINES[0]}", f"script: {LINES[1]}"]
    assert out[3:] == [" heard: ", "hearth: (continued in the next turn)",
                       f" heard: {' '.join(LINES)}", "hearth: That sounds like a lot of apples!",
                       "  recalled (fact, 0.50): Ada likes apples"]


def test_more_turns_than_lines_are_all_printed():
    """A line heard as two turns (a long pause inside it): neither turn is left out."""
    first = TurnRecord(1, heard="Hi, I'm Ada.", reply="Hello Ada!")
    second = TurnRecord(2, heard="I just came back from the market.", reply="What did you buy?")
    out = session_printout(2, LINES[:1], [first, second])
    assert [line for line in out if line.startswith(("hearth:", " heard:"))] == [
        " heard: Hi, I'm Ada.", "hearth: Hello Ada!", " heard: I just came back from the market.",
        "hearth: What did you buy?"]


def test_a_note_that_reads_as_one_shown_is_shown_once():
    """An entity's summary states what is true now in the words of the fact it integrates, then what
    was before: cut to the printout's width the two read alike, and the model's notes hold it once."""
    fact = "Ada bought far too many apples at the market on Saturday, and she plans to bake pies for them."
    notes = ({"source": "fallback", "score": 0.6, "text": fact},
             {"source": "fallback", "score": 0.5, "text": fact + " Before that, she bought pears."},
             {"source": "fallback", "score": 0.4, "text": "Ada went to the market."})
    record = TurnRecord(1, heard="What did I buy?", reply="Far too many apples.", events=[ev.RecallDone(1, 1.0, memories=notes)])
    assert len(fact) > NOTE_CHARS
    assert [line for line in session_printout(1, (), [record]) if "recalled" in line] == [
        f"  recalled (fallback, 0.60): {fact[:NOTE_CHARS]}", "  recalled (fallback, 0.40): Ada went to the market."]
