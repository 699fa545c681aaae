"""`smith fixtures check`: the grader's own regression suite over the sweep's calibration fixtures.

The story: the grader once missed Lampliter's unbacked promise (the rule did not exist yet), a human
corrected it to BLOCK, the sweep made that a calibration fixture. With today's rules the fixtures agree;
a rules file that removes the promise rule again flips that fixture, and the command exits 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cerebrus import load_rules
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from smith.regression_fixtures.check import check_fixtures
from smith.sweep.job import run_sweep
from tests.scheduling.world import LAMPLITER, OAKRIDGE, add_grader, demo, ingest, react

SMITH = Path(sys.executable).with_name("smith")
WITHOUT_ARRIVAL_PROMISE = """\
# The arrival-instructions promise rule, switched off (as it was before the grader learned it).
[[promises]]
id = "arrival_instructions"
enabled = false
"""
MORNING = datetime(2026, 11, 30, 15, 0, tzinfo=UTC)


def run_check(workdir: Path, fixtures_dir: Path, rules_file: Path | None) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SLACK_", "SMITH_", "ANTHROPIC_"))
    }
    env |= {"SMITH_FIXTURES_DIR": str(fixtures_dir), "COLUMNS": "200", "NO_COLOR": "1"}
    if rules_file is not None:
        env["SMITH_RULES_FILE"] = str(rules_file)
    return subprocess.run(
        [str(SMITH), "fixtures", "check"],
        cwd=workdir,  # no stray .env is read
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


# The command reads fixture files only, never the database: one backend is enough.
@pytest.mark.backends("sqlite")
def test_fixtures_check_passes_on_fresh_fixtures_and_fails_after_a_rule_change(
    store: Store, tmp_path: Path
) -> None:
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(WITHOUT_ARRIVAL_PROMISE)
    grader = add_grader(store)
    ingest(store, demo(LAMPLITER), when=MORNING, rules=load_rules(rules_file))  # graded pass: a miss
    ingest(store, demo(OAKRIDGE), when=MORNING)
    missed = react(
        store,
        demo(LAMPLITER).conversation_id,
        "correction",
        expected=Level.BLOCK,
        note="promises arrival instructions we do not have on file",
        when=MORNING,
        grader=grader,
    )
    assert (missed.error_class, missed.machine_grade_at_time["level"]) == ("grader", "pass")
    react(store, demo(OAKRIDGE).conversation_id, "up", when=MORNING, grader=grader)
    out = tmp_path / "fixtures"
    assert dict(run_sweep(store, out).written) == {"grader": 2}

    fresh = run_check(tmp_path, out, None)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert "2 of 2 calibration fixtures agree with their expected level" in fresh.stdout

    flipped = run_check(tmp_path, out, rules_file)
    assert flipped.returncode == 1, flipped.stdout + flipped.stderr
    assert "1 of 2 calibration fixtures agree" in flipped.stdout
    [failing] = [line for line in flipped.stdout.splitlines() if "✗" in line]
    assert f"v{missed.id}.json" in failing and "expected block, graded pass" in failing


@pytest.mark.backends("sqlite")
def test_check_fixtures_reports_per_fixture(store: Store, tmp_path: Path) -> None:
    grader = add_grader(store)
    ingest(store, demo(LAMPLITER), when=MORNING)
    react(store, demo(LAMPLITER).conversation_id, "up", when=MORNING, grader=grader)  # clara: not checked
    react(
        store,
        demo(LAMPLITER).conversation_id,
        "correction",
        expected=Level.HOLD,
        turn_id="t1",
        when=MORNING,
        grader=grader,
    )
    out = tmp_path / "fixtures"
    run_sweep(store, out)
    [result] = check_fixtures(out)  # only calibration (grader) fixtures are re-graded
    assert (result.expected, result.actual, result.agrees) == (Level.HOLD, Level.BLOCK, False)
    assert result.path.name.endswith(".json") and "--t1--" in result.path.name
