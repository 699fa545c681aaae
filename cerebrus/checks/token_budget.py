"""Turn check: the turn stayed within the token budget (a runaway context is a configuration bug)."""

from __future__ import annotations

from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

WITHIN_BUDGET = passed("within_token_budget", "The turn stayed within the token budget.")


@check(layer=Layer.SHAPE, scope=Scope.TURN, level=Level.REPAIR)
def token_budget(view: TurnView) -> Finding:
    """Input plus output tokens over all claude_call steps exceed token_budget."""
    if not view.claude_calls:
        return data_missing("The trace has no claude_call.")
    budget = view.rules.thresholds.token_budget
    total = 0
    crossed: int | None = None
    for index, call in view.claude_calls:
        total += call.input_tokens + call.output_tokens
        if crossed is None and total > budget:
            crossed = index
    if crossed is not None:
        return failed(
            "over_token_budget",
            f"The turn used {total:,} tokens; the budget is {budget:,}.",
            Evidence(turn_id=view.turn.id, step_index=crossed, detail=f"{total:,} tokens > {budget:,}"),
        )
    return WITHIN_BUDGET
