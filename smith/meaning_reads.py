"""Reads of what human verdicts mean (docs/verdicts.md): a window's standing acts, as agreement counts."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Literal

from gradecore.store import Unit
from gradecore.vocabulary import Level
from smith.agreement import LevelPair

AgreementKey = Literal["grader", "check", "property"]


def agreement_counts(
    unit: Unit, start: datetime, end: datetime, by: AgreementKey
) -> dict[str, Counter[LevelPair]]:
    """Per group, how many of the standing acts made in [start, end) that name a level set each expected
    level against each machine level. The database counts them (docs/query-plans.md): memory is the
    number of groups, not of acts."""
    graders = {str(user.id): user.email for user in unit.users.list()} if by == "grader" else {}
    groups: dict[str, Counter[LevelPair]] = {}
    for key, expected, machine, count in unit.windows.agreement_counts(start, end, by):
        group = groups.setdefault(graders.get(key, key), Counter())
        group[(Level(expected), Level(machine))] += count
    return groups
