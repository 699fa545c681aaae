"""What the CLI tests share: a working directory holding a copy of the run's migrated database
(tests/conftest.py `migrated_sqlite`: migrating again for every test would be most of their time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.smith.cli.runner import copy_database


@pytest.fixture
def workdir(tmp_path: Path, migrated_sqlite: Path) -> Path:
    """A test's own directory, holding a copy of the migrated database."""
    copy_database(migrated_sqlite, tmp_path)
    return tmp_path
