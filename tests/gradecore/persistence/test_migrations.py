"""Migrations: an empty database upgrades to head on both backends, and the ORM models match it exactly."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Engine, Integer, MetaData, inspect, text
from sqlmodel import SQLModel

from gradecore.persistence.db import (
    DatabaseError,
    NotMigrated,
    create_db_engine,
    current_revision,
    head_revision,
    require_migrated,
    upgrade,
)


def _diff(engine: Engine, metadata: MetaData) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))


def test_upgrade_from_empty_reaches_head(empty_engine: Engine) -> None:
    assert current_revision(empty_engine) is None
    upgrade(empty_engine)
    assert current_revision(empty_engine) == head_revision()
    tables = set(inspect(empty_engine).get_table_names())
    assert set(SQLModel.metadata.tables) <= tables
    assert len(SQLModel.metadata.tables) >= 12  # every table of docs/storage.md
    assert "alembic_version" in tables


def test_upgrade_twice_is_a_no_op(engine: Engine) -> None:
    upgrade(engine)
    assert current_revision(engine) == head_revision()


def test_models_match_the_migrated_schema(engine: Engine) -> None:
    assert _diff(engine, SQLModel.metadata) == []


def test_the_schema_comparison_would_notice_a_drift(engine: Engine) -> None:
    """Guards the test above: a model column with no migration must show up as a difference."""
    drifted = MetaData()
    for table in SQLModel.metadata.tables.values():
        table.to_metadata(drifted)
    drifted.tables["users"].append_column(Column("shoe_size", Integer, nullable=True))
    differences = _diff(engine, drifted)
    assert len(differences) == 1
    assert "shoe_size" in repr(differences[0])


def test_require_migrated_refuses_an_empty_database(empty_engine: Engine) -> None:
    with pytest.raises(NotMigrated) as caught:
        require_migrated(empty_engine)
    assert "smith db upgrade" in str(caught.value)
    assert "empty" in str(caught.value)


def test_require_migrated_refuses_an_outdated_database(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0000old'"))
    with pytest.raises(NotMigrated) as caught:
        require_migrated(engine)
    assert "0000old" in str(caught.value)
    assert "smith db upgrade" in str(caught.value)


def test_require_migrated_accepts_head(engine: Engine) -> None:
    require_migrated(engine)


def test_an_unreachable_database_is_one_clear_error() -> None:
    engine = create_db_engine("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")
    with pytest.raises(DatabaseError) as caught:
        current_revision(engine)
    assert str(caught.value).startswith("cannot reach the database")
    assert "\n" not in str(caught.value)


def test_an_invalid_url_is_one_clear_error() -> None:
    with pytest.raises(DatabaseError, match="invalid database URL"):
        create_db_engine("nonsense://")
