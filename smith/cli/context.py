"""What every command needs: the settings (read once, here), the rules, and a store on a migrated database.

Each import sits in the function that needs it: a command pays only for what it uses, and `--help`
for none of it (docs/operations.md, command start-up).
"""

from __future__ import annotations

import gc
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from cerebrus import Rules
    from gradecore.store import Store
    from smith.ingest import Ingestor
    from smith.settings import Settings


_freeze_heap = False


def freeze_heap_once_started() -> None:
    """Called by `main()`, whose process runs one command and exits (not by tests running commands in
    theirs): once the store is open, the heap loaded so far is frozen (see `open_store`)."""
    global _freeze_heap
    _freeze_heap = True


@cache
def settings() -> Settings:
    from smith.settings import Settings

    return Settings()


def open_database(*, migrated: bool = True) -> Engine:
    """An engine on the configured database; refuses an unmigrated one unless told otherwise.

    SQLAlchemy Core only: a command that reads through `gradecore.listings` never loads the ORM."""
    from gradecore.db import create_db_engine, require_migrated

    engine = create_db_engine(settings().database_url, timeouts=settings().database_timeouts)
    if migrated:
        require_migrated(engine)
    if _freeze_heap:
        # Start-up is over: the modules, models and caches loaded so far live as long as the process, so
        # the cyclic collector stops scanning them; a command reading many rows then collects in
        # milliseconds instead of walking the whole start-up heap on every full collection.
        gc.freeze()
    return engine


def open_store(*, migrated: bool = True) -> Store:
    """A store (the ORM's repositories) on the configured database, refused unmigrated as above."""
    from gradecore.store import Store

    engine = open_database(migrated=migrated)
    store = Store(engine)
    if _freeze_heap:
        gc.freeze()  # again: the entity classes the store loaded are start-up heap too
    return store


@cache
def rules() -> Rules:
    """The effective rules: code defaults, overridden by SMITH_RULES_FILE when set."""
    from smith.wiring import effective_rules

    return effective_rules(settings())


def ingestor(store: Store) -> Ingestor:
    from smith.wiring import build_ingestor

    return build_ingestor(settings(), store, rules())
