"""What every command needs: the settings (read once, here), the rules, and a store on a migrated database."""

from __future__ import annotations

from functools import cache

from cerebrus import Rules
from gradecore.db import create_db_engine, require_migrated
from gradecore.store import Store
from smith.ingest import Ingestor
from smith.settings import Settings
from smith.wiring import build_ingestor, effective_rules


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
    return effective_rules(settings())


def ingestor(store: Store) -> Ingestor:
    return build_ingestor(settings(), store, rules())
