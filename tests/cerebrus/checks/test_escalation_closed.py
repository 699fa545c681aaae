"""The escalation_closed check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

from cerebrus import Rules
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


def test_fails_on_an_escalation_open_past_the_sla() -> None:
    conversation = ConversationBuilder().inbound("Help").escalation().settled(hours=30).build()
    result = run_check(conversation, "escalation_closed")
    assert result.outcome is Outcome.FAIL
    assert result.level is Level.HOLD
    assert result.owner.value == "ours"
    assert result.evidence[0].detail == "escalation e1 to pm open for 30 h"


def test_passes_when_closed_or_recent() -> None:
    closed = ConversationBuilder().inbound("Help").escalation(closed_after=60).settled(days=3).build()
    recent = ConversationBuilder().inbound("Help").escalation().settled(hours=2).build()
    assert run_check(closed, "escalation_closed").outcome is Outcome.PASS
    assert run_check(recent, "escalation_closed").outcome is Outcome.PASS


def test_sla_comes_from_the_rules() -> None:
    conversation = ConversationBuilder().inbound("Help").escalation().settled(hours=2).build()
    rules = Rules.model_validate({"thresholds": {"escalation_sla": "1h"}})
    assert run_check(conversation, "escalation_closed", rules).outcome is Outcome.FAIL


def test_not_checked_without_escalations() -> None:
    result = run_check(ConversationBuilder().inbound("Help").build(), "escalation_closed")
    assert result.outcome is Outcome.NOT_CHECKED
    assert result.not_checked_why is NotCheckedWhy.NOT_APPLICABLE
