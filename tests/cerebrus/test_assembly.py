"""Assembling a grade: results kept for repeated findings, the first reason a check was not checked
for, a ledger read under each grade's rules, and facts asked per intent."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from cerebrus.assemble import GradeAssembly
from cerebrus.findings import Finding, failed, passed
from cerebrus.registry import CheckDeclarationError, default_registry
from gradecore.model.grades import OwnershipSplit, ScopeStatement
from gradecore.model.vocabulary import DimensionResult, Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


def test_a_repeated_finding_gets_the_result_its_first_one_got() -> None:
    spec = default_registry().get("not_truncated")
    first = spec.result(passed("complete", "The final model call ended with end_turn."))
    again = spec.result(passed("complete", "The final model call ended with end_turn."))
    other = spec.result(passed("complete", "The final model call ended with tool_use."))
    assert again == first
    assert other.reason.sentence == "The final model call ended with tool_use."
    assert first == DimensionResult.model_validate(first.model_dump())


def test_a_failure_without_receipts_is_refused() -> None:
    spec = default_registry().get("not_truncated")
    with pytest.raises(CheckDeclarationError, match="failed without evidence"):
        spec.result(failed("truncated", "Cut off."))
    with pytest.raises(CheckDeclarationError):
        spec.result(Finding(Outcome.FAIL, "truncated", "Cut off."))


def _state(tally: GradeAssembly) -> tuple[OwnershipSplit, ScopeStatement]:
    return tally.split(), tally.scope(("followup_exists", "mandated_tools_called"), judge_on=False)


def test_the_first_reason_a_check_was_not_checked_for_stays() -> None:
    first = run_check(ConversationBuilder().inbound("Hi?").reply("Hello").build(), "mandated_tools_called")
    second = first.model_copy(update={"not_checked_why": "data_missing"})
    assert first.not_checked_why != second.not_checked_why
    for order in ((first, second), (second, first)):
        tally = GradeAssembly()
        for result in order:
            tally.place((result,), None)
        assert _state(tally)[1].not_checked[0].why == order[0].not_checked_why


def test_a_ledger_reads_each_grades_labels() -> None:
    # The same amounts under two label sets: the pairing of an amount with an item follows each
    # grade's rules.
    relabelled = Rules.model_validate({"amount_labels": {"rent_2br": ["two-bed"]}})
    conversation = ConversationBuilder().inbound("Rent?").reply("The two-bed is $45.").build()
    for _ in range(2):
        plain = run_check(conversation, "amounts_match_ledger")
        paired = run_check(conversation, "amounts_match_ledger", rules=relabelled)
        assert plain.outcome is Outcome.PASS
        assert [e.rule_entry for e in paired.evidence] == ["amounts.wrong_item:rent_2br"]


def test_each_conversation_gets_receipts_of_its_own_amounts() -> None:
    # Equal ledgers written apart (0.0 and -0.0 are one cent value): a receipt quotes the
    # conversation's own amount.
    details = []
    for rent in (0.0, -0.0):
        conversation = (
            ConversationBuilder(facts={"amounts": {"rent_2br": rent, "application_fee": 45}})
            .inbound("Rent?")
            .reply("The 2 bedroom is $45.")
            .build()
        )
        details.append(run_check(conversation, "amounts_match_ledger").evidence[0].detail)
    paired = '45 is paired with "2 bedroom" (rent_2br, the label before it), '
    assert details == [
        paired + "but it is application_fee's amount, not rent_2br's (0)",
        paired + "but it is application_fee's amount, not rent_2br's (-0)",
    ]


def test_each_turn_asks_for_its_own_intents_facts() -> None:
    # Two intents asking for different facts in one conversation: each turn gets its own answer.
    rules = Rules.model_validate(
        {"required_facts": {"tour_request": ["office_hours"], "pets": ["pet_policy"]}}
    )
    conversation = (
        ConversationBuilder(facts={"office_hours": "Mon-Fri 9:00-17:00", "pet_policy": None})
        .inbound("Tour?")
        .reply("Sure", intent="tour_request")
        .inbound("Pets?")
        .reply("Let me check", intent="pets")
        .inbound("And tours on Saturday?")
        .reply("No", intent="tour_request")
        .build()
    )
    outcomes = [
        run_check(conversation, "required_facts_present", rules, turn=t).reason.slug for t in range(3)
    ]
    assert outcomes == ["facts_on_file", "fact_missing", "facts_on_file"]
