"""Turn check: Clara's agent loop made progress (bounded iterations, no identical tool call twice)."""

from __future__ import annotations

from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope

# The finding most turns get, built once at import (a shared finding costs nothing per call).
PROGRESSED = passed("loop_progressed", "The loop stayed within its iterations and repeated no tool call.")


@check(layer=Layer.LOOP, scope=Scope.TURN, level=Level.REPAIR)
def loop_progress(view: TurnView) -> Finding:
    """More than max_iterations claude_call steps, or the same tool called twice with identical input."""
    if not view.turn.trace.steps:
        return data_missing("The turn has no trace steps.")
    limit = view.rules.thresholds.max_iterations
    evidence: list[Evidence] = []
    calls = view.claude_calls
    if len(calls) > limit:
        evidence.append(
            Evidence(
                turn_id=view.turn.id,
                step_index=calls[limit][0],
                detail=f"{len(calls)} claude_call steps; the limit is {limit}",
            )
        )
    earlier: dict[str, list[tuple[int, object]]] = {}
    # Only a tool called twice can repeat a call: most turns call each tool once at most.
    tools = view.tool_steps
    repeats_a_tool = len(tools) > 1 and len({step.tool_name for _, step in tools}) < len(tools)
    for index, step in tools if repeats_a_tool else ():
        # Inputs are JSON values, so == is structural equality (key order does not matter).
        repeat = next((i for i, seen in earlier.get(step.tool_name, ()) if seen == step.input), None)
        if repeat is not None:
            evidence.append(
                Evidence(
                    turn_id=view.turn.id,
                    step_index=index,
                    tool_name=step.tool_name,
                    detail=f"same input as step {repeat}",
                )
            )
        earlier.setdefault(step.tool_name, []).append((index, step.input))
    if evidence:
        return failed("loop_stalled", "Clara's loop went round without making progress.", *evidence)
    return PROGRESSED
