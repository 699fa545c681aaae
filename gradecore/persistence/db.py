"""Database engines and migrations: SQLite as the embedded default, PostgreSQL (psycopg 3) in production.

The app and the CLI refuse to run on a database that is not at the migration head; `smith db upgrade`
brings it there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

from gradecore.errors import SmithError

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic is imported only where a migration runs: a command on a migrated database does without it
# (docs/operations.md, command start-up).
_MIGRATIONS = Path(__file__).with_name("migrations")
_VERSION_TABLE = "alembic_version"
# The newest migration's revision, written down rather than read from the migration files: every command
# and every `/readyz` probe asks, and alembic's reader costs a command ~0.14 s of imports. A new
# migration updates it; tests/gradecore/persistence/test_head_revision.py fails until it is alembic's head.
HEAD_REVISION = "ingest"


class DatabaseError(SmithError):
    """A database problem a user can act on, in one line."""


class NotMigrated(DatabaseError):
    def __init__(self, current: str | None, head: str, database: str = "the database") -> None:
        state = "empty" if current is None else f"at revision {current}"
        super().__init__(f"{database} is {state}, not at {head}: run `smith db upgrade`")


def shown_url(engine: Engine) -> str:
    """The engine's URL as a person may read it: the password masked (`postgresql+psycopg://smith:***@db/smith`)."""
    return engine.url.render_as_string(hide_password=True)


# Heroku-style and libpq-style URLs name no driver; SQLAlchemy would look for psycopg2, which Smith does
# not ship. `postgres://` (no longer accepted by SQLAlchemy at all) is the same database.
_DRIVERLESS_POSTGRES = ("postgres://", "postgresql://")


def normalise_url(url: str) -> str:
    """`postgres://…` and `postgresql://…` as `postgresql+psycopg://…`; any other URL unchanged."""
    for prefix in _DRIVERLESS_POSTGRES:
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


@dataclass(frozen=True)
class DatabaseTimeouts:
    """How long the database may keep Smith waiting, so a stalled server is an error, never a hang."""

    connect_seconds: float = 5.0  # to open a connection (TCP and the server's start-up reply)
    statement_seconds: float = 30.0  # for one statement; on SQLite, also how long a write waits its turn
    lock_seconds: float = 10.0  # for a row or table lock another transaction holds


def create_db_engine(url: str, *, echo: bool = False, timeouts: DatabaseTimeouts | None = None) -> Engine:
    """An engine with the per-backend settings the store relies on, and the timeouts."""
    limits = timeouts or DatabaseTimeouts()
    url = normalise_url(url)
    try:
        if url.startswith("sqlite"):
            busy = limits.statement_seconds
            engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False, "timeout": busy})
            event.listen(engine, "connect", partial(_sqlite_pragmas, busy_ms=math.ceil(busy * 1000)))
            return engine
        connect_args = _postgresql_timeouts(url, limits) if url.startswith("postgresql") else {}
        return create_engine(
            url, echo=echo, pool_pre_ping=True, pool_size=10, max_overflow=20, connect_args=connect_args
        )
    except (ArgumentError, NoSuchModuleError, ImportError):
        # ImportError: a known dialect whose driver Smith does not ship (mysql://, oracle://…).
        raise DatabaseError(f"invalid database URL: {_unsupported(url)}") from None


def _unsupported(url: str) -> str:
    # Only the scheme is repeated: the rest of a URL may hold a password.
    supported = "use sqlite:///path/to/smith.db or postgresql+psycopg://user@host/db"
    if "://" not in url:
        return f"it has no scheme; {supported}"
    return f"{url.split('://', 1)[0]} is not supported; {supported}"


def _postgresql_timeouts(url: str, limits: DatabaseTimeouts) -> dict[str, Any]:
    """libpq parameters: a connect timeout, and server-side statement and lock timeouts.

    `options` from the URL (a search_path, say) are kept: ours are appended to them.
    """
    given = make_url(url).query.get("options", "")
    options = given if isinstance(given, str) else " ".join(given)
    statement_ms, lock_ms = math.ceil(limits.statement_seconds * 1000), math.ceil(limits.lock_seconds * 1000)
    ours = f"-c statement_timeout={statement_ms} -c lock_timeout={lock_ms}"
    return {
        # libpq counts whole seconds and treats anything under 2 as 2.
        "connect_timeout": max(2, math.ceil(limits.connect_seconds)),
        "options": f"{options} {ours}".strip(),
    }


def _sqlite_pragmas(dbapi_connection: Any, _record: object, *, busy_ms: int) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the relay's writer
    cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    cursor.close()


def _alembic_config(engine: Engine) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    # configparser interpolates "%", which URL-encoded options contain.
    config.set_main_option(
        "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
    )
    return config


def head_revision() -> str:
    """The newest migration's revision: what `require_migrated` compares a database with."""
    return HEAD_REVISION


def current_revision(engine: Engine) -> str | None:
    """The schema's migration revision, read from alembic's table directly: alembic's own reader logs
    two lines each time, and `/readyz` asks on every probe."""
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table(_VERSION_TABLE):
                return None
            revisions = connection.execute(text(f"SELECT version_num FROM {_VERSION_TABLE}")).scalars()
            found = sorted(str(revision) for revision in revisions)
    except OperationalError as exc:
        raise DatabaseError(f"cannot reach the database: {first_line(exc)}") from None
    return ",".join(found) or None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate to `revision` (the head by default)."""
    from alembic import command

    config = _alembic_config(engine)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # A migration may rewrite a large table: the per-statement deadline meant for requests
                # does not apply (the lock timeout does: a migration stuck behind traffic fails fast).
                connection.execute(text("SET LOCAL statement_timeout = 0"))
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    except OperationalError as exc:
        raise DatabaseError(f"cannot migrate the database: {first_line(exc)}") from None


def require_migrated(engine: Engine, *, named: bool = False) -> None:
    """Refuse to run on an unmigrated or outdated database. `named`: the message names the database
    (password masked) — for the person who started Smith, not for an HTTP answer such as /readyz."""
    current, head = current_revision(engine), head_revision()
    if current != head:
        raise NotMigrated(current, head, f"the database {shown_url(engine)}" if named else "the database")


def first_line(exc: BaseException) -> str:
    """A database error in one line, without the SQL or its parameters (they may hold people's text)."""
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__
