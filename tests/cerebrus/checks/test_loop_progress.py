"""The loop_progress check (docs/grading.md): redundant calls, repeated failures and too many iterations
fail; one retry after an error is progress-seeking, not a loop."""

from __future__ import annotations

from typing import Any

import pytest

from cerebrus import Rules
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check

SLOTS = {"date": "2026-11-26", "unit": "1B"}


def _conversation(steps: list[dict[str, object]]) -> Conversation:
    return ConversationBuilder().inbound("Tour?").reply("Ok", steps=steps).build()


def _rounds(*calls: dict[str, Any]) -> list[dict[str, Any]]:
    """One claude_call before each tool call, and a final answer."""
    steps: list[dict[str, Any]] = []
    for iteration, call in enumerate(calls):
        steps += [claude(stop_reason="tool_use", iteration=iteration), {**call, "loop_iteration": iteration}]
    return [*steps, claude("Ok", iteration=len(calls))]


def _ok(input: dict[str, Any] = SLOTS) -> dict[str, Any]:
    return tool("get_tour_slots", input=input, result={"slots": []})


def _error(input: dict[str, Any] = SLOTS) -> dict[str, Any]:
    return tool("get_tour_slots", input=input, status="error", error="timeout")


def test_fails_when_a_call_repeats_an_earlier_successful_identical_call() -> None:
    reordered = {"unit": "1B", "date": "2026-11-26"}  # key order does not make a call different
    result = run_check(_conversation(_rounds(_ok(), _ok(reordered))), "loop_progress")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.REPAIR, Owner.CLARA)
    (evidence,) = result.evidence
    assert (evidence.tool_name, evidence.step_index, evidence.rule_entry) == (
        "get_tour_slots",
        3,
        "loop.redundant_call",
    )
    assert evidence.detail == "same input as step 1, which had already succeeded"


@pytest.mark.parametrize("failures", [3, 4])
def test_fails_when_three_or_more_identical_calls_all_failed(failures: int) -> None:
    result = run_check(_conversation(_rounds(*[_error()] * failures)), "loop_progress")
    assert result.outcome is Outcome.FAIL
    (evidence,) = result.evidence
    assert (evidence.step_index, evidence.rule_entry) == (5, "loop.repeated_failure")
    assert evidence.detail is not None and f"made {failures} times" in evidence.detail


@pytest.mark.parametrize(
    "calls",
    [
        pytest.param([_error(), _ok()], id="failed once then succeeded"),
        pytest.param([_error(), _error()], id="one retry of a failing call"),
        pytest.param([_error(), _error(), _ok()], id="two errors then success"),
        pytest.param([_error(), _error({"date": "x"}), _error()], id="failures with different inputs"),
        pytest.param([_error({"date": "a"}), _ok({"date": "b"}), _ok({"date": "c"})], id="new inputs"),
    ],
)
def test_a_retry_after_an_error_is_not_a_loop(calls: list[dict[str, Any]]) -> None:
    assert run_check(_conversation(_rounds(*calls)), "loop_progress").outcome is Outcome.PASS


def test_fails_past_max_iterations() -> None:
    steps = [claude(stop_reason="tool_use", iteration=i) for i in range(7)] + [claude("Ok", iteration=7)]
    result = run_check(_conversation(steps), "loop_progress")
    assert result.outcome is Outcome.FAIL
    assert result.evidence[0].step_index == 6
    assert result.evidence[0].detail == "8 claude_call steps; the limit is 6"
    assert result.evidence[0].rule_entry == "loop.max_iterations"


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
