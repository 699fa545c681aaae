"""Reads of what human verdicts mean (docs/verdicts.md): a window's standing acts, as agreement counts.

docs/verdicts.md: a 👎 counts. It names no level, so it is kept beside the (expected, machine) pairs: a
disagreeing act in the share, outside κ.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from gradecore.model.vocabulary import Level
from gradecore.persistence.entities import GradeVerdict
from gradecore.persistence.store import Unit, agrees_with_machine, current_acts
from gradecore.persistence.store.windows import NO_CHECK
from smith.listening.judged import judged_by_each
from smith.reports.agreement import AgreementRow, LevelPair, agreement_table_from_counts

AgreementKey = Literal["grader", "check", "property"]


@dataclass
class AgreementCounts:
    """Per group: the (expected, machine) pairs of the acts naming a level, and the 👎s."""

    pairs: dict[str, Counter[LevelPair]] = field(default_factory=dict)
    downs: Counter[str] = field(default_factory=Counter)

    def add(self, key: str, expected: Level | None, machine: Level, count: int = 1) -> None:
        if expected is None:
            self.downs[key] += count
        else:
            self.pairs.setdefault(key, Counter())[(expected, machine)] += count

    def table(self) -> list[AgreementRow]:
        return agreement_table_from_counts(self.pairs, self.downs)


def agreement_counts(unit: Unit, start: datetime, end: datetime, by: AgreementKey) -> AgreementCounts:
    """Per group, the standing acts made in [start, end) that judge a grade. The database counts them
    (docs/query-plans.md) by grader and property. By check, each act counts under every check it
    judges (smith.listening.judged: a 👎 on the parent counts against the turn's check that made the
    verdict)."""
    if by == "check":
        return _by_judged_check(unit, start, end)
    graders = {str(user.id): user.email for user in unit.users.list()} if by == "grader" else {}
    counts = AgreementCounts()
    for key, expected, machine, count in unit.windows.agreement_counts(start, end, by):
        named = None if expected is None else Level(expected)
        counts.add(graders.get(key, key), named, Level(machine), count)
    return counts


def overall(unit: Unit, start: datetime, end: datetime) -> AgreementRow | None:
    """Every standing act of the window once (by check, an act may sit in several groups)."""
    every = AgreementCounts()
    for _, expected, machine, count in unit.windows.agreement_counts(start, end, "property"):
        every.add("all", None if expected is None else Level(expected), Level(machine), count)
    return next(iter(every.table()), None)


def _judges_a_level(act: GradeVerdict) -> bool:
    machine = act.machine_grade_at_time.get("level")
    return machine is not None and agrees_with_machine(act.signal, act.expected_level, machine) is not None


def _by_judged_check(unit: Unit, start: datetime, end: datetime) -> AgreementCounts:
    standing = [act for act in current_acts(unit.verdicts.since(start, end)) if _judges_a_level(act)]
    counts = AgreementCounts()
    for act, dimensions in zip(standing, judged_by_each(unit, standing), strict=True):
        machine = Level(act.machine_grade_at_time["level"])
        expected = None if act.expected_level is None else Level(act.expected_level)
        checks = dict.fromkeys(str(d.get("check")) for d in dimensions) or {NO_CHECK: None}
        for check in checks:
            counts.add(check, expected, machine)
    return counts
