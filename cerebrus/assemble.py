"""Turning dimension results into the parts of a grade: headline level, headline, ownership split, scope.

The headline level is the worst colouring level, never an average. Headline tie-break (the stated
order): among the dimensions at the headline level, conversation scope comes before turn scope, then
the lower turn number, then the fixed layer order truth, context, tools, shape, handoff, loop,
output, pacing, tone, then the check id alphabetically.

The engine feeds every place's dimensions (conversation scope, then each turn) once through a
`GradeAssembly`: one pass gives the place's headline and gathers what the scope statement and the
ownership split need.
"""

from __future__ import annotations

from collections.abc import Iterable

from gradecore.model.grades import Headline, NotChecked, OwnershipSplit, ScopeStatement
from gradecore.model.vocabulary import DimensionResult, Layer, Level, NotCheckedWhy, Outcome, Owner, Reason

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
CLEAN_HEADLINE = Headline(level=Level.PASS, reason=CLEAN)


def _headline_order(dimension: DimensionResult) -> tuple[int, int, str]:
    """The stated order within a place: the most severe first, then layer order, then the check id."""
    return (-dimension.level.rank, LAYER_RANK[dimension.layer], dimension.check)


class GradeAssembly:
    """What a grade needs from all its dimensions, gathered in the one pass that gives each place's
    headline: which checks ran, why the others did not (first reason seen), and the failed layers per
    owner."""

    def __init__(self) -> None:
        self._ran: set[str] = set()
        self._why: dict[str, NotCheckedWhy] = {}
        self._failed: dict[Owner, set[Layer]] = {Owner.CLARA: set(), Owner.OURS: set()}

    def place(self, dimensions: Iterable[DimensionResult], turn_id: str | None) -> tuple[Level, Headline]:
        """Take in one place's dimensions (one turn, or conversation scope, in grade order) and return
        their headline level and headline (the worst colouring dimension, ties by layer order then id)."""
        coloured: list[DimensionResult] = []
        for d in dimensions:
            if d.outcome is Outcome.NOT_CHECKED:
                self._why.setdefault(d.check, d.not_checked_why or NotCheckedWhy.NOT_APPLICABLE)
            else:
                self._ran.add(d.check)
            if d.colours_verdict and d.level is not Level.PASS:
                self._failed[d.owner].add(d.layer)
                coloured.append(d)
        if not coloured:
            return Level.PASS, CLEAN_HEADLINE
        lead = min(coloured, key=_headline_order)  # on a full tie, the first one seen
        return lead.level, Headline(level=lead.level, reason=lead.reason, check=lead.check, turn_id=turn_id)

    def split(self) -> OwnershipSplit:
        return OwnershipSplit(
            clara=_in_layer_order(self._failed[Owner.CLARA]), ours=_in_layer_order(self._failed[Owner.OURS])
        )

    def scope(self, ordered_ids: Iterable[str], judge_on: bool) -> ScopeStatement:
        """Checks that ran somewhere, then those that ran nowhere with the first reason seen, in order."""
        ordered = tuple(ordered_ids)
        return ScopeStatement(
            checks_run=tuple(check for check in ordered if check in self._ran),
            not_checked=tuple(
                NotChecked(check=check, why=self._why[check])
                for check in ordered
                if check not in self._ran and check in self._why
            ),
            judge_lane="on" if judge_on else "off",
        )


def _in_layer_order(layers: set[Layer]) -> tuple[Layer, ...]:
    return tuple(sorted(layers, key=LAYER_RANK.__getitem__))
