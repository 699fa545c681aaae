"""The followup_exists check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.vocabulary import Level, NotCheckedWhy, Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Is the pool open this weekend?", "en"),
        ("Can I bring my dog to the tour", "en"),  # no mark: opens with an interrogative word
        ("¿La piscina está abierta el fin de semana?", "es"),
        ("Dónde dejo el paquete", "es"),
    ],
)
def test_fails_when_a_question_waits_past_the_sla(question: str, language: str) -> None:
    conversation = ConversationBuilder().inbound(question, language=language).settled(hours=5).build()
    result = run_check(conversation, "followup_exists")
    assert result.outcome is Outcome.FAIL
    assert result.level is Level.HOLD
    assert result.evidence[0].message_id == "m1"
    assert "5 h" in (result.evidence[0].detail or "")


def test_passes_when_someone_answered() -> None:
    conversation = (
        ConversationBuilder().inbound("Is the pool open?").reply("Yes, until 9 PM.").settled(days=3).build()
    )
    result = run_check(conversation, "followup_exists")
    assert result.outcome is Outcome.PASS
    assert result.evidence[0].message_id == "m2"


def test_passes_while_still_within_the_sla() -> None:
    conversation = ConversationBuilder().inbound("Is the pool open?").settled(hours=3).build()
    assert run_check(conversation, "followup_exists").outcome is Outcome.PASS


def test_sla_comes_from_the_rules() -> None:
    conversation = ConversationBuilder().inbound("Is the pool open?").settled(hours=3).build()
    rules = Rules.model_validate({"thresholds": {"followup_sla": "2h"}})
    assert run_check(conversation, "followup_exists", rules).outcome is Outcome.FAIL


@pytest.mark.parametrize("statement", ["Thanks, see you Thursday.", "Gracias, nos vemos el jueves."])
def test_not_checked_when_the_last_message_asks_nothing(statement: str) -> None:
    conversation = ConversationBuilder().inbound(statement).settled(days=2).build()
    result = run_check(conversation, "followup_exists")
    assert result.outcome is Outcome.NOT_CHECKED
    assert result.not_checked_why is NotCheckedWhy.NOT_APPLICABLE


def test_not_checked_without_inbound_messages() -> None:
    conversation = ConversationBuilder().outbound("Rent reminder", author="clara").build()
    assert run_check(conversation, "followup_exists").outcome is Outcome.NOT_CHECKED
