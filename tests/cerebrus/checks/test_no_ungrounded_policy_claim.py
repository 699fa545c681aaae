"""The no_ungrounded_policy_claim check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check

ARRIVAL = [
    ("We'll text you access instructions about an hour before.", "en", "We'll text you access instructions"),
    ("I will email you the arrival details tomorrow.", "en", "I will email you the arrival details"),
    ("We’ll send your entry information soon.", "en", "We’ll send your entry information"),
    ("Te enviaremos las instrucciones de acceso mañana.", "es", "Te enviaremos las instrucciones de acceso"),
    ("Le mandaremos instrucciones de llegada.", "es", "Le mandaremos instrucciones de llegada"),
]
VENDOR = [
    ("A technician will be there tomorrow between 9 and 11.", "en", "A technician will be there"),
    ("Someone'll stop by this afternoon.", "en", "Someone'll stop by"),
    ("I'll have someone come look at it.", "en", "I'll have someone come"),
    ("Un técnico pasará mañana por la mañana.", "es", "Un técnico pasará"),
    ("Alguien irá a revisar la fuga.", "es", "Alguien irá"),
]


@pytest.mark.parametrize(("draft", "language", "quote"), ARRIVAL)
def test_arrival_promise_without_instructions_on_file_fails(draft: str, language: str, quote: str) -> None:
    builder = ConversationBuilder(facts={"arrival_instructions": None}).inbound("Tour?")
    result = run_check(builder.reply(draft, language=language).build(), "no_ungrounded_policy_claim")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.BLOCK, Owner.CLARA)
    assert result.reason.slug == "unbacked_promise"
    assert quotes(result) == [quote]
    assert result.evidence[0].fact_key == "arrival_instructions"


@pytest.mark.parametrize(("draft", "language", "quote"), ARRIVAL)
def test_arrival_promise_with_instructions_on_file_passes(draft: str, language: str, quote: str) -> None:
    conversation = ConversationBuilder().inbound("Tour?").reply(draft, language=language).build()
    result = run_check(conversation, "no_ungrounded_policy_claim")
    assert result.outcome is Outcome.PASS
    assert quotes(result) == [quote]


@pytest.mark.parametrize(("draft", "language", "quote"), VENDOR)
def test_vendor_visit_without_a_successful_dispatch_fails(draft: str, language: str, quote: str) -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("dispatch_vendor", status="error", error="no vendor"),
        claude("x"),
    ]
    conversation = ConversationBuilder().inbound("Leak").reply(draft, language=language, steps=steps).build()
    result = run_check(conversation, "no_ungrounded_policy_claim")
    assert result.outcome is Outcome.FAIL
    assert quotes(result) == [quote]
    assert result.evidence[0].tool_name == "dispatch_vendor"


@pytest.mark.parametrize(("draft", "language", "quote"), VENDOR)
def test_vendor_visit_with_a_successful_dispatch_passes(draft: str, language: str, quote: str) -> None:
    steps = [claude(stop_reason="tool_use"), tool("dispatch_vendor", result={"window": "9-11"}), claude("x")]
    conversation = ConversationBuilder().inbound("Leak").reply(draft, language=language, steps=steps).build()
    assert run_check(conversation, "no_ungrounded_policy_claim").outcome is Outcome.PASS


def test_a_rules_file_promise_extends_the_defaults() -> None:
    rules = Rules.model_validate(
        {
            "promises": [
                *[p.model_dump() for p in Rules().promises],
                {
                    "id": "refund",
                    "patterns": {"en": [r"\bwe(?:'ll| will) refund"]},
                    "requires_tool": "issue_refund",
                },
            ]
        }
    )
    conversation = ConversationBuilder().inbound("Refund?").reply("We will refund the fee today.").build()
    result = run_check(conversation, "no_ungrounded_policy_claim", rules)
    assert quotes(result) == ["We will refund"]


@pytest.mark.parametrize(
    ("draft", "language"),
    [("Your tour is booked for Thursday at 3 PM.", "en"), ("Su visita es el jueves a las 3.", "es")],
)
def test_not_checked_when_the_draft_promises_nothing(draft: str, language: str) -> None:
    conversation = ConversationBuilder().inbound("Tour?").reply(draft, language=language).build()
    result = run_check(conversation, "no_ungrounded_policy_claim")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
