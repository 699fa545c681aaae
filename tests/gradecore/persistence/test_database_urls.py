"""Issue 25: `postgres://` URLs (as hosting providers hand them out) are PostgreSQL, and a database that
is empty or not migrated is named in the message, its password masked."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from gradecore.persistence.db import NotMigrated, create_db_engine, normalise_url, require_migrated, shown_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://smith:pw@db:5432/smith", "postgresql+psycopg://smith:pw@db:5432/smith"),
        (
            "postgresql://smith@db/smith?sslmode=require",
            "postgresql+psycopg://smith@db/smith?sslmode=require",
        ),
        ("postgresql+psycopg://smith@db/smith", "postgresql+psycopg://smith@db/smith"),
        ("sqlite:///./smith.db", "sqlite:///./smith.db"),
    ],
)
def test_driverless_postgres_urls_use_psycopg(given: str, expected: str) -> None:
    assert normalise_url(given) == expected


def test_a_postgres_url_makes_a_psycopg_engine_with_its_password_masked() -> None:
    engine = create_db_engine("postgres://smith:s3cret@127.0.0.1:5432/smith")
    assert engine.dialect.driver == "psycopg"
    assert shown_url(engine) == "postgresql+psycopg://smith:***@127.0.0.1:5432/smith"
    assert "s3cret" not in shown_url(engine)


def test_an_empty_database_is_named_in_the_message(tmp_path: Path) -> None:
    engine = create_db_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    with pytest.raises(NotMigrated) as caught:
        require_migrated(engine, named=True)
    assert str(caught.value).startswith(f"the database sqlite:///{tmp_path / 'empty.db'} is empty, not at ")
    assert str(caught.value).endswith("run `smith db upgrade`")
    # Unnamed where the answer leaves the machine (/readyz): no host, user or path in it.
    with pytest.raises(NotMigrated) as unnamed:
        require_migrated(engine)
    assert str(unnamed.value).startswith("the database is empty, not at ")


@pytest.mark.backends("postgres")
def test_postgres_scheme_reaches_the_real_server(empty_engine: Engine) -> None:
    driverless = "postgres://" + empty_engine.url.render_as_string(hide_password=False).split("://", 1)[1]
    engine = create_db_engine(driverless)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        engine.dispose()
