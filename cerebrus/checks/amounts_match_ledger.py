"""Turn check: every money amount Clara wrote is one the ledger or a tool actually gave her."""

from __future__ import annotations

from cerebrus.amounts import any_equal, money_in, numbers_in
from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.vocabulary import Layer, Level, Scope

from ._common import draft_evidence

# Findings most turns get, built once at import (a shared finding costs nothing per call).
NO_AMOUNT = not_applicable("The draft states no money amount.")
MATCHED = passed("amounts_match", "Every amount in the draft matches the ledger or a tool result.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.REPAIR)
def amounts_match_ledger(view: TurnView) -> Finding:
    """A money amount in the draft equals no value in facts.amounts and no number in a successful tool
    result; the span is the amount as written."""
    mentions = money_in(view.folded)
    if not mentions:
        return NO_AMOUNT
    ledger = view.parent.ledger
    tool_numbers: list[float] | None = None
    unbacked = []
    for mention in mentions:
        if any_equal(mention.value, ledger):
            continue
        if tool_numbers is None:
            tool_numbers = [n for text in view.tool_results_json for n in numbers_in(text)]
        if not any_equal(mention.value, tool_numbers):
            unbacked.append(mention)
    if unbacked:
        quoted = ", ".join(m.quote for m in unbacked)
        return failed(
            "amount_mismatch",
            f"The draft states {quoted}, which matches nothing in the ledger or a tool result.",
            *(
                draft_evidence(view, m.span, fact_key="amounts", detail=f"{m.value:g} is not on file")
                for m in unbacked
            ),
        )
    return MATCHED
