"""Under CI=true a missing labelled corpus fails the corpus test; elsewhere it is skipped, with the reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS_TEST = "tests/cerebrus/test_corpus.py"


def _pytest(ci: str | None, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env["SMITH_CORPUS_DIR"] = str(tmp_path / "no-corpus-here")
    if ci is not None:
        env["CI"] = ci
    command = [sys.executable, "-m", "pytest", CORPUS_TEST, "-q", "-rs", "-p", "no:cacheprovider"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_ci_fails_when_the_corpus_is_missing(tmp_path: Path) -> None:
    run = _pytest("true", tmp_path)
    assert run.returncode != 0
    assert "labelled corpus not found" in run.stdout


def test_elsewhere_a_missing_corpus_is_skipped_with_the_reason(tmp_path: Path) -> None:
    run = _pytest(None, tmp_path)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "SKIPPED" in run.stdout and "labelled corpus not found" in run.stdout
