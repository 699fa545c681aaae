"""A sweep that crashes part-way, then runs again: every fixture exists exactly once, with the same
bytes a sweep that never crashed writes, and exactly one ledger row each (docs/jobs.md: "a crash mid-sweep
loses and duplicates nothing")."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import smith.sweep.job as sweep_job
from gradecore.persistence.store import Store
from smith.sweep.job import run_sweep
from tests.scenarios.sweep_world import files_under, record_every_kind
from tests.scheduling.world import fixtures


class Crash(BaseException):
    """The process dying (a deploy, an OOM kill) at a chosen point.

    Not an Exception: the sweep survives any error of one verdict, but nothing survives a kill.
    """


def crash_after_file_written(monkeypatch: pytest.MonkeyPatch, writes: int) -> None:
    """The `writes`-th file reaches the disk, then the process dies before its ledger row."""
    real = sweep_job._write_atomically
    done = Counter[str]()

    def write(path: Path, content: bytes) -> None:
        real(path, content)
        done["files"] += 1
        if done["files"] == writes:
            raise Crash(f"killed after writing {path.name}")

    monkeypatch.setattr(sweep_job, "_write_atomically", write)


def crash_mid_write(monkeypatch: pytest.MonkeyPatch, writes: int) -> None:
    """The `writes`-th file's temporary is on disk but the rename never happens."""
    real_replace = os.replace
    done = Counter[str]()

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        done["renames"] += 1
        if done["renames"] == writes:
            raise Crash(f"killed before renaming {os.fspath(source)}")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)  # the module smith.sweep.job calls it through


@pytest.mark.parametrize("crash", [crash_after_file_written, crash_mid_write], ids=lambda f: f.__name__)
@pytest.mark.parametrize("writes", [1, 3])
def test_a_crash_then_a_rerun_makes_each_fixture_exactly_once(
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    crash: Callable[[pytest.MonkeyPatch, int], None],
    writes: int,
) -> None:
    swept = record_every_kind(store)
    out = tmp_path / "fixtures"

    with monkeypatch.context() as patched:
        crash(patched, writes)
        with pytest.raises(Crash):
            run_sweep(store, out)
    in_ledger = len(fixtures(store))
    assert in_ledger == writes - 1  # the crashing fixture's row was never committed
    left_behind = files_under(out)

    report = run_sweep(store, out)  # the next night (or the next tick)
    assert report.total == len(swept.sweepable) - in_ledger
    assert report.refused == []

    rows = fixtures(store)
    assert sorted(row.verdict_id for row in rows) == sorted(swept.sweepable)  # each exactly once
    files = files_under(out)
    assert sorted(files) == sorted(row.path for row in rows if row.path)  # no temporaries, no extras
    assert Counter(path.split("/")[0] for path in files) == {"grader": 2, "clara": 1, "ours": 1}
    for path, content in left_behind.items():
        if path in files:
            assert files[path] == content  # rewritten with the very same bytes
    for row in rows:
        if row.path and row.path.endswith(".json"):
            assert row.content_hash == hashlib.sha256(files[row.path]).hexdigest()

    # The same verdicts swept by a sweep that never crashed give byte-identical files.
    with store.unit() as unit:
        clean = {
            draft.relpath: draft.content
            for draft in (
                sweep_job.draft_fixture(unit, verdict)
                for verdict in unit.verdicts.after_id(0)
                if verdict.id in swept.sweepable
            )
        }
    assert files == clean
