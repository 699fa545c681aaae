"""Turn check: every tool Clara called worked (a failing tool is our integration's problem)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope

from ._common import truncate

# The finding most turns get, built once at import (a shared finding costs nothing per call).
ALL_WORKED = passed("tools_worked", "Every tool call succeeded.")


@check(layer=Layer.TOOLS, scope=Scope.TURN, level=Level.HOLD)
def tools_succeeded(view: TurnView) -> Finding:
    """A tool_execution step has status error (evidence: tool name and step; the raw error, truncated,
    only in the detail)."""
    if not view.tool_steps:
        return not_applicable("Clara called no tools.")
    if view.failed_tools:
        names = ", ".join(dict.fromkeys(step.tool_name for _, step in view.failed_tools))
        return failed(
            "tool_failed",
            f"The {names} tool failed.",
            *(
                Evidence(
                    turn_id=view.turn.id,
                    step_index=index,
                    tool_name=step.tool_name,
                    detail=truncate(step.error or "error with no message"),
                )
                for index, step in view.failed_tools
            ),
        )
    return ALL_WORKED
