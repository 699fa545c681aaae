"""The required_facts_in_context check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def _turn(
    intent: str, steps: list[dict[str, object]], facts: dict[str, object] | None = None
) -> Conversation:
    return ConversationBuilder(facts=facts).inbound("Hi?").reply("Hello.", intent=intent, steps=steps).build()


@pytest.mark.parametrize("written", ["1850", "1,850", "$1,850.00", "1.850", "USD 1850/mo"])
def test_amounts_are_in_context_in_any_usual_formatting(written: str) -> None:
    conversation = _turn("rent_question", [claude("Hello.", system_prompt=f"Rent: {written}.")])
    assert run_check(conversation, "required_facts_in_context").outcome is Outcome.PASS


def test_amounts_from_a_successful_tool_result_count() -> None:
    steps = [
        claude(system_prompt="No prices here."),
        tool("get_pricing", result={"rent": 1850}),
        claude("Hi"),
    ]
    result = run_check(_turn("rent_question", steps), "required_facts_in_context")
    assert result.outcome is Outcome.PASS


def test_fails_when_amounts_never_reach_clara() -> None:
    steps = [
        claude(system_prompt="Rent is 18500 or $1,8500."),
        tool("get_pricing", status="error", error="rent 1850 unavailable"),
        claude("Hello.", system_prompt="Prices: ask the office."),
    ]
    result = run_check(_turn("rent_question", steps), "required_facts_in_context")
    assert result.outcome is Outcome.FAIL
    assert result.level is Level.HOLD
    (evidence,) = result.evidence
    assert (evidence.fact_key, evidence.step_index) == ("amounts", 2)


def test_string_facts_match_whitespace_and_case_insensitively() -> None:
    prompt = "Office   hours:\n  mon-fri 9:00-17:00 ."
    result = run_check(
        _turn("tour_request", [claude("Hi", system_prompt=prompt)]), "required_facts_in_context"
    )
    assert result.outcome is Outcome.PASS


def test_only_the_final_system_prompt_counts() -> None:
    steps = [
        claude(system_prompt="Office hours: Mon-Fri 9:00-17:00"),
        claude("Hi", system_prompt="Be brief."),
    ]
    result = run_check(_turn("tour_request", steps), "required_facts_in_context")
    assert result.outcome is Outcome.FAIL
    assert result.evidence[0].fact_key == "office_hours"


def test_not_checked_when_the_fact_is_not_on_file() -> None:
    conversation = _turn("tour_request", [claude("Hi")], facts={"office_hours": None})
    result = run_check(conversation, "required_facts_in_context")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.DATA_MISSING)


def test_not_checked_without_a_claude_call_or_an_intent() -> None:
    no_call = _turn("tour_request", [tool("get_tour_slots", result={})])
    no_intent = ConversationBuilder().inbound("Hi").reply("Hello", intent=None).build()
    assert run_check(no_call, "required_facts_in_context").not_checked_why is NotCheckedWhy.DATA_MISSING
    assert run_check(no_intent, "required_facts_in_context").not_checked_why is NotCheckedWhy.NOT_APPLICABLE
