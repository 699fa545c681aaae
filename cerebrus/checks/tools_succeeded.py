"""Turn check: every tool Clara called worked in the end (a failing tool is our integration's problem).

Only a tool's last call in the turn decides: a failure followed by a successful call of the same tool
is recovered. The recovered errors stay visible, one receipt each (rule entry `tools.recovered`), so
the weekly digest can count them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.contract import ToolExecutionStep
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import truncate

ALL_WORKED = passed("tools_worked", "Every tool call succeeded.")

FAILED_ENTRY = "tools.last_call_failed"
RECOVERED_ENTRY = "tools.recovered"


@check(layer=Layer.TOOLS, scope=Scope.TURN, level=Level.HOLD)
def tools_succeeded(view: TurnView) -> Finding:
    """A tool's last call in the turn ended with status error (evidence: tool name and step; the raw
    error, truncated, only in the detail). An error followed by a successful call of the same tool
    is recovered: it passes, and its receipt says "recovered after N errors"."""
    if not view.tool_steps:
        return not_applicable("Clara called no tools.")
    if not view.failed_tools:
        return ALL_WORKED
    calls: dict[str, list[tuple[int, ToolExecutionStep]]] = {}
    for index, step in view.tool_steps:
        calls.setdefault(step.tool_name, []).append((index, step))
    still_failing = [name for name, made in calls.items() if made[-1][1].status == "error"]
    if still_failing:
        last_calls = [calls[name][-1] for name in still_failing]
        return failed(
            "tool_failed",
            f"The {', '.join(still_failing)} tool failed.",
            *(
                Evidence(
                    turn_id=view.turn.id,
                    step_index=index,
                    tool_name=step.tool_name,
                    detail=truncate(step.error or "error with no message"),
                    rule_entry=FAILED_ENTRY,
                )
                for index, step in last_calls
            ),
        )
    recovered = {name: _errors(made) for name, made in calls.items() if _errors(made)}
    summary = ", ".join(f"{name} recovered after {_count(len(errors))}" for name, errors in recovered.items())
    return passed(
        "tools_recovered",
        f"Every tool's last call succeeded ({summary}).",
        *(
            Evidence(
                turn_id=view.turn.id,
                step_index=index,
                tool_name=name,
                detail=f"recovered after {_count(len(errors))}",
                rule_entry=RECOVERED_ENTRY,
            )
            for name, errors in recovered.items()
            for index in errors
        ),
    )


def _errors(made: Sequence[tuple[int, ToolExecutionStep]]) -> list[int]:
    """The step indices of a tool's failed calls."""
    return [index for index, step in made if step.status == "error"]


def _count(errors: int) -> str:
    return "1 error" if errors == 1 else f"{errors} errors"


def recovered_errors(rule_entries: Iterable[str | None]) -> int:
    """How many tool errors a tools_succeeded result records as recovered, from its receipts' rule
    entries (one receipt per recovered error): for a fresh result and for one read back from storage."""
    return sum(1 for entry in rule_entries if entry == RECOVERED_ENTRY)
