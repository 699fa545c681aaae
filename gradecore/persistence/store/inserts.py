"""`INSERT … ON CONFLICT DO NOTHING`, on both backends: a row two writers create at once is created once.

Read-then-insert races: two replicas handed the same new conversation both find nothing and both
insert, and the second fails on the unique key. Inserting with ON CONFLICT DO NOTHING makes the second
insert a no-op instead (PostgreSQL waits for the first writer's transaction to end, then skips), after
which the row is read like any existing one.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Insert, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, SQLModel


def insert_if_absent(session: Session, row: SQLModel) -> bool:
    """Insert `row` unless one with the same key exists; True when this call inserted it.

    The row is written with Core, not added to the session: read it back with `session.get` (and
    `populate_existing=True` if the session may already hold an older copy).
    """
    table: Table = row.__table__  # type: ignore[attr-defined]
    values: dict[str, Any] = {column.name: getattr(row, column.name) for column in table.columns}
    statement: Insert
    if session.get_bind().dialect.name == "postgresql":
        statement = postgresql.insert(table).values(values).on_conflict_do_nothing()
    else:
        statement = sqlite.insert(table).values(values).on_conflict_do_nothing()
    # RETURNING says whether a row was written; the driver's rowcount is not reliable here (-1).
    returned = session.connection().execute(statement.returning(*table.primary_key.columns))
    return returned.first() is not None
