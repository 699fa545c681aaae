"""Shortcuts for results with receipts give exactly what the plain computation gives.

Turn and conversation grades assembled from parts the engine built, a receipt's result built from
its check's template, a place with receipts found again by what placing reads of them, and one
ledger shared by every conversation with the same amounts: each is checked against the
straightforward formulation.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from pydantic import BaseModel

from cerebrus import Rules, grade
from cerebrus.assemble import GradeAssembly
from cerebrus.construct import new_conversation_grade, new_dimension, new_turn_grade, with_receipts
from cerebrus.findings import Finding, failed, reason
from cerebrus.registry import default_registry
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade, OwnershipSplit, ScopeStatement, TurnGrade
from gradecore.model.vocabulary import DimensionResult, Evidence, Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check
from tests.cerebrus.strategies import conversations
from tests.profiles import examples


def _validated(result: DimensionResult) -> DimensionResult:
    return new_dimension({name: getattr(result, name) for name in result.model_fields_set})


def _assert_same(built: DimensionResult | None, expected: DimensionResult) -> None:
    assert built is not None
    assert type(built) is DimensionResult
    assert built == expected
    assert built.model_fields_set == expected.model_fields_set
    assert built.model_dump_json() == expected.model_dump_json()


@settings(max_examples=examples(60))
@given(conversations())
def test_a_receipt_from_a_template_is_the_validated_receipt(conversation: Conversation) -> None:
    graded = grade(conversation)
    receipted = [d for d in graded.all_dimensions() if d.evidence]
    for result in receipted:
        _assert_same(result, _validated(result))
        # Any other receipted result of the same check and outcome serves as the template.
        for template in receipted:
            if (template.check, template.outcome, template.not_checked_why) == (
                result.check,
                result.outcome,
                result.not_checked_why,
            ):
                _assert_same(with_receipts(template, result.reason, result.evidence), result)


class _OddEvidence(Evidence):
    pass


def test_receipts_not_exactly_as_validated_are_left_to_validation() -> None:
    template = run_check(ConversationBuilder().inbound("Hi?").reply("Hello").build(), "followup_exists")
    assert template.evidence
    receipt = template.evidence[0]
    odd = _OddEvidence(detail="odd")
    assert with_receipts(template, template.reason, list(template.evidence)) is None  # type: ignore[arg-type]
    assert with_receipts(template, template.reason, (receipt, odd)) is None
    assert with_receipts(template, {"slug": "x", "sentence": "y"}, (receipt,)) is None  # type: ignore[arg-type]


def test_a_finding_whose_outcome_is_no_enum_member_is_validated_as_given() -> None:
    # "fail" validates to Outcome.FAIL, but the level of a failure is given for Outcome.FAIL itself:
    # such a finding must not take the failure template's level.
    spec = default_registry().get("tools_succeeded")
    receipt = Evidence(detail="x")
    assert spec.result(failed("broken", "Broken.", receipt)).level is spec.level
    odd = Finding("fail", reason("broken", "Broken."), (receipt,))  # type: ignore[arg-type]
    result = spec.result(odd)
    assert result.outcome is Outcome.FAIL
    assert result == _validated(result)
    assert result.level == spec._result(odd).level


def test_a_shared_ledger_still_reads_each_conversations_labels() -> None:
    # The same amounts under two label sets, graded in turn: the ledger is shared by amounts, the
    # pairing of an amount with an item follows each grade's rules.
    relabelled = Rules.model_validate({"amount_labels": {"rent_2br": ["two-bed"]}})
    conversation = ConversationBuilder().inbound("Rent?").reply("The two-bed is $45.").build()
    for _ in range(2):
        plain = run_check(conversation, "amounts_match_ledger")
        paired = run_check(conversation, "amounts_match_ledger", rules=relabelled)
        assert plain.outcome is Outcome.PASS
        assert [e.rule_entry for e in paired.evidence] == ["amounts.wrong_item:rent_2br"]


def test_a_shared_ledger_gives_each_conversation_its_own_receipts() -> None:
    # Equal ledgers written apart (0.0 and -0.0 are one cent value, so they share a ledger): a
    # receipt quotes the conversation's own amount.
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


def _state(tally: GradeAssembly) -> tuple[OwnershipSplit, ScopeStatement]:
    return tally.split(), tally.scope(("followup_exists", "mandated_tools_called"), judge_on=False)


def test_the_same_places_in_another_order_keep_their_own_first_reason() -> None:
    first = run_check(ConversationBuilder().inbound("Hi?").reply("Hello").build(), "mandated_tools_called")
    second = first.model_copy(update={"not_checked_why": "data_missing"})
    for order in ((first, second), (second, first), (first, second)):
        plain, shared = GradeAssembly(), GradeAssembly()
        for result in order:
            plain.place((result,), None)
            shared.place_shared((result,), None)
        assert _state(shared) == _state(plain)
        assert _state(shared)[1].not_checked[0].why == order[0].not_checked_why


@settings(max_examples=examples(60))
@given(conversations())
def test_a_place_with_receipts_found_again_is_the_placement(conversation: Conversation) -> None:
    # Each turn placed plainly and with its receipted results as its own, twice over (the second
    # time found again): the headlines, split and scope must be the plain ones.
    graded = grade(conversation)
    plain, mixed, again = GradeAssembly(), GradeAssembly(), GradeAssembly()
    for turn in graded.turns:
        dims = tuple(turn.dimensions)
        own = [position for position, d in enumerate(dims) if d.evidence]
        expected = plain.place(dims, turn.turn_id)
        assert mixed.place_mixed(dims, own, turn.turn_id) == expected
        assert again.place_mixed(dims, own, turn.turn_id) == expected
        assert (turn.level, turn.headline) == expected
    assert _state(mixed) == _state(plain) == _state(again)


@pytest.mark.parametrize("model", [DimensionResult, TurnGrade, ConversationGrade])
def test_assembled_models_hold_nothing_but_their_fields(model: type[BaseModel]) -> None:
    # What construct._assembled leaves unset (no extra fields, no private attributes) must be so.
    assert model.model_config.get("extra") == "forbid"
    assert not model.__private_attributes__
    # Assembly skips validation: a validator added to one of these models would never run on the
    # grades the engine builds. Adding one means construct.py validates that model again.
    decorators = model.__pydantic_decorators__
    assert not (decorators.model_validators or decorators.field_validators or decorators.validators), model


@settings(max_examples=examples(60))
@given(conversations())
def test_assembled_grades_are_their_validated_twins(conversation: Conversation) -> None:
    graded = grade(conversation)
    pairs: list[tuple[BaseModel, BaseModel]] = [
        (turn, new_turn_grade({name: getattr(turn, name) for name in turn.model_fields_set}))
        for turn in graded.turns
    ]
    pairs.append(
        (graded, new_conversation_grade({name: getattr(graded, name) for name in graded.model_fields_set}))
    )
    for assembled, validated in pairs:
        assert type(assembled) is type(validated)
        assert assembled == validated
        assert list(assembled.__dict__.items()) == list(validated.__dict__.items())
        assert assembled.model_fields_set == validated.model_fields_set
        assert assembled.model_dump_json() == validated.model_dump_json()
