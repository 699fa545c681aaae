"""Turning dimension results into the parts of a grade: headline, ownership split, scope statement.

Headline tie-break (the stated order): among the dimensions at the verdict's level, conversation
scope comes before turn scope, then the lower turn number, then the fixed layer order truth, context,
tools, shape, handoff, loop, output, pacing, tone, then the check id alphabetically.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gradecore.grades import Headline, NotChecked, OwnershipSplit, ScopeStatement
from gradecore.vocabulary import DimensionResult, Layer, Level, NotCheckedWhy, Outcome, Owner, Reason

LAYER_ORDER: tuple[Layer, ...] = (
    Layer.TRUTH,
    Layer.CONTEXT,
    Layer.TOOLS,
    Layer.SHAPE,
    Layer.HANDOFF,
    Layer.LOOP,
    Layer.OUTPUT,
    Layer.PACING,
    Layer.TONE,
)
LAYER_RANK = {layer: rank for rank, layer in enumerate(LAYER_ORDER)}

CLEAN = Reason(slug="clean", sentence="Every check that ran passed.")

Placed = tuple[int, str | None, DimensionResult]
"""A dimension with where it sits: turn number (0 for conversation scope) and turn id."""


def headline_order(item: Placed) -> tuple[int, int, str]:
    number, _, dimension = item
    return (number, LAYER_RANK[dimension.layer], dimension.check)


def verdict(dimensions: Iterable[DimensionResult]) -> Level:
    """The worst colouring level: never an average."""
    # Same as gradecore's worst(colouring levels), without a key function per dimension (hot path).
    found = Level.PASS
    for d in dimensions:
        if d.colours_verdict and d.level is not Level.PASS and d.level > found:
            found = d.level
    return found


def headline(placed: Sequence[Placed], level: Level) -> Headline:
    """The worst colouring dimension's level and reason, ties broken by the stated order; `level` is
    the verdict of `placed` (the caller has it already)."""
    if level is Level.PASS:
        return Headline(level=Level.PASS, reason=CLEAN)
    candidates = [item for item in placed if item[2].colouring_level is level]
    _, turn_id, first = min(candidates, key=headline_order)
    return Headline(level=level, reason=first.reason, check=first.check, turn_id=turn_id)


def ownership_split(dimensions: Iterable[DimensionResult]) -> OwnershipSplit:
    """Which layers failed (and coloured the verdict) for Clara and for us, in layer order."""
    failed: dict[Owner, set[Layer]] = {Owner.CLARA: set(), Owner.OURS: set()}
    for dimension in dimensions:
        if dimension.colours_verdict and dimension.colouring_level is not Level.PASS:
            failed[dimension.owner].add(dimension.layer)
    return OwnershipSplit(
        clara=tuple(sorted(failed[Owner.CLARA], key=LAYER_RANK.__getitem__)),
        ours=tuple(sorted(failed[Owner.OURS], key=LAYER_RANK.__getitem__)),
    )


def scope_statement(
    ordered_ids: Sequence[str], dimensions: Iterable[DimensionResult], judge_on: bool
) -> ScopeStatement:
    """Checks that ran somewhere in the conversation, and those that ran nowhere, with why."""
    ran: set[str] = set()
    why: dict[str, NotCheckedWhy] = {}
    for dimension in dimensions:
        if dimension.outcome is Outcome.NOT_CHECKED:
            why.setdefault(dimension.check, dimension.not_checked_why or NotCheckedWhy.NOT_APPLICABLE)
        else:
            ran.add(dimension.check)
    return ScopeStatement(
        checks_run=tuple(check for check in ordered_ids if check in ran),
        not_checked=tuple(
            NotChecked(check=check, why=why[check])
            for check in ordered_ids
            if check not in ran and check in why
        ),
        judge_lane="on" if judge_on else "off",
    )
