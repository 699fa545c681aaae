"""Turn check: Clara's agent loop made progress: bounded iterations, no call repeating an answer it
already had, no call retried over and over while it keeps failing. One retry after an error is
progress-seeking, not a loop."""

from __future__ import annotations

import json

from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

PROGRESSED = passed(
    "loop_progressed", "The loop stayed within its iterations and repeated no call it had an answer to."
)

FAILED_CALLS_FOR_A_LOOP = 3

ITERATIONS_ENTRY = "loop.max_iterations"
REDUNDANT_ENTRY = "loop.redundant_call"
REPEATED_FAILURE_ENTRY = "loop.repeated_failure"


@check(layer=Layer.LOOP, scope=Scope.TURN, level=Level.REPAIR)
def loop_progress(view: TurnView) -> Finding:
    """More than max_iterations claude_call steps; or a tool called with identical input after an
    earlier successful identical call (redundant); or three or more calls with identical input that
    all failed."""
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
                rule_entry=ITERATIONS_ENTRY,
            )
        )
    tools = view.tool_steps
    # Only a tool called twice can repeat a call: most turns call each tool once at most.
    if len(tools) > 1 and len({step.tool_name for _, step in tools}) < len(tools):
        answered: dict[tuple[str, str], int] = {}
        failures: dict[tuple[str, str], list[int]] = {}
        for index, step in tools:
            # Inputs are JSON values: canonical JSON makes key order irrelevant.
            call = (step.tool_name, json.dumps(step.input, sort_keys=True))
            if call in answered:
                evidence.append(
                    Evidence(
                        turn_id=view.turn.id,
                        step_index=index,
                        tool_name=step.tool_name,
                        detail=f"same input as step {answered[call]}, which had already succeeded",
                        rule_entry=REDUNDANT_ENTRY,
                    )
                )
            if step.status == "success":
                answered.setdefault(call, index)
            else:
                failures.setdefault(call, []).append(index)
        for call, failed_at in failures.items():
            # "All failed": identical calls that got an answer in the end were retries that worked.
            if len(failed_at) >= FAILED_CALLS_FOR_A_LOOP and call not in answered:
                tool_name = call[0]
                evidence.append(
                    Evidence(
                        turn_id=view.turn.id,
                        step_index=failed_at[FAILED_CALLS_FOR_A_LOOP - 1],
                        tool_name=tool_name,
                        detail=f"the same failing call made {len(failed_at)} times "
                        f"(steps {', '.join(map(str, failed_at))})",
                        rule_entry=REPEATED_FAILURE_ENTRY,
                    )
                )
    if evidence:
        return failed("loop_stalled", "Clara's loop went round without making progress.", *evidence)
    return PROGRESSED
