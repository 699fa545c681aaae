"""Grading with the judge lane: run the lane, then hand its results to the deterministic engine.

The engine owns the verdict; the lane only contributes `tone` and `pacing` results, so a judge can
never change a deterministic outcome.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cerebrus.judge.lane import JudgeLane
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade

if TYPE_CHECKING:
    from cerebrus.registry import CheckRegistry
    from cerebrus.rules import Rules


async def grade_with_judge(
    conversation: Conversation,
    lane: JudgeLane,
    rules: Rules | None = None,
    registry: CheckRegistry | None = None,
) -> ConversationGrade:
    """`cerebrus.engine.grade` with the judged dimensions filled in and per-turn judge usage attached.

    Which judged dimensions colour the verdict is the engine's call, from `rules.calibrated_judged`
    (its default rules when None); with rules given, the lane is told the same set so both agree.
    """
    # Imported here so the judge package stays importable on its own (and free of an import cycle).
    from cerebrus.engine import grade

    calibrated = rules.calibrated_judged if rules is not None else None
    result = await lane.judge_conversation(conversation, calibrated=calibrated)
    # `None`, not an empty mapping, tells the engine the lane is off (the post then says so).
    graded = grade(
        conversation, rules=rules, registry=registry, judged=result.judged if lane.enabled else None
    )
    if not result.usage:
        return graded
    turns = tuple(
        turn.model_copy(update={"judge_usage": result.usage[turn.turn_id]})
        if turn.turn_id in result.usage
        else turn
        for turn in graded.turns
    )
    return graded.model_copy(update={"turns": turns})
