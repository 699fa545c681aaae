"""What every command needs: the settings (read once, here) and a store on a migrated database."""

from __future__ import annotations

from functools import cache

from gradecore.db import create_db_engine, require_migrated
from gradecore.store import Store
from smith.settings import Settings


@cache
def settings() -> Settings:
    return Settings()


def open_store(*, migrated: bool = True) -> Store:
    """A store on the configured database; refuses an unmigrated one unless told otherwise."""
    engine = create_db_engine(settings().database_url)
    if migrated:
        require_migrated(engine)
    return Store(engine)
