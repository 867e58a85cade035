"""End to end: what Dana says in one session is recalled, and used, in the next (the demo's script)."""

from __future__ import annotations

from assistant import events as ev
from assistant.modes.demo import PERSON, SESSIONS, run_demo
from memory import open_store


def test_a_fact_from_the_first_session_is_used_in_the_second(engines, test_config, tmp_path):
    results = run_demo(engines, test_config, tmp_path, replies_in_real_time=False)  # Dana still talks in real time
    assert [len(r.answered) for r in results] == [len(lines) for lines in SESSIONS]

    second = results[1].answered
    recalled = [m for r in second for e in r.events if isinstance(e, ev.RecallDone) for m in e.memories]
    assert any("max" in m["text"].lower() for m in recalled), recalled
    asked = [m for e in second[-1].events if isinstance(e, ev.RecallDone) for m in e.memories]
    assert any("limp" in m["text"].lower() for m in asked), asked  # "What was I worried about last time?"
    replies = " ".join(r.reply.lower() for r in second)
    assert any(word in replies for word in ("max", "limp", "leg")), replies
    # the conversation history did not carry it: session 2 began with an empty history
    assert "max" not in second[0].heard.lower()

    # Dana spoke in real time through the streaming pipeline: her words were transcribed while she
    # spoke, and each reply was released at an endpoint after she stopped
    for r in (r for result in results for r in result.answered):
        kinds = [type(e) for e in r.events]
        assert ev.PartialTranscript in kinds and ev.SpeechEnd in kinds and ev.FirstAudio in kinds
        end = next(e.t for e in r.events if isinstance(e, ev.SpeechEnd))
        assert next(e.t for e in r.events if isinstance(e, ev.FirstAudio)) > end

    # raw turns of both sessions are on disk, verbatim, with the demo's own database
    store = open_store(tmp_path / "memory", engines.embedder)
    try:
        person = store.find_person(PERSON)
        said = [t["text"] for t in store.turns(person) if t["role"] == "user"]
        assert len(said) == sum(len(s) for s in SESSIONS)
        assert {t["session_id"] for t in store.turns(person)}.__len__() == 2
    finally:
        store.close()
