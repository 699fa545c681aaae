"""Turning dimension results into the parts of a grade: headline level, headline, ownership split, scope.

The headline level is the worst colouring level, never an average. Headline tie-break (the stated
order): among the dimensions at the headline level, conversation scope comes before turn scope, then
the lower turn number, then the fixed layer order truth, context, tools, shape, handoff, loop,
output, pacing, tone, then the check id alphabetically.

The engine feeds every dimension once through a `GradeAssembly` (one pass gives a place's headline
level and accumulates what the scope statement and the ownership split need).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from cerebrus.construct import new_headline
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
# Levels by severity rank and back: comparing ints avoids Level's Python-level __gt__ in hot loops.
_LEVELS: tuple[Level, ...] = (Level.PASS, Level.REPAIR, Level.HOLD, Level.BLOCK)
_RANK = {level: rank for rank, level in enumerate(_LEVELS)}

CLEAN = Reason(slug="clean", sentence="Every check that ran passed.")
CLEAN_HEADLINE = Headline(level=Level.PASS, reason=CLEAN)


def _within_order(dimension: DimensionResult) -> tuple[int, str]:
    return (LAYER_RANK[dimension.layer], dimension.check)


class GradeAssembly:
    """What a grade needs from all its dimensions, gathered in the one pass that gives each headline level:
    which checks ran, why the others did not (first reason seen), and the failed layers per owner."""

    __slots__ = ("_failed", "_ran", "_taken", "_why")

    def __init__(self) -> None:
        # Placements already taken in, by identity (held, so an identity is not reused meanwhile):
        # taking one in again adds nothing to the sets below, so only its lead is looked at.
        self._taken: dict[int, _Placement] = {}
        self._ran: set[str] = set()
        self._why: dict[str, NotCheckedWhy] = {}
        self._failed: dict[Owner, set[Layer]] = {Owner.CLARA: set(), Owner.OURS: set()}

    def place(self, dimensions: Iterable[DimensionResult], turn_id: str | None) -> tuple[Level, Headline]:
        """Take in one place's dimensions (one turn, or conversation scope, in grade order) and return
        their headline level and headline (the worst colouring dimension, ties by layer order then id)."""
        placement = _placement(tuple(dimensions))
        return self._take(placement, placement.dimensions, turn_id)

    def place_shared(
        self, dimensions: tuple[DimensionResult, ...], turn_id: str | None
    ) -> tuple[Level, Headline]:
        """`place` for dimensions that are all shared results (built once, handed out again and
        again): most turns get the very same results as many others, so what they add up to is
        worked out once and found again by the results' identities."""
        return self._place_by_key(dimensions, tuple(map(id, dimensions)), turn_id)

    def place_mixed(
        self, dimensions: tuple[DimensionResult, ...], own: Iterable[int], turn_id: str | None
    ) -> tuple[Level, Headline]:
        """`place` for dimensions of which only a few (at the positions `own`: results with receipts,
        built for this place) are not shared results. Where a placement is worked out, an own result
        counts only by what `_own_key` keeps of it (not its reason or receipts), so it stands in the
        key by that: the place is found again as `place_shared` finds one, and the headline takes
        its reason from the result that leads here."""
        key: list[object] = list(map(id, dimensions))
        for position in own:
            key[position] = _own_key(dimensions[position])
        return self._place_by_key(dimensions, tuple(key), turn_id)

    def _place_by_key(
        self, dimensions: tuple[DimensionResult, ...], key: tuple[object, ...], turn_id: str | None
    ) -> tuple[Level, Headline]:
        placement = _PLACED.get(key)
        if placement is None:
            placement = _placement(dimensions)
            if len(_PLACED) >= _PLACED_LIMIT:
                _PLACED.clear()
            _PLACED[key] = placement
        return self._take(placement, dimensions, turn_id)

    def _take(
        self, placement: _Placement, dimensions: tuple[DimensionResult, ...], turn_id: str | None
    ) -> tuple[Level, Headline]:
        """Take a place in (its placement once per grade, however many places share it) and give its
        level and headline, the lead read from the place's own `dimensions`."""
        if self._taken.get(id(placement)) is not placement:
            self._absorb(placement)
        return _headline(placement, dimensions, turn_id)

    def _absorb(self, placement: _Placement) -> None:
        """Add a placement not taken in yet to the assembly: its checks run, reasons and failed layers."""
        self._taken[id(placement)] = placement
        self._ran.update(placement.ran)
        setdefault = self._why.setdefault
        for check, reason in placement.why:
            setdefault(check, reason)  # the first reason seen stays
        if placement.failed:
            failed = self._failed
            for owner, layer in placement.failed:
                failed[owner].add(layer)

    def split(self) -> OwnershipSplit:
        return _split(_in_layer_order(self._failed[Owner.CLARA]), _in_layer_order(self._failed[Owner.OURS]))

    def scope(self, ordered_ids: tuple[str, ...], judge_on: bool) -> ScopeStatement:
        # Grades of one deployment share a handful of scope statements: keyed by what decides one.
        return _scope(ordered_ids, frozenset(self._ran), tuple(self._why.items()), judge_on)


class _Placement(NamedTuple):
    """What one place's dimensions add to a grade: headline level, the dimension that leads it (None when
    nothing coloured it), the checks that ran, why the others did not (first reason per check, in
    the order seen) and the failed (owner, layer) pairs. `dimensions` keeps the dimensions alive
    while their identities key the placement, so no other object can take one of their ids."""

    dimensions: tuple[DimensionResult, ...]
    level: Level
    at: int | None  # the position of the result that leads (None: nothing colours the place)
    ran: frozenset[str]
    why: tuple[tuple[str, NotCheckedWhy], ...]
    failed: tuple[tuple[Owner, Layer], ...]


def _placement(dimensions: tuple[DimensionResult, ...]) -> _Placement:
    # Names bound locally and ints compared, not Levels: this runs for every dimension it is asked for.
    rank = _RANK
    not_checked, clean, not_applicable = Outcome.NOT_CHECKED, Level.PASS, NotCheckedWhy.NOT_APPLICABLE
    ran: set[str] = set()
    why: dict[str, NotCheckedWhy] = {}
    failed: dict[tuple[Owner, Layer], None] = {}
    found = 0
    lead: DimensionResult | None = None
    at: int | None = None
    for position, d in enumerate(dimensions):
        if d.outcome is not_checked:
            if d.check not in why:
                why[d.check] = d.not_checked_why or not_applicable
        else:
            ran.add(d.check)
        if d.colours_verdict and d.level is not clean:
            failed[(d.owner, d.layer)] = None
            severity = rank[d.level]
            # Strictly better only: on a tie the first one seen stays, as min() would keep it.
            if (
                lead is None
                or severity > found
                or (severity == found and _within_order(d) < _within_order(lead))
            ):
                found, lead, at = severity, d, position
    return _Placement(dimensions, _LEVELS[found], at, frozenset(ran), tuple(why.items()), tuple(failed))


def _headline(
    placement: _Placement, dimensions: tuple[DimensionResult, ...], turn_id: str | None
) -> tuple[Level, Headline]:
    """A place's level and headline. The lead is read from `dimensions`, the place's own results, not
    from the cached placement's: a place found again by its key has the same lead position, but a
    result with receipts there carries this place's reason."""
    if placement.at is None:
        return Level.PASS, CLEAN_HEADLINE
    lead = dimensions[placement.at]
    level = placement.level
    fields = {"level": level, "reason": lead.reason, "check": lead.check, "turn_id": turn_id}
    return level, new_headline(fields)


def _own_key(d: DimensionResult) -> tuple[object, ...]:
    """All that `_placement` reads of a result: its check, outcome, why, colouring, level, owner and
    layer. Enum members stand by identity (hashing one calls Python; a member is never freed), and
    any other value is held alive by the placement cached under the key, which keeps its
    dimensions, so its identity is not reused meanwhile."""
    return (
        d.check,
        id(d.outcome),
        id(d.not_checked_why),
        d.colours_verdict,
        id(d.level),
        id(d.owner),
        id(d.layer),
    )


# Bounded: shared results are few per deployment, but a rules change or a long-lived process may
# bring new ones; starting afresh is always correct (a placement is recomputed on a miss).
# Keyed by the results' identities, or for results of a place's own by `_own_key` (see
# GradeAssembly.place_mixed): a tuple of ints never equals one holding tuples, so they cannot clash.
_PLACED: dict[tuple[object, ...], _Placement] = {}
_PLACED_LIMIT = 4096


def _in_layer_order(layers: set[Layer]) -> tuple[Layer, ...]:
    return tuple(sorted(layers, key=LAYER_RANK.__getitem__)) if layers else ()


# Grades of one deployment share a handful of splits and scope statements: each is built once.
@lru_cache(maxsize=1024)
def _split(clara: tuple[Layer, ...], ours: tuple[Layer, ...]) -> OwnershipSplit:
    return OwnershipSplit(clara=clara, ours=ours)


@lru_cache(maxsize=1024)
def _scope(
    ordered_ids: tuple[str, ...],
    ran: frozenset[str],
    why: tuple[tuple[str, NotCheckedWhy], ...],
    judge_on: bool,
) -> ScopeStatement:
    """Checks that ran somewhere, then those that ran nowhere with the first reason seen, in order."""
    reasons = dict(why)
    return ScopeStatement(
        checks_run=tuple(check for check in ordered_ids if check in ran),
        not_checked=tuple(
            NotChecked(check=check, why=reasons[check])
            for check in ordered_ids
            if check not in ran and check in reasons
        ),
        judge_lane="on" if judge_on else "off",
    )
