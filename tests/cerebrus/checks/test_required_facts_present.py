"""The required_facts_present check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.model.contract import validate_conversation
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


@pytest.mark.parametrize(
    ("key", "empty"),
    [
        ("office_hours", None),
        ("office_hours", ""),
        ("office_hours", "   "),
        ("amounts", {}),
        ("access_codes", []),
    ],
)
def test_fails_when_a_required_fact_is_missing_or_empty(key: str, empty: object) -> None:
    rules = Rules.model_validate({"required_facts": {"door_question": [key]}})
    conversation = (
        ConversationBuilder(facts={key: empty}).inbound("Hi?").reply("Hi", intent="door_question").build()
    )
    result = run_check(conversation, "required_facts_present", rules)
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.HOLD, Owner.OURS)
    assert [e.fact_key for e in result.evidence] == [key]


def test_a_fact_absent_from_the_ledger_is_missing() -> None:
    conversation = ConversationBuilder(facts={}).inbound("Tour?").reply("Sure", intent="tour_request")
    document = conversation.document()
    del document["property"]["facts"]["office_hours"]
    result = run_check(validate_conversation(document), "required_facts_present")
    assert result.evidence[0].fact_key == "office_hours"
    assert "office_hours" in result.reason.sentence


def test_passes_when_the_facts_are_on_file() -> None:
    conversation = (
        ConversationBuilder().inbound("Rent?").reply("It is $1,850.", intent="rent_question").build()
    )
    assert run_check(conversation, "required_facts_present").outcome is Outcome.PASS


def test_rules_can_require_an_extra_fact() -> None:
    conversation = (
        ConversationBuilder().inbound("Pets?").reply("Cats are fine.", intent="pet_question").build()
    )
    rules = Rules.model_validate({"required_facts": {"pet_question": ["pet_policy"]}})
    result = run_check(conversation, "required_facts_present", rules)
    assert result.outcome is Outcome.FAIL
    assert result.evidence[0].fact_key == "pet_policy"


@pytest.mark.parametrize("intent", [None, "general"])
def test_not_checked_without_an_intent_that_requires_facts(intent: str | None) -> None:
    conversation = ConversationBuilder().inbound("Hi").reply("Hello", intent=intent).build()
    result = run_check(conversation, "required_facts_present")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
