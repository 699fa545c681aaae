"""Issue 25, point 4: long jobs show a bar only on a terminal, end with a one-line summary, and Ctrl-C
ends them with one line saying what was done and that a rerun continues (exit 130); tables in a pipe
are plain tab-separated lines, never a table wrapped to one word per cell."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.table import Table

import smith.cli.ingest
from smith.cli.output import Interrupted, plain_lines, progress
from tests.gradecore.docs import demo_doc
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import reading, run_smith


def _two_then_ctrl_c() -> None:
    with progress("Ingesting", 5, unit="documents") as advance:
        advance()
        advance()
        raise KeyboardInterrupt


def test_ctrl_c_in_a_job_says_what_was_done_and_what_a_rerun_does() -> None:
    with pytest.raises(Interrupted) as caught:
        _two_then_ctrl_c()
    assert str(caught.value) == "interrupted after 2 of 5 documents: a rerun continues"


def _batch(folder: Path, count: int) -> Path:
    lines = []
    for number in range(count):
        doc = demo_doc()
        doc["conversation_id"] = f"batch-{number:03d}"
        lines.append(json.dumps(doc))
    path = folder / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_ctrl_c_during_ingest_is_one_line_and_exit_130(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C arrives while the third document is stored: two are kept, the line says so."""
    real = smith.cli.ingest._ingest_document
    calls = 0

    def interrupted_on_the_third(document: Any, ingest_one: Callable[..., Any]) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(document, ingest_one)

    monkeypatch.setattr(smith.cli.ingest, "_ingest_document", interrupted_on_the_third)
    result = run_in_process(workdir, "ingest", str(_batch(workdir, 5)))
    assert result.code == 130
    assert result.error_lines == [
        "smith: interrupted after 2 of 5 documents: what was stored is kept; rerun the same command to "
        "continue (stored documents are skipped)"
    ]
    with reading(workdir) as unit:
        assert unit.conversations.get("batch-001") is not None
        assert unit.conversations.get("batch-002") is None
    monkeypatch.undo()
    rerun = run_in_process(workdir, "ingest", str(_batch(workdir, 5)))
    assert rerun.code == 0, rerun.stderr
    assert rerun.stdout.splitlines()[-1] == "5 documents: 3 new · 2 unchanged"


def test_several_documents_end_with_a_one_line_summary(workdir: Path) -> None:
    result = run_in_process(workdir, "ingest", str(_batch(workdir, 3)))
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "3 documents: 3 new"


def test_a_table_in_a_pipe_is_tab_separated() -> None:
    grid = Table("check", "reason", title="Rules people disagree with")
    grid.add_row("promises_backed", "a reason long enough\tto wrap\nover lines")
    assert plain_lines(grid) == [
        "# Rules people disagree with",
        "check\treason",
        "promises_backed\ta reason long enough to wrap over lines",
    ]


def test_listings_in_a_pipe_have_one_line_per_row(workdir: Path) -> None:
    for number in range(3):
        added = run_in_process(
            workdir, "users", "add", f"person{number}@example.test", "--name", f"Person {number}"
        )
        assert added.code == 0, added.stderr
    result = run_smith(workdir, "users", "list", env={"COLUMNS": "80"})  # stdout is a pipe
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split("\t") == ["email", "name", "role", "active", "slack"]
    assert len(lines) == 1 + 3
    assert all(len(line.split("\t")) == len(lines[0].split("\t")) for line in lines)
