"""Counts over a bounded window for a set of properties: graded, passing, flagged, reacted, agreeing.

Shared by the daily tally line, `/smith stats` and the weekly digest. The database counts
(gradecore.persistence.store.windows, docs/query-plans.md): two aggregate statements per window, whatever
its size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from gradecore.persistence.store import Unit
from gradecore.persistence.store.windows import WindowCounts


@dataclass(frozen=True)
class WindowStats:
    graded: int
    passed: int
    flagged: int
    reacted: int  # flagged conversations with at least one standing human act
    acts: int
    agreeing: int

    @property
    def reaction_rate(self) -> float | None:
        return None if self.flagged == 0 else self.reacted / self.flagged

    @property
    def agreement(self) -> float | None:
        return None if self.acts == 0 else self.agreeing / self.acts


_FIELDS = ("graded", "passed", "flagged", "reacted", "acts", "agreeing")


def _stats(counts: WindowCounts) -> WindowStats:
    return WindowStats(
        counts.graded, counts.passed, counts.flagged, counts.reacted, counts.acts, counts.agreeing
    )


def window_stats(
    unit: Unit, property_ids: Iterable[str], start: datetime, end: datetime, *, by_settled: bool = False
) -> WindowStats:
    """`by_settled`: the conversations that settled in the window, not those graded in it (the tally)."""
    ids = list(property_ids)
    if not ids:
        return _stats(WindowCounts())
    counts = unit.windows.window_counts(ids, start, end, by_settled=by_settled)
    return _stats(sum(counts.values(), WindowCounts()))


def total_stats(stats: Iterable[WindowStats]) -> WindowStats:
    """The stats of several properties' windows together (a conversation belongs to one property)."""
    rows = list(stats)
    return WindowStats(*(sum(getattr(row, name) for row in rows) for name in _FIELDS))


def window_stats_by_property(
    unit: Unit, property_ids: Iterable[str], start: datetime, end: datetime
) -> dict[str, WindowStats]:
    """`window_stats` of each property, in the same two statements (a conversation has one property)."""
    ids = list(property_ids)
    counts = unit.windows.window_counts(None, start, end)
    return {prop: _stats(counts.get(prop, WindowCounts())) for prop in ids}
