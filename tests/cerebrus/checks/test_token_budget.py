"""The token_budget check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

from cerebrus import Rules
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def _conversation(*calls: tuple[int, int]) -> Conversation:
    steps = [claude("Ok", input_tokens=i, output_tokens=o) for i, o in calls]
    return ConversationBuilder().inbound("Hi").reply("Ok", steps=steps).build()


def test_fails_over_the_budget_at_the_step_that_crossed_it() -> None:
    result = run_check(_conversation((30_000, 500), (30_000, 600), (1_000, 10)), "token_budget")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.REPAIR, Owner.OURS)
    assert result.evidence[0].step_index == 1
    assert result.evidence[0].detail == "62,110 tokens > 60,000"


def test_passes_at_the_budget_and_under_a_raised_one() -> None:
    assert run_check(_conversation((59_000, 1_000)), "token_budget").outcome is Outcome.PASS
    rules = Rules.model_validate({"thresholds": {"token_budget": 100_000}})
    assert run_check(_conversation((70_000, 1_000)), "token_budget", rules).outcome is Outcome.PASS


def test_not_checked_without_a_claude_call() -> None:
    conversation = ConversationBuilder().inbound("Hi").reply("Ok", steps=[tool("x", result={})]).build()
    assert run_check(conversation, "token_budget").not_checked_why is NotCheckedWhy.DATA_MISSING
