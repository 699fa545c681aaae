"""Turn check: the final model call finished its answer instead of running out of tokens."""

from __future__ import annotations

from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope


@check(layer=Layer.SHAPE, scope=Scope.TURN, level=Level.BLOCK)
def not_truncated(view: TurnView) -> Finding:
    """The final claude_call stopped with max_tokens."""
    final = view.final_call
    if final is None:
        return data_missing("The trace has no claude_call.")
    index, call = final
    if call.stop_reason == "max_tokens":
        return failed(
            "truncated",
            "The reply was cut off: the model ran out of output tokens.",
            Evidence(turn_id=view.turn.id, step_index=index, detail="stop_reason max_tokens"),
        )
    return passed("complete", f"The final model call ended with {call.stop_reason}.")
