"""The amounts_match_ledger check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check

# The ledger holds rent_2br 1850 and application_fee 45 (builders.DEFAULT_FACTS).


@pytest.mark.parametrize(
    ("draft", "language", "quote"),
    [
        ("The 2 bedroom is $1,950 per month.", "en", "$1,950"),
        ("The 2 bedroom is $1950.00 per month.", "en", "$1950.00"),
        ("The 2 bedroom is 1,950 dollars per month.", "en", "1,950 dollars"),
        ("El de 2 habitaciones cuesta 1.950 dólares al mes.", "es", "1.950 dólares"),
        ("The 2 bedroom is USD 1950 per month.", "en", "USD 1950"),
        ("El depósito es de US$ 2.000,50.", "es", "US$ 2.000,50"),
    ],
)
def test_fails_on_an_amount_not_on_file_with_the_exact_span(draft: str, language: str, quote: str) -> None:
    conversation = (
        ConversationBuilder().inbound("Rent?").reply(draft, intent="rent_question", language=language)
    )
    result = run_check(conversation.build(), "amounts_match_ledger")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.REPAIR, Owner.CLARA)
    assert quotes(result) == [quote]
    assert result.evidence[0].fact_key == "amounts"


@pytest.mark.parametrize(
    ("draft", "language"),
    [
        ("The 2 bedroom is $1,850 per month and the fee is $45.", "en"),
        ("It is $1850.00 a month.", "en"),
        ("Son 1.850 dólares al mes y 45 dólares de solicitud.", "es"),
        ("USD 1850, fee $45.00.", "en"),
    ],
)
def test_passes_when_every_amount_is_in_the_ledger(draft: str, language: str) -> None:
    conversation = ConversationBuilder().inbound("Rent?").reply(draft, language=language).build()
    assert run_check(conversation, "amounts_match_ledger").outcome is Outcome.PASS


def test_an_amount_from_a_successful_tool_result_is_backed() -> None:
    steps = [claude(stop_reason="tool_use"), tool("get_pricing", result={"parking": "$75.00"}), claude("x")]
    conversation = (
        ConversationBuilder().inbound("Parking?").reply("Parking is $75 a month.", steps=steps).build()
    )
    assert run_check(conversation, "amounts_match_ledger").outcome is Outcome.PASS


def test_an_amount_from_a_failed_tool_is_not_backed() -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("get_pricing", status="error", error="parking 75"),
        claude("x"),
    ]
    conversation = (
        ConversationBuilder().inbound("Parking?").reply("Parking is $75 a month.", steps=steps).build()
    )
    result = run_check(conversation, "amounts_match_ledger")
    assert quotes(result) == ["$75"]


def test_reports_only_the_unbacked_amounts() -> None:
    draft = "Rent is $1,850, parking $80 and the fee 45 dollars."
    result = run_check(ConversationBuilder().inbound("?").reply(draft).build(), "amounts_match_ledger")
    assert quotes(result) == ["$80"]


@pytest.mark.parametrize(
    "draft", ["Tours run 9 to 11 AM on the 2nd floor.", "Las visitas son de 9 a 11 en el piso 2."]
)
def test_not_checked_when_the_draft_states_no_money(draft: str) -> None:
    result = run_check(ConversationBuilder().inbound("?").reply(draft).build(), "amounts_match_ledger")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
