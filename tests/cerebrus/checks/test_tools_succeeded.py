"""The tools_succeeded check (docs/grading.md): a tool's last call decides; recovered errors pass and are
counted."""

from __future__ import annotations

import cerebrus
from cerebrus.checks.tools_succeeded import recovered_errors
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def _turn(*calls: dict[str, object]) -> list[dict[str, object]]:
    steps: list[dict[str, object]] = []
    for iteration, call in enumerate(calls):
        steps += [claude(stop_reason="tool_use", iteration=iteration), {**call, "loop_iteration": iteration}]
    return [*steps, claude("Ok", iteration=len(calls))]


TIMEOUT = tool("get_tour_slots", status="error", error="upstream timeout after 10s")
SLOTS = tool("get_tour_slots", result={"slots": ["2026-11-26T15:00:00Z"]})


def test_fails_on_a_tool_error_naming_tool_and_step() -> None:
    error = "Missing secret TOUR_SLOTS_API_KEY in serving runtime " + "x" * 400
    steps = [
        claude(stop_reason="tool_use"),
        tool("get_tour_slots", status="error", error=error),
        claude("Sorry"),
    ]
    conversation = (
        ConversationBuilder().inbound("Tour?").reply("Sorry", intent="tour_request", steps=steps).build()
    )
    result = run_check(conversation, "tools_succeeded")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.HOLD, Owner.OURS)
    (evidence,) = result.evidence
    assert (evidence.tool_name, evidence.step_index, evidence.turn_id) == ("get_tour_slots", 1, "t1")
    assert evidence.detail is not None
    assert evidence.detail.startswith("Missing secret TOUR_SLOTS_API_KEY")
    assert len(evidence.detail) == 200 and evidence.detail.endswith("…")


def test_an_error_holding_an_access_code_is_masked() -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("unlock", status="error", error="code 4821 rejected"),
        claude("Hi"),
    ]
    conversation = ConversationBuilder().inbound("Hi").reply("Hi", steps=steps).build()
    result = run_check(conversation, "tools_succeeded")
    assert result.evidence[0].detail == "code ••21 rejected"


def test_passes_when_every_tool_succeeded() -> None:
    steps = [claude(stop_reason="tool_use"), tool("get_tour_slots", result={"slots": []}), claude("Ok")]
    conversation = ConversationBuilder().inbound("Tour?").reply("Ok", steps=steps).build()
    assert run_check(conversation, "tools_succeeded").outcome is Outcome.PASS


def test_not_checked_without_tool_calls() -> None:
    result = run_check(ConversationBuilder().inbound("Hi").reply("Hello").build(), "tools_succeeded")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)


def test_a_tool_that_failed_once_then_succeeded_is_recovered() -> None:
    conversation = ConversationBuilder().inbound("Tour?").reply("Ok", steps=_turn(TIMEOUT, SLOTS)).build()
    result = run_check(conversation, "tools_succeeded")
    assert result.outcome is Outcome.PASS
    assert result.reason.slug == "tools_recovered"
    (evidence,) = result.evidence
    assert (evidence.tool_name, evidence.step_index, evidence.detail, evidence.rule_entry) == (
        "get_tour_slots",
        1,
        "recovered after 1 error",
        "tools.recovered",
    )
    assert recovered_errors(e.rule_entry for e in result.evidence) == 1


def test_recovered_errors_are_counted_one_per_error() -> None:
    steps = _turn(TIMEOUT, TIMEOUT, SLOTS)
    result = run_check(
        ConversationBuilder().inbound("Tour?").reply("Ok", steps=steps).build(), "tools_succeeded"
    )
    assert result.outcome is Outcome.PASS
    assert [e.detail for e in result.evidence] == ["recovered after 2 errors"] * 2
    assert recovered_errors(e.rule_entry for e in result.evidence) == 2


def test_failed_once_then_succeeded_is_neither_a_loop_nor_a_tool_failure() -> None:
    """Issue 9: a tool that failed once and succeeded on the identical retry used to make the turn a
    loop failure and a tool failure."""
    conversation = ConversationBuilder().inbound("Tour?").reply("Ok", steps=_turn(TIMEOUT, SLOTS)).build()
    turn = cerebrus.grade(conversation).turns[0]
    outcomes = {d.check: d.outcome for d in turn.dimensions}
    assert outcomes["tools_succeeded"] is Outcome.PASS
    assert outcomes["loop_progress"] is Outcome.PASS


def test_a_success_followed_by_a_failure_fails_on_the_last_call() -> None:
    steps = _turn(SLOTS, TIMEOUT)
    result = run_check(
        ConversationBuilder().inbound("Tour?").reply("Ok", steps=steps).build(), "tools_succeeded"
    )
    assert result.outcome is Outcome.FAIL
    (evidence,) = result.evidence
    assert (evidence.step_index, evidence.rule_entry) == (3, "tools.last_call_failed")


def test_only_the_tools_still_failing_are_named() -> None:
    dispatch_error = tool("dispatch_vendor", status="error", error="409 conflict")
    steps = _turn(TIMEOUT, SLOTS, dispatch_error)
    result = run_check(
        ConversationBuilder().inbound("Tour?").reply("Ok", steps=steps).build(), "tools_succeeded"
    )
    assert result.outcome is Outcome.FAIL
    assert result.reason.sentence == "The dispatch_vendor tool failed."
    assert [(e.tool_name, e.step_index) for e in result.evidence] == [("dispatch_vendor", 5)]
