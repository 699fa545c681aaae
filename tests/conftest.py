"""Shared fixtures: a migrated database on SQLite and on a real PostgreSQL, and the hypothesis profiles.

Migrating is most of what a database test would cost, so each run migrates once per backend and every
test starts from a copy of that migrated state:

- SQLite: the migrated file is copied into the test's own directory (`tmp_path / "smith.db"`).
- PostgreSQL: every test shares one migrated schema of this run (under pytest-xdist, one per worker, each
  worker in a database of its own: see `_worker_url`), every table emptied and every sequence restarted
  before each test. The code's own transactions, row locks and advisory locks run for real: nothing is
  wrapped in a transaction the test could not see. A test that changes the schema itself (renames a
  table, adds a constraint) is noticed after it ends — the schema's fingerprint differs — and the next
  test gets a freshly migrated schema.

Migrations themselves run from an empty database on both backends in the tests that ask for
`empty_engine` (tests/gradecore/persistence/test_migration*.py): an unmigrated SQLite file or
PostgreSQL schema.

Which backends a test runs on: a test that touches the database runs on both, unless it says otherwise
with `@pytest.mark.backends("postgres")` (a behaviour only PostgreSQL has: SKIP LOCKED, advisory locks,
lock waits between replicas) or `@pytest.mark.backends("sqlite")`. SQLite-only is for tests whose
database use is backend-neutral — the rule (docs/operations.md, "The test suite"): PostgreSQL stays for
everything whose SQL behaves differently there — locks, concurrency and races, JSON, migrations,
constraints, listings and their query plans — which is every test under tests/gradecore/ and every test
of replicas, leases, the outbox and the inbox.

Under CI=true an unreachable PostgreSQL fails the run; elsewhere its half of the suite is skipped
with the reason shown, so a laptop without PostgreSQL still runs the SQLite half.

Hypothesis runs the profile tests/profiles.py chooses: `ci` under CI=true (each property's own example
count), `dev` elsewhere (a fifth of it), or the one HYPOTHESIS_PROFILE names.
"""

from __future__ import annotations

import functools
import os
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine, MetaData, create_engine, make_url, text
from sqlalchemy.exc import OperationalError

from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.store import Store
from tests.profiles import PROFILE
from tests.races import Replica, second_replica

POSTGRES_URL = os.environ.get("SMITH_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
DEMO_DATA = Path(__file__).resolve().parents[1] / "smith" / "demo_data"
BACKENDS = ("sqlite", "postgres")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


settings.load_profile(PROFILE)


@functools.cache
def _postgres_unavailable() -> str | None:
    """Why PostgreSQL cannot be used (asked once per session), or None when it answers."""
    try:
        with create_engine(POSTGRES_URL).connect() as connection:
            connection.execute(text("SELECT 1"))
    except OperationalError as exc:
        return f"PostgreSQL unreachable at {POSTGRES_URL}: {str(exc.orig).strip().splitlines()[0]}"
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "backends(*names): the databases a test runs on (default: sqlite and postgres)"
    )


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
        if callspec is not None and callspec.params.get("backend") == "postgres":
            item.add_marker(unreachable_here)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that touches the database runs on the backends its `backends` marker names (both by
    default)."""
    if "backend" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("backends")
    chosen = marker.args if marker is not None else BACKENDS
    unknown = set(chosen) - set(BACKENDS)
    assert chosen and not unknown, f"{metafunc.definition.nodeid}: unknown backends {sorted(unknown)}"
    metafunc.parametrize("backend", list(chosen), indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database this test runs on (parametrised by `pytest_generate_tests`)."""
    return str(getattr(request, "param", "sqlite"))


@functools.cache
def _worker_url() -> str:
    """This process's PostgreSQL database: the configured one, or under pytest-xdist one per worker
    (`test_gw0`, ...), created when missing. The job locks are PostgreSQL advisory locks, which are
    per database: two workers sharing one would take each other's locks."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return POSTGRES_URL
    configured = make_url(POSTGRES_URL)
    name = f"{configured.database}_{worker}"
    server = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as connection:
            exists = text("SELECT 1 FROM pg_database WHERE datname = :name")
            if connection.execute(exists, {"name": name}).first() is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        server.dispose()
    return configured.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    problem = _postgres_unavailable()
    if problem is not None:
        pytest.fail(problem)  # reached only under CI=true: CI must not go green without the database
    engine = create_engine(_worker_url(), isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


def postgres_url_for(schema: str) -> str:
    url = _worker_url()
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options=-csearch_path%3D{schema}"


def _new_schema(admin: Engine) -> str:
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    return schema


def _drop_schema(admin: Engine, schema: str) -> None:
    with admin.connect() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
def empty_engine(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An unmigrated database: a fresh SQLite file, or a fresh PostgreSQL schema."""
    if backend == "sqlite":
        engine = create_db_engine(f"sqlite:///{tmp_path / 'smith.db'}")
        yield engine
        engine.dispose()
        return
    admin: Engine = request.getfixturevalue("postgres_admin")
    schema = _new_schema(admin)
    engine = create_db_engine(postgres_url_for(schema))
    try:
        yield engine
    finally:
        engine.dispose()
        _drop_schema(admin, schema)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per run, for tests to copy."""
    path = tmp_path_factory.mktemp("migrated") / "smith.db"
    engine = create_db_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()  # the last connection closing folds the WAL into the file: the file alone is whole
    return path


# What a test could change in the schema itself: relations, columns, constraints, triggers, and the
# migration revision. Read from pg_catalog (information_schema's views are several times slower).
_SCHEMA_FINGERPRINT = text(
    """
    SELECT md5(string_agg(item, '|' ORDER BY item)) FROM (
        SELECT format('r %s %s', relname, relkind) AS item
          FROM pg_class WHERE relnamespace = current_schema()::regnamespace
        UNION ALL
        SELECT format('a %s.%s %s %s %s', attrelid::regclass, attname, atttypid::regtype, attnotnull,
                      pg_get_expr(adbin, adrelid))
          FROM pg_attribute
          JOIN pg_class ON pg_class.oid = attrelid
          LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
          WHERE relnamespace = current_schema()::regnamespace AND attnum > 0 AND NOT attisdropped
        UNION ALL
        SELECT format('k %s %s', conname, pg_get_constraintdef(oid))
          FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
        UNION ALL
        SELECT format('t %s %s', tgrelid::regclass, tgname)
          FROM pg_trigger JOIN pg_class ON pg_class.oid = tgrelid
          WHERE NOT tgisinternal AND relnamespace = current_schema()::regnamespace
        UNION ALL
        SELECT format('v %s', version_num) FROM alembic_version
    ) AS schema_items
    """
)


@dataclass
class _MigratedSchema:
    """A PostgreSQL schema migrated to head, emptied for each test; rebuilt when a test changed it.

    Emptied by DELETE in foreign-key order and `setval`, not TRUNCATE: TRUNCATE gives each table new
    files, ten times the cost on tables this small."""

    admin: Engine
    schema: str = ""
    emptying: str = ""  # the statements that empty every table and restart every sequence
    fingerprint: str | None = None

    def build(self) -> None:
        self.schema = _new_schema(self.admin)
        engine = create_db_engine(postgres_url_for(self.schema))
        try:
            upgrade(engine)
            reflected = MetaData()
            reflected.reflect(engine)
            with engine.connect() as connection:
                sequences = connection.execute(
                    text("SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()")
                ).scalars()
                restarts = [f"SELECT setval('{name}', 1, false)" for name in sequences]
            deletes = [
                f"DELETE FROM {table.name}"
                for table in reversed(reflected.sorted_tables)
                if table.name != "alembic_version"
            ]
            self.emptying = "; ".join(["SET LOCAL synchronous_commit = off", *deletes, *restarts])
            self.fingerprint = self._fingerprint(engine)
            assert self.fingerprint is not None
        finally:
            engine.dispose()

    def _fingerprint(self, engine: Engine) -> str | None:
        """The schema's fingerprint, or None when a test dropped alembic's table."""
        with engine.connect() as connection:
            if connection.execute(text("SELECT to_regclass('alembic_version')")).scalar_one() is None:
                return None
            return str(connection.execute(_SCHEMA_FINGERPRINT).scalar_one())

    def emptied(self) -> Engine:
        """An engine on the schema with every table empty and every sequence restarted."""
        engine = create_db_engine(postgres_url_for(self.schema))
        with engine.begin() as connection:
            connection.exec_driver_sql(self.emptying)
        return engine

    def check_unchanged(self, engine: Engine) -> None:
        if self._fingerprint(engine) != self.fingerprint:
            _drop_schema(self.admin, self.schema)
            self.build()

    def drop(self) -> None:
        _drop_schema(self.admin, self.schema)


@pytest.fixture(scope="session")
def migrated_postgres(postgres_admin: Engine) -> Iterator[_MigratedSchema]:
    migrated = _MigratedSchema(postgres_admin)
    migrated.build()
    yield migrated
    migrated.drop()


@pytest.fixture
def engine(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A database migrated to head, empty: a copy of this run's migrated SQLite file, or the run's
    migrated PostgreSQL schema with its tables emptied."""
    if backend == "sqlite":
        template: Path = request.getfixturevalue("migrated_sqlite")
        shutil.copyfile(template, tmp_path / "smith.db")
        engine = create_db_engine(f"sqlite:///{tmp_path / 'smith.db'}")
        yield engine
        engine.dispose()
        return
    migrated: _MigratedSchema = request.getfixturevalue("migrated_postgres")
    engine = migrated.emptied()
    try:
        yield engine
        migrated.check_unchanged(engine)
    finally:
        engine.dispose()


@pytest.fixture
def store(engine: Engine) -> Store:
    return Store(engine)


@pytest.fixture
def replica_b(engine: Engine) -> Iterator[Replica]:
    """A second replica on the test's PostgreSQL database, for forcing races (tests/races.py)."""
    with second_replica(engine) as replica:
        yield replica


def load_demo(name: str) -> bytes:
    return (DEMO_DATA / name).read_bytes()
