"""`smith fixtures check`: re-grade every Cerebrus calibration fixture with the current engine.

The grader's own regression suite: a fixture whose grade now differs from its expected level is
reported (and the command exits 1), so a rule change that flips a human-confirmed case is seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cerebrus import Rules, grade
from gradecore.contract import ContractViolation, validate_conversation
from gradecore.vocabulary import Level
from smith.sweep.fixture_format import FixtureFormatError, load_fixture


@dataclass(frozen=True)
class FixtureResult:
    path: Path
    expected: Level | None
    actual: Level | None
    problem: str | None = None

    @property
    def agrees(self) -> bool:
        return self.problem is None and self.expected == self.actual


def fixture_paths(fixtures_dir: Path) -> list[Path]:
    return sorted((fixtures_dir / "grader").glob("*.json"))


def check_fixtures(
    fixtures_dir: Path, rules: Rules | None = None, *, on_checked: Callable[[], None] | None = None
) -> list[FixtureResult]:
    """Every grader fixture graded again; `on_checked` is called after each (a progress bar)."""
    results: list[FixtureResult] = []
    for path in fixture_paths(fixtures_dir):
        results.append(_check_one(path, rules))
        if on_checked is not None:
            on_checked()
    return results


def _check_one(path: Path, rules: Rules | None) -> FixtureResult:
    try:
        fixture = load_fixture(path)
        conversation = validate_conversation(fixture["input"])
    except (FixtureFormatError, ContractViolation) as exc:
        return FixtureResult(path, None, None, problem=str(exc))
    expected = Level(fixture["expected_level"])
    result = grade(conversation, rules=rules)
    turn_id = fixture.get("turn_id")
    if turn_id is None:
        return FixtureResult(path, expected, result.level)
    turn = next((t for t in result.turns if t.turn_id == turn_id), None)
    if turn is None:
        return FixtureResult(path, expected, None, problem=f"turn {turn_id} is not in the fixture's input")
    return FixtureResult(path, expected, turn.level)
