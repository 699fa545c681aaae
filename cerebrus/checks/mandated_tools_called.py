"""Turn check: Clara called the tools her intent mandates (e.g. tour slots before talking tours)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import intent_table

ALL_CALLED = passed("mandated_tools_called", "Every mandated tool was called.")


@check(layer=Layer.LOOP, scope=Scope.TURN, level=Level.HOLD)
def mandated_tools_called(view: TurnView) -> Finding:
    """A tool in mandated_tools[intent] was never called."""
    mandated = intent_table(view, view.rules.mandated_tools, "mandated tools")
    if isinstance(mandated, Finding):
        return mandated
    called = {step.tool_name for _, step in view.tool_steps}
    never = [tool for tool in mandated if tool not in called]
    if not never:
        return ALL_CALLED
    return failed(
        "mandated_tool_skipped",
        f"Clara never called {', '.join(never)}, which a {view.turn.intent} requires.",
        *(Evidence(turn_id=view.turn.id, tool_name=tool, detail="never called") for tool in never),
    )
