"""What the CLI tests share: a migrated database made once per module, copied into each test's
directory (migrating it again for every test would be most of the suite's time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.smith.cli.runner import copy_database, migrated_template


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def workdir(tmp_path: Path, template: Path) -> Path:
    """A test's own directory, holding a copy of the migrated database."""
    copy_database(template, tmp_path)
    return tmp_path
