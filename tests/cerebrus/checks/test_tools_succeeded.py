"""The tools_succeeded check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


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
