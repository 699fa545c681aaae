"""Database engines and migrations: SQLite as the embedded default, PostgreSQL (psycopg 3) in production.

The app and the CLI refuse to run on a database that is not at the migration head; `smith db upgrade`
brings it there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

_MIGRATIONS = Path(__file__).with_name("migrations")


class DatabaseError(Exception):
    """A database problem a user can act on, in one line."""


class NotMigrated(DatabaseError):
    def __init__(self, current: str | None, head: str) -> None:
        state = "empty" if current is None else f"at revision {current}"
        super().__init__(f"the database is {state}, not at {head}: run `smith db upgrade`")


def create_db_engine(url: str, *, echo: bool = False) -> Engine:
    """An engine with the per-backend settings the store relies on."""
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        return create_engine(url, echo=echo, pool_pre_ping=True, pool_size=10, max_overflow=20)
    except (ArgumentError, NoSuchModuleError, ImportError):
        # ImportError: a known dialect whose driver Smith does not ship (mysql://, oracle://…).
        raise DatabaseError(f"invalid database URL: {_unsupported(url)}") from None


def _unsupported(url: str) -> str:
    # Only the scheme is repeated: the rest of a URL may hold a password.
    supported = "use sqlite:///path/to/smith.db or postgresql+psycopg://user@host/db"
    if "://" not in url:
        return f"it has no scheme; {supported}"
    return f"{url.split('://', 1)[0]} is not supported; {supported}"


def _sqlite_pragmas(dbapi_connection: Any, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the relay's writer
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    # configparser interpolates "%", which URL-encoded options contain.
    config.set_main_option(
        "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
    )
    return config


def head_revision() -> str:
    head = ScriptDirectory(str(_MIGRATIONS)).get_current_head()
    assert head is not None, "no migrations shipped"
    return head


def current_revision(engine: Engine) -> str | None:
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    except OperationalError as exc:
        raise DatabaseError(f"cannot reach the database: {_first_line(exc)}") from None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate to `revision` (the head by default)."""
    config = _alembic_config(engine)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    except OperationalError as exc:
        raise DatabaseError(f"cannot migrate the database: {_first_line(exc)}") from None


def require_migrated(engine: Engine) -> None:
    """Refuse to run on an unmigrated or outdated database."""
    current, head = current_revision(engine), head_revision()
    if current != head:
        raise NotMigrated(current, head)


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__
