"""The mandated_tools_called check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def test_fails_when_a_mandated_tool_was_never_called() -> None:
    steps = [claude(stop_reason="tool_use"), tool("lookup_unit", result={}), claude("We have slots.")]
    conversation = (
        ConversationBuilder().inbound("Tour?").reply("We have slots.", intent="tour_request", steps=steps)
    )
    result = run_check(conversation.build(), "mandated_tools_called")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.HOLD, Owner.CLARA)
    assert [(e.tool_name, e.detail) for e in result.evidence] == [("get_tour_slots", "never called")]


@pytest.mark.parametrize("status", ["success", "error"])
def test_passes_when_called_even_if_it_failed(status: str) -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("create_work_order", status=status, result={}, error="x"),
        claude("Ok"),
    ]
    conversation = (
        ConversationBuilder().inbound("Leak!").reply("Ok", intent="maintenance_request", steps=steps)
    )
    assert run_check(conversation.build(), "mandated_tools_called").outcome is Outcome.PASS


def test_rules_can_mandate_more_tools() -> None:
    steps = [claude(stop_reason="tool_use"), tool("create_work_order", result={}), claude("Ok")]
    conversation = (
        ConversationBuilder().inbound("Leak!").reply("Ok", intent="maintenance_request", steps=steps)
    )
    rules = Rules.model_validate(
        {"mandated_tools": {"maintenance_request": ["create_work_order", "dispatch_vendor"]}}
    )
    result = run_check(conversation.build(), "mandated_tools_called", rules)
    assert [e.tool_name for e in result.evidence] == ["dispatch_vendor"]


@pytest.mark.parametrize("intent", [None, "rent_question"])
def test_not_checked_without_an_intent_that_mandates_tools(intent: str | None) -> None:
    conversation = ConversationBuilder().inbound("Hi").reply("Hello", intent=intent).build()
    result = run_check(conversation, "mandated_tools_called")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
