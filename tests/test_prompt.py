from assistant.prompt import SYSTEM_PROMPT, History, build_messages


def test_prompt_prefix_is_shared_between_turns_and_memory_comes_last():
    history = History(max_turns=3)
    first = build_messages("How is Biscuit?", history, "- Biscuit has a sore leg (two days ago)")
    history.add("How is Biscuit?", "He is resting.")
    second = build_messages("And Anna?", history, "- Anna is planning a trip")
    assert first[0] == second[0] and first[0]["content"].startswith(SYSTEM_PROMPT)
    assert second[1:3] == [{"role": "user", "content": "How is Biscuit?"},
                           {"role": "assistant", "content": "He is resting."}]
    assert second[-1]["role"] == "user" and "Anna is planning" in second[-1]["content"]
    assert second[-1]["content"].endswith("\n\nAnd Anna?")


def test_no_memory_no_notes_and_history_is_bounded():
    history = History(max_turns=2)
    for n in range(5):
        history.add(f"q{n}", f"a{n}")
    messages = build_messages("hi", history, "", speaker="Dana")
    assert [m["content"] for m in messages[1:]] == ["q3", "a3", "q4", "a4", "hi"]
    assert "Dana" in messages[0]["content"]
