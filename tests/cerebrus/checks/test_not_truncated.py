"""The not_truncated check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def test_fails_when_the_final_call_hit_max_tokens() -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("x", result={}),
        claude("Your tour is at", stop_reason="max_tokens"),
    ]
    conversation = ConversationBuilder().inbound("Tour?").reply("Your tour is at", steps=steps).build()
    result = run_check(conversation, "not_truncated")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.BLOCK, Owner.OURS)
    assert (result.evidence[0].step_index, result.evidence[0].detail) == (2, "stop_reason max_tokens")


def test_an_earlier_truncated_call_does_not_count() -> None:
    steps = [claude(stop_reason="max_tokens"), claude("Done.")]
    conversation = ConversationBuilder().inbound("Tour?").reply("Done.", steps=steps).build()
    assert run_check(conversation, "not_truncated").outcome is Outcome.PASS


def test_not_checked_without_a_claude_call() -> None:
    conversation = ConversationBuilder().inbound("Tour?").reply("Done.", steps=[tool("x", result={})]).build()
    result = run_check(conversation, "not_truncated")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.DATA_MISSING)
