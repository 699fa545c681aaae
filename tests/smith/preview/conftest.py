"""A copy of the migrated database per test, as the CLI tests have; and a way for a fixture to know,
at teardown, whether its test failed (pytest does not raise into fixtures): the browser test keeps a
screenshot of a failing page."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from tests.smith.cli.runner import copy_database

FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


@pytest.fixture
def workdir(tmp_path: Path, migrated_sqlite: Path) -> Path:
    """A directory with a migrated database, as `smith` finds it after `smith db upgrade`."""
    copy_database(migrated_sqlite, tmp_path)
    return tmp_path
