"""The loop_progress check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

from cerebrus import Rules
from gradecore.contract import Conversation
from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def _conversation(steps: list[dict[str, object]]) -> Conversation:
    return ConversationBuilder().inbound("Tour?").reply("Ok", steps=steps).build()


def test_fails_when_the_same_tool_is_called_twice_with_identical_input() -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("get_tour_slots", input={"date": "2026-11-26", "unit": "1B"}, result={}),
        claude(stop_reason="tool_use", iteration=1),
        tool("get_tour_slots", input={"unit": "1B", "date": "2026-11-26"}, result={}, iteration=1),
        claude("Ok", iteration=2),
    ]
    result = run_check(_conversation(steps), "loop_progress")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.REPAIR, Owner.CLARA)
    (evidence,) = result.evidence
    assert (evidence.tool_name, evidence.step_index, evidence.detail) == (
        "get_tour_slots",
        3,
        "same input as step 1",
    )


def test_fails_past_max_iterations() -> None:
    steps = [claude(stop_reason="tool_use", iteration=i) for i in range(7)] + [claude("Ok", iteration=7)]
    result = run_check(_conversation(steps), "loop_progress")
    assert result.outcome is Outcome.FAIL
    assert result.evidence[0].step_index == 6
    assert result.evidence[0].detail == "8 claude_call steps; the limit is 6"


def test_passes_on_different_inputs_and_within_a_raised_limit() -> None:
    steps = [claude(stop_reason="tool_use", iteration=i) for i in range(7)] + [
        tool("get_tour_slots", input={"date": "a"}, result={}),
        tool("get_tour_slots", input={"date": "b"}, result={}),
    ]
    rules = Rules.model_validate({"thresholds": {"max_iterations": 10}})
    assert run_check(_conversation(steps), "loop_progress", rules).outcome is Outcome.PASS


def test_not_checked_without_steps() -> None:
    result = run_check(_conversation([]), "loop_progress")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.DATA_MISSING)
