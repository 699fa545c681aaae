"""Agreement between humans and the machine: share agreeing, Cohen's κ, the per-group table
(docs/verdicts.md)."""

from __future__ import annotations

import random

import pytest

from gradecore.model.vocabulary import Level
from smith.reports.agreement import (
    AgreementAct,
    AgreementRow,
    LevelPair,
    agreement_table,
    agreement_table_from_counts,
    cohen_kappa,
    confusion_matrix,
    share_agreeing,
)

P, R, H, B = Level.PASS, Level.REPAIR, Level.HOLD, Level.BLOCK

# Hand-computed table, rows = expected (human), columns = machine, n = 20:
#
#              pass  repair  hold  block | row
#     pass       5      1      0     0   |  6
#     repair     1      3      1     0   |  5
#     hold       0      1      4     1   |  6
#     block      0      0      1     2   |  3
#     column     6      5      6     3   | 20
#
# 4 levels: po = (5+3+4+2)/20 = 14/20 = 0.70
#           pe = (6·6 + 5·5 + 6·6 + 3·3)/20² = 106/400 = 0.265
#           κ  = (0.70 − 0.265)/(1 − 0.265) = 0.435/0.735 = 29/49 ≈ 0.5918
# binary:   pass row [5, 1], not-pass row [1 (repair→pass), 13]; columns 6, 14
#           po = 18/20 = 0.90, pe = (6·6 + 14·14)/400 = 232/400 = 0.58
#           κ  = (0.90 − 0.58)/(1 − 0.58) = 0.32/0.42 = 16/21 ≈ 0.7619
TABLE: dict[tuple[Level, Level], int] = {
    (P, P): 5, (P, R): 1,
    (R, P): 1, (R, R): 3, (R, H): 1,
    (H, R): 1, (H, H): 4, (H, B): 1,
    (B, H): 1, (B, B): 2,
}  # fmt: skip
PAIRS: list[LevelPair] = [pair for pair, count in TABLE.items() for _ in range(count)]


def test_confusion_matrix_counts_expected_by_machine() -> None:
    assert confusion_matrix(PAIRS) == {
        "pass": {"pass": 5, "repair": 1, "hold": 0, "block": 0},
        "repair": {"pass": 1, "repair": 3, "hold": 1, "block": 0},
        "hold": {"pass": 0, "repair": 1, "hold": 4, "block": 1},
        "block": {"pass": 0, "repair": 0, "hold": 1, "block": 2},
    }
    assert confusion_matrix(PAIRS, binary=True) == {
        "pass": {"pass": 5, "not_pass": 1},
        "not_pass": {"pass": 1, "not_pass": 13},
    }


def test_kappa_matches_the_hand_computation() -> None:
    assert cohen_kappa(PAIRS) == pytest.approx(29 / 49)
    assert share_agreeing(PAIRS) == pytest.approx(0.70)


def test_binary_kappa_collapses_to_pass_and_not_pass() -> None:
    assert cohen_kappa(PAIRS, binary=True) == pytest.approx(16 / 21)
    # Disagreeing only among the not-pass levels is full agreement once collapsed.
    among_failures = [(R, H), (H, B), (B, R), (P, P)]
    assert cohen_kappa(among_failures, binary=True) == 1.0
    assert cohen_kappa(among_failures) == 0.0  # po = 1/4 = pe


def test_perfect_agreement_is_one() -> None:
    pairs = [(level, level) for level in (P, R, H, B, B, P)]
    assert cohen_kappa(pairs) == 1.0
    assert cohen_kappa(pairs, binary=True) == 1.0
    assert share_agreeing(pairs) == 1.0


def test_one_category_on_both_sides_is_one_by_convention() -> None:
    # pe = 1 makes κ 0/0; agreeing on every pair reports 1.0.
    assert cohen_kappa([(H, H)] * 3) == 1.0
    assert cohen_kappa([(R, H), (B, H)], binary=True) == 1.0


def test_chance_level_agreement_is_zero() -> None:
    every_combination = [(expected, machine) for expected in Level for machine in Level]
    assert cohen_kappa(every_combination) == 0.0
    assert share_agreeing(every_combination) == 0.25


def test_independent_raters_are_near_zero() -> None:
    rng = random.Random(20241130)
    levels = list(Level)
    pairs = [(rng.choice(levels), rng.choice(levels)) for _ in range(4000)]
    kappa = cohen_kappa(pairs)
    assert kappa is not None and abs(kappa) < 0.05


def test_systematic_disagreement_is_negative() -> None:
    assert cohen_kappa([(P, B), (B, P)]) == -1.0


def test_no_pairs_is_undefined() -> None:
    assert cohen_kappa([]) is None
    assert cohen_kappa([], binary=True) is None
    assert share_agreeing([]) is None


def _act(expected: Level, machine: Level, grader: str, check: str = "tone") -> AgreementAct:
    return AgreementAct(
        expected, machine, grader=grader, check=check, property="camellia", period="2024-11-30"
    )


def test_agreement_table_groups_by_the_chosen_key() -> None:
    acts = [
        _act(P, P, "maria", "tone"),
        _act(B, B, "maria", "no_access_code_to_prospect"),
        _act(P, H, "maria", "tone"),
        _act(H, H, "maria", "pacing"),
        _act(R, R, "ana", "tone"),
        _act(B, R, "ana", "tone"),
    ]
    # maria: 3 of 4 agree; po = 3/4, marginals expected {P2,B1,H1} machine {P1,B1,H2},
    # pe = (2·1 + 1·1 + 1·2)/16 = 5/16, κ = (3/4 − 5/16)/(1 − 5/16) = 7/11.
    # binary: expected [P2, N2], machine [P1, N3], po = 3/4, pe = (2 + 6)/16 = 1/2, κ = 1/2.
    # ana: machine said repair both times (one category), expected {R, B}: po = 1/2, pe = 1/2, κ = 0;
    # binary: both sides all not-pass, agreeing on both → 1.0 by convention.
    assert agreement_table(acts, by="grader") == [
        AgreementRow(key="ana", n=2, share_agreeing=0.5, kappa=0.0, kappa_binary=1.0, kappa_n=2),
        AgreementRow(key="maria", n=4, share_agreeing=0.75, kappa=7 / 11, kappa_binary=0.5, kappa_n=4),
    ]
    by_check = agreement_table(acts, by="check")
    assert [(row.key, row.n) for row in by_check] == [
        ("no_access_code_to_prospect", 1),
        ("pacing", 1),
        ("tone", 4),
    ]
    assert by_check[2].share_agreeing == 0.5
    assert [(row.key, row.n) for row in agreement_table(acts, by="property")] == [("camellia", 6)]


def test_agreement_table_of_nothing_is_empty() -> None:
    assert agreement_table([], by="check") == []


def test_a_thumbs_down_counts_in_the_share_but_not_in_kappa() -> None:
    """docs/verdicts.md: 👎 names no level; it is a disagreeing act in n and the share, outside κ."""
    pairs = {"maria": {(P, P): 2, (B, B): 1}}
    (row,) = agreement_table_from_counts(pairs, {"maria": 3})
    assert (row.n, row.kappa_n) == (6, 3)
    assert row.share_agreeing == 0.5
    assert row.kappa == agreement_table_from_counts(pairs)[0].kappa
    (only_downs,) = agreement_table_from_counts({}, {"bo": 2})
    assert (only_downs.n, only_downs.share_agreeing, only_downs.kappa, only_downs.kappa_n) == (
        2,
        0.0,
        None,
        0,
    )
