"""The labelled corpus (the project's copy in tests/corpus; SMITH_CORPUS_DIR overrides): every case
grades exactly as labelled in its expected.json: the failing conversation checks, the failing checks
of each turn, and the level.

Outside CI a missing corpus skips these tests with the reason; under CI=true it fails them, so CI
cannot go green without the precision it is meant to guard.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import cerebrus
from gradecore.model.contract import parse_conversation
from gradecore.model.vocabulary import Outcome

REPOSITORY = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("SMITH_CORPUS_DIR") or REPOSITORY / "tests" / "corpus")
EXPECTED = CORPUS / "expected.json"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _labels() -> dict[str, dict[str, Any]]:
    if not EXPECTED.is_file():
        return {}
    labels: dict[str, dict[str, Any]] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    return labels


LABELS = _labels()


def _missing() -> str:
    return f"labelled corpus not found at {CORPUS} (expected.json)"


@pytest.fixture
def corpus_present() -> None:
    if LABELS:
        return
    if _in_ci():
        pytest.fail(_missing())
    pytest.skip(_missing())


@pytest.mark.usefixtures("corpus_present")
@pytest.mark.parametrize("case", sorted(LABELS) or ["(no corpus)"])
def test_case_grades_as_labelled(case: str) -> None:
    label = LABELS[case]
    grade = cerebrus.grade(parse_conversation((CORPUS / case).read_bytes()))
    failing_conversation = sorted(d.check for d in grade.dimensions if d.outcome is Outcome.FAIL)
    failing_turns = {
        turn.turn_id: sorted(d.check for d in turn.dimensions if d.outcome is Outcome.FAIL)
        for turn in grade.turns
    }
    assert failing_conversation == sorted(label["conversation"])
    assert {turn: checks for turn, checks in failing_turns.items() if checks} == {
        turn: sorted(checks) for turn, checks in label["turns"].items()
    }
    assert grade.level.value == label["level"]


@pytest.mark.usefixtures("corpus_present")
def test_every_case_file_is_labelled() -> None:
    files = {path.name for path in CORPUS.glob("*.json") if path.name != EXPECTED.name}
    assert files == set(LABELS)
