"""Which database errors mean "unavailable" (503, retry later) and which are faults retrying won't cure."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from gradecore.persistence.db import create_db_engine
from gradecore.persistence.store.errors import database_unavailable

INSERT = "INSERT INTO principles (id, statement, status, created_at) VALUES ('p', '{}', 'on', '2026-01-01')"


def _error_of(engine: Engine, *statements: str) -> DBAPIError:
    def run() -> None:
        with engine.begin() as connection:
            for statement in statements:
                connection.execute(text(statement))

    with pytest.raises(DBAPIError) as caught:
        run()
    return caught.value


def test_an_unreachable_database_is_unavailable() -> None:
    engine = create_db_engine("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")
    try:
        assert database_unavailable(_error_of(engine, "SELECT 1"))
    finally:
        engine.dispose()


def test_a_duplicate_key_is_not_unavailability(engine: Engine) -> None:
    insert = INSERT.format("s")
    assert not database_unavailable(_error_of(engine, insert, insert))


# PostgreSQL only: SQLite does not enforce VARCHAR lengths, so there is no such error to classify.
@pytest.mark.backends("postgres")
def test_a_value_the_column_cannot_hold_is_not_unavailability(engine: Engine) -> None:
    assert not database_unavailable(_error_of(engine, INSERT.format("x" * 2000)))
