"""Shared fixtures: a migrated database on SQLite and on a real PostgreSQL, each test in a clean schema.

Under CI=true an unreachable PostgreSQL fails the run; elsewhere its half of the suite is skipped
with the reason shown, so a laptop without PostgreSQL still runs the SQLite half.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError

from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.store import Store

POSTGRES_URL = os.environ.get("SMITH_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
DEMO_DATA = Path(__file__).resolve().parents[1] / "smith" / "demo_data"


@functools.cache
def _postgres_unavailable() -> str | None:
    """Why PostgreSQL cannot be used (asked once per session), or None when it answers."""
    try:
        with create_engine(POSTGRES_URL).connect() as connection:
            connection.execute(text("SELECT 1"))
    except OperationalError as exc:
        return f"PostgreSQL unreachable at {POSTGRES_URL}: {str(exc.orig).strip().splitlines()[0]}"
    return None


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Outside CI, the PostgreSQL half is skipped (with the reason) when no PostgreSQL answers.

    Under CI=true nothing is skipped: the `postgres_admin` fixture fails those tests instead.
    """
    problem = _postgres_unavailable()
    unreachable_here = pytest.mark.skipif(
        problem is not None and not _in_ci(), reason=problem or "PostgreSQL answers"
    )
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("empty_engine") == "postgres":
            item.add_marker(unreachable_here)


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    problem = _postgres_unavailable()
    if problem is not None:
        pytest.fail(problem)  # reached only under CI=true: CI must not go green without the database
    engine = create_engine(POSTGRES_URL)
    yield engine
    engine.dispose()


def postgres_url_for(schema: str) -> str:
    joiner = "&" if "?" in POSTGRES_URL else "?"
    return f"{POSTGRES_URL}{joiner}options=-csearch_path%3D{schema}"


@pytest.fixture
def empty_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An unmigrated database: a fresh SQLite file, or a fresh PostgreSQL schema."""
    backend = getattr(request, "param", "sqlite")
    if backend == "sqlite":
        engine = create_db_engine(f"sqlite:///{tmp_path / 'smith.db'}")
        yield engine
        engine.dispose()
        return
    admin: Engine = request.getfixturevalue("postgres_admin")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine = create_db_engine(postgres_url_for(schema))
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
def engine(empty_engine: Engine) -> Engine:
    """A database migrated to head."""
    upgrade(empty_engine)
    return empty_engine


@pytest.fixture
def store(engine: Engine) -> Store:
    return Store(engine)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that touches the database runs once on SQLite and once on PostgreSQL.

    A test that parametrises `empty_engine` itself (`["postgres"]` for a PostgreSQL-only behaviour such
    as SKIP LOCKED) keeps its own choice.
    """
    chosen = any(
        "empty_engine" in _argnames(marker.args[0])
        for marker in metafunc.definition.iter_markers("parametrize")
    )
    if "empty_engine" in metafunc.fixturenames and not chosen:
        metafunc.parametrize("empty_engine", ["sqlite", "postgres"], indirect=True)


def _argnames(argnames: str | Sequence[str]) -> list[str]:
    return [name.strip() for name in argnames.split(",")] if isinstance(argnames, str) else list(argnames)


def load_demo(name: str) -> bytes:
    return (DEMO_DATA / name).read_bytes()
