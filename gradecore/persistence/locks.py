"""Per-period job locks: a PostgreSQL advisory lock, a no-op on SQLite (one process owns the file).

Held on a dedicated connection for the whole run, so a second replica's scheduler skips the period
instead of waiting; the unique JobRun row then makes any later attempt a no-op.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, text


def lock_id(key: str) -> int:
    """A stable signed 64-bit id for a lock name (what pg_advisory_lock takes)."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)


@contextmanager
def period_lock(engine: Engine, key: str) -> Iterator[bool]:
    """Yields True when this process holds the lock for `key` (always True on SQLite)."""
    if engine.dialect.name != "postgresql":
        yield True
        return
    with engine.connect() as connection:
        held = bool(
            connection.execute(text("SELECT pg_try_advisory_lock(:id)"), {"id": lock_id(key)}).scalar()
        )
        connection.commit()
        try:
            yield held
        finally:
            if held:
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": lock_id(key)})
                connection.commit()
