"""What every command needs: the settings (read once, here), the rules, and a store on a migrated database."""

from __future__ import annotations

from functools import cache

from cerebrus import Rules, load_rules
from gradecore.db import create_db_engine, require_migrated
from gradecore.store import Store
from smith.ingest import Ingestor
from smith.settings import Settings


@cache
def settings() -> Settings:
    return Settings()


def open_store(*, migrated: bool = True) -> Store:
    """A store on the configured database; refuses an unmigrated one unless told otherwise."""
    engine = create_db_engine(settings().database_url, timeouts=settings().database_timeouts)
    if migrated:
        require_migrated(engine)
    return Store(engine)


@cache
def rules() -> Rules:
    """The effective rules: code defaults, overridden by SMITH_RULES_FILE when set."""
    path = settings().rules_file
    return Rules() if path is None else load_rules(path)


def ingestor(store: Store) -> Ingestor:
    return Ingestor.from_settings(store, settings(), rules())
