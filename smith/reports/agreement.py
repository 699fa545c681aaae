"""Agreement between the humans' expected levels and the machine's (docs/verdicts.md, `smith agreement`).

Pure functions over human acts: the share of acts agreeing with the machine, and Cohen's κ between
expected and machine level, on the four levels and collapsed to pass / not-pass. κ is what tells an
operator a judged dimension agrees with people beyond chance, before it may colour a verdict.

A pair is always (expected, machine): the human's level first. Confusion matrices are indexed the
same way, rows = expected, columns = machine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from gradecore.model.vocabulary import Level

__all__ = [
    "BINARY_CATEGORIES",
    "LEVEL_CATEGORIES",
    "AgreementAct",
    "AgreementRow",
    "GroupBy",
    "LevelPair",
    "agreement_table",
    "agreement_table_from_counts",
    "cohen_kappa",
    "confusion_matrix",
    "share_agreeing",
]

LevelPair = tuple[Level, Level]
GroupBy = Literal["grader", "check", "property", "period"]

LEVEL_CATEGORIES: tuple[str, ...] = tuple(level.value for level in sorted(Level))
BINARY_CATEGORIES: tuple[str, ...] = ("pass", "not_pass")


@dataclass(frozen=True, slots=True)
class AgreementAct:
    """One human act that names a level, with the machine level it was set against and its groups.

    `check` is the dimension the act is counted under (the targeted grade's worst dimension);
    `period` is whatever window the caller reports by (a local day, an ISO week, …).
    """

    expected_level: Level
    machine_level: Level
    grader: str
    check: str
    property: str
    period: str


@dataclass(frozen=True, slots=True)
class AgreementRow:
    """One line of `smith agreement`: a group's size, share agreeing and both κ (None: undefined).

    `n` counts every standing act that judges the grade, 👎 included (docs/verdicts.md); `share_agreeing` is
    over all of them. κ is over the acts that name a level only (a 👎 names none): `kappa_n` of them.
    """

    key: str
    n: int
    share_agreeing: float
    kappa: float | None
    kappa_binary: float | None
    kappa_n: int = 0


def _category(level: Level, binary: bool) -> str:
    if binary:
        return "pass" if level is Level.PASS else "not_pass"
    return level.value


def confusion_matrix(pairs: Iterable[LevelPair], *, binary: bool = False) -> dict[str, dict[str, int]]:
    """Counts of (expected, machine) as `matrix[expected][machine]`, every category present, zeros
    included, in severity order (`pass, repair, hold, block` or `pass, not_pass`)."""
    return _matrix(Counter(pairs), binary)


def _matrix(counted: Mapping[LevelPair, int], binary: bool) -> dict[str, dict[str, int]]:
    categories = BINARY_CATEGORIES if binary else LEVEL_CATEGORIES
    matrix = {row: dict.fromkeys(categories, 0) for row in categories}
    for (expected, machine), count in counted.items():
        matrix[_category(expected, binary)][_category(machine, binary)] += count
    return matrix


def cohen_kappa(pairs: Sequence[LevelPair], *, binary: bool = False) -> float | None:
    """Cohen's κ = (po − pe) / (1 − pe) between expected and machine levels; None without pairs.

    po is the observed share of agreement, pe the agreement expected by chance from the two
    marginals. Computed on integer counts, so κ is exact up to the final division.

    When pe = 1 (both sides used one and the same category throughout) κ is 0/0. We report 1.0 when
    they agreed on every pair (po = 1) and 0.0 otherwise; po = 1 is in fact forced by pe = 1, so a
    reader seeing κ = 1.0 on a small `n` should read "no disagreement, but nothing tested either".
    """
    return _kappa(Counter(pairs), binary)


def _kappa(counted: Mapping[LevelPair, int], binary: bool) -> float | None:
    matrix = _matrix(counted, binary)
    n = sum(sum(row.values()) for row in matrix.values())
    if n == 0:
        return None
    agreeing = sum(matrix[category][category] for category in matrix)
    column_totals = {column: sum(row[column] for row in matrix.values()) for column in matrix}
    # n² · pe: the chance agreement, kept as an integer.
    chance = sum(sum(matrix[category].values()) * column_totals[category] for category in matrix)
    if chance == n * n:
        return 1.0 if agreeing == n else 0.0
    return (n * agreeing - chance) / (n * n - chance)


def share_agreeing(pairs: Sequence[LevelPair]) -> float | None:
    """The share of pairs whose expected level equals the machine's; None without pairs."""
    return _agreeing(pairs) / len(pairs) if pairs else None


def _agreeing(pairs: Iterable[LevelPair]) -> int:
    return sum(expected == machine for expected, machine in pairs)


def agreement_table(acts: Iterable[AgreementAct], by: GroupBy) -> list[AgreementRow]:
    """One row per value of `by` (sorted by key): n, share agreeing, κ on 4 levels and on pass/not-pass.

    Groups with no acts do not appear, so every row's share is defined.
    """
    groups: dict[str, Counter[LevelPair]] = {}
    for act in acts:
        groups.setdefault(getattr(act, by), Counter())[(act.expected_level, act.machine_level)] += 1
    return agreement_table_from_counts(groups)


def agreement_table_from_counts(
    groups: Mapping[str, Mapping[LevelPair, int]], downs: Mapping[str, int] | None = None
) -> list[AgreementRow]:
    """`agreement_table` from each group's count of (expected, machine) pairs and of 👎s: what the
    database counts (`smith agreement` reads a year in a few hundred rows, whatever the number of acts).

    A 👎 names no level: it is a disagreeing act in `n` and the share, and outside κ (docs/verdicts.md)."""
    downs = downs or {}
    rows: list[AgreementRow] = []
    for key in sorted(set(groups) | {k for k, count in downs.items() if count}):
        counted = {pair: count for pair, count in groups.get(key, {}).items() if count}
        named = sum(counted.values())
        n = named + downs.get(key, 0)
        if n == 0:
            continue
        agreeing = sum(count for (expected, machine), count in counted.items() if expected == machine)
        rows.append(
            AgreementRow(
                key=key,
                n=n,
                share_agreeing=agreeing / n,
                kappa=_kappa(counted, False),
                kappa_binary=_kappa(counted, True),
                kappa_n=named,
            )
        )
    return rows
