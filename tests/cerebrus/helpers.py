"""Running one check through the real engine, and asserting receipts, for cerebrus tests."""

from __future__ import annotations

from cerebrus import CheckRegistry, Rules, default_registry, grade
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import DimensionResult, Outcome


def run_check(
    conversation: Conversation, check_id: str, rules: Rules | None = None, turn: int = 0
) -> DimensionResult:
    """One check's result through `grade` with a registry of just that check (turn checks: on `turn`)."""
    spec = default_registry().get(check_id)
    graded = grade(conversation, rules=rules, registry=CheckRegistry([spec]))
    dimensions = graded.dimensions if spec.scope.value == "conversation" else graded.turns[turn].dimensions
    (result,) = [d for d in dimensions if d.check == check_id]
    assert_receipts_exact(conversation, result)
    return result


def assert_receipts_exact(conversation: Conversation, result: DimensionResult) -> None:
    """Every quote is the draft exactly at its span, and every failure has a receipt."""
    if result.outcome is Outcome.FAIL:
        assert result.evidence, f"{result.check} failed without evidence"
    for evidence in result.evidence:
        if evidence.quote is not None:
            assert evidence.span is not None and evidence.message_id is not None
            text = conversation.message(evidence.message_id).text
            assert text[evidence.span.start : evidence.span.end] == evidence.quote


def quotes(result: DimensionResult) -> list[str]:
    return [e.quote for e in result.evidence if e.quote is not None]
