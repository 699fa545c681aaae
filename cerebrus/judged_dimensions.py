"""The judged dimensions (tone, pacing): their one table, and how the engine places them in a grade.

The judge lane (cerebrus/judge/) scores them asynchronously; here they are named once (with their
layer and the score → level table every part of the project reads) and placed: missing ones become
`not_checked` (judge lane off), and a judged score colours the headline level only once its
dimension is marked calibrated in the rules (score → level: 0 block · 1 hold · 2 repair · 3 pass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from gradecore.model.vocabulary import (
    DimensionResult,
    Evidence,
    Kind,
    Layer,
    Level,
    NotCheckedWhy,
    Outcome,
    Owner,
    Reason,
    Scope,
)

JUDGED_LAYERS: Mapping[str, Layer] = MappingProxyType({"tone": Layer.TONE, "pacing": Layer.PACING})
"""Each judged dimension's id and its layer, in scope order."""
JUDGED_DIMENSIONS: tuple[str, ...] = tuple(JUDGED_LAYERS)
LEVEL_BY_SCORE: Mapping[int, Level] = MappingProxyType(
    {0: Level.BLOCK, 1: Level.HOLD, 2: Level.REPAIR, 3: Level.PASS}
)
"""The level a judged score (0–3) stands for."""


def judged_result(
    dimension: str,
    *,
    outcome: Outcome,
    level: Level,
    reason: Reason,
    colours_verdict: bool,
    not_checked_why: NotCheckedWhy | None = None,
    evidence: tuple[Evidence, ...] = (),
    score: int | None = None,
) -> DimensionResult:
    """A judged dimension's result; its layer, owner (Clara), kind and scope (turn) come from here."""
    return DimensionResult(
        check=dimension,
        layer=JUDGED_LAYERS[dimension],
        owner=Owner.CLARA,
        kind=Kind.JUDGED,
        scope=Scope.TURN,
        outcome=outcome,
        level=level,
        reason=reason,
        evidence=evidence,
        not_checked_why=not_checked_why,
        score=score,
        colours_verdict=colours_verdict,
    )


@lru_cache(maxsize=len(JUDGED_LAYERS))
def judge_off(dimension: str) -> DimensionResult:
    """A judged dimension the judge lane did not score."""
    return judged_result(
        dimension,
        outcome=Outcome.NOT_CHECKED,
        level=Level.PASS,
        reason=Reason(
            slug="judge_lane_off", sentence=f"The judge lane is off, so {dimension} was not judged."
        ),
        not_checked_why=NotCheckedWhy.JUDGE_OFF,
        colours_verdict=False,
    )


@lru_cache(maxsize=len(JUDGED_LAYERS))
def judge_pending(dimension: str) -> DimensionResult:
    """A judged dimension the judge lane will score after ingest (the post is edited then)."""
    return judge_off(dimension).model_copy(
        update={
            "reason": Reason(
                slug="judge_pending",
                sentence=f"The judge has not scored {dimension} yet; this post is updated when it has.",
            ),
            "not_checked_why": NotCheckedWhy.JUDGE_PENDING,
        }
    )


def place_judged(
    supplied: Sequence[DimensionResult] | None, calibrated: frozenset[str], *, pending: bool = False
) -> tuple[DimensionResult, ...]:
    """The turn's judged dimensions: what the judge supplied (levels from scores, colouring only when
    calibrated), plus `not_checked` for every judged dimension it did not supply (`judge_pending`
    while the lane's scores are still to come, else `judge_lane_off`)."""
    if not supplied:
        return _all_pending() if pending else _all_off()
    placed: list[DimensionResult] = []
    seen: set[str] = set()
    for result in supplied:
        seen.add(result.check)
        scored = result.outcome is not Outcome.NOT_CHECKED and result.score is not None
        level = LEVEL_BY_SCORE[result.score] if scored and result.score is not None else Level.PASS
        placed.append(
            result.model_copy(
                update={"level": level, "colours_verdict": scored and result.check in calibrated}
            )
        )
    placed.extend(judge_off(dimension) for dimension in JUDGED_LAYERS if dimension not in seen)
    return tuple(placed)


@lru_cache(maxsize=1)
def _all_off() -> tuple[DimensionResult, ...]:
    return tuple(judge_off(dimension) for dimension in JUDGED_LAYERS)


@lru_cache(maxsize=1)
def _all_pending() -> tuple[DimensionResult, ...]:
    return tuple(judge_pending(dimension) for dimension in JUDGED_LAYERS)
