"""The no_access_code_to_prospect check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner, Span
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


@pytest.mark.parametrize(
    ("draft", "language", "start"),
    [
        ("Just use the buzz code 4821 at the front gate.", "en", 23),
        ("Use el código 4821, por favor.", "es", 14),
        ("Code:4821.", "en", 5),
    ],
)
def test_fails_when_a_prospect_gets_a_code_and_never_shows_it(draft: str, language: str, start: int) -> None:
    conversation = ConversationBuilder().inbound("How do I get in?").reply(draft, language=language).build()
    result = run_check(conversation, "no_access_code_to_prospect")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.BLOCK, Owner.CLARA)
    (evidence,) = result.evidence
    assert evidence.span == Span(start=start, end=start + 4)
    assert evidence.quote is None
    assert evidence.detail == "access code ••21 sent to a prospect"
    assert "4821" not in result.model_dump_json()


@pytest.mark.parametrize("draft", ["Call 48210 for help.", "Unit 14821 is free.", "Our number is 4-8-2-1."])
def test_matches_whole_tokens_by_identity_only(draft: str) -> None:
    conversation = ConversationBuilder().inbound("How do I get in?").reply(draft).build()
    assert run_check(conversation, "no_access_code_to_prospect").outcome is Outcome.PASS


def test_a_resident_may_get_the_code() -> None:
    conversation = ConversationBuilder(role="resident").inbound("Gate code?").reply("It is 4821.").build()
    result = run_check(conversation, "no_access_code_to_prospect")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)


def test_not_checked_without_codes_on_file_or_a_trigger() -> None:
    no_codes = ConversationBuilder(facts={"access_codes": []}).inbound("Code?").reply("It is 4821.").build()
    no_trigger = ConversationBuilder().reply("Welcome! Gate code 4821.").build()
    assert run_check(no_codes, "no_access_code_to_prospect").outcome is Outcome.NOT_CHECKED
    assert run_check(no_trigger, "no_access_code_to_prospect").outcome is Outcome.NOT_CHECKED


@pytest.mark.parametrize(
    "draft",
    [
        "Call the office at 555-2580 any time.",  # a phone number is one token holding the digits
        "The gate is at 2580-B Main St.",
        "Total due: $2,580.00.",
    ],
)
def test_a_code_inside_a_longer_token_is_not_the_code(draft: str) -> None:
    conversation = (
        ConversationBuilder(facts={"access_codes": ["2580"]}).inbound("How do I get in?").reply(draft).build()
    )
    assert run_check(conversation, "no_access_code_to_prospect").outcome is Outcome.PASS


def test_the_evidence_names_the_rule_and_never_the_code() -> None:
    conversation = (
        ConversationBuilder(facts={"access_codes": ["2580", "A7#9"]})
        .inbound("Code?")
        .reply("Call 555-2580, then key 2580 or a7#9.")
        .build()
    )
    result = run_check(conversation, "no_access_code_to_prospect")
    assert result.outcome is Outcome.FAIL
    assert [(e.span, e.rule_entry) for e in result.evidence] == [
        (Span(start=24, end=28), "access_code.whole_token"),
        (Span(start=32, end=36), "access_code.whole_token"),
    ]
    dumped = result.model_dump_json()
    assert "2580" not in dumped and "A7#9" not in dumped


def test_many_codes_on_file_are_matched_by_identity() -> None:
    codes = [f"{n:06d}" for n in range(50_000)]
    conversation = (
        ConversationBuilder(facts={"access_codes": codes})
        .inbound("Code?")
        .reply("Ring 049999 at the gate; our phone is 555-000123.")
        .build()
    )
    result = run_check(conversation, "no_access_code_to_prospect")
    assert [e.detail for e in result.evidence] == ["access code ••99 sent to a prospect"]
