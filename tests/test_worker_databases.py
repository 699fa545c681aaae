"""Under pytest-xdist each worker's PostgreSQL tests run in a database of their own: the job locks are
advisory locks, which PostgreSQL keeps per database, so two workers sharing one would see each other's
locks held (docs/operations.md, "The test suite")."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import Engine, make_url, text

from tests.conftest import POSTGRES_URL


@pytest.mark.backends("postgres")
def test_a_workers_database_is_its_own(engine: Engine) -> None:
    with engine.connect() as connection:
        database = connection.execute(text("SELECT current_database()")).scalar_one()
    configured = make_url(POSTGRES_URL).database
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    assert database == (configured if worker is None else f"{configured}_{worker}")
