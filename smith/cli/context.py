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
    from gradecore.persistence.store import Store
    from smith.ingest import Ingestor
    from smith.settings import Settings


_starting = False


def collect_after_startup() -> None:
    """Called by `main()`, whose process runs one command and exits (not by tests running commands in
    theirs): the cyclic collector is off while the command loads its modules, and `startup_over` turns
    it back on. A database command spent a fifth of its start-up in collections that walked, again and
    again, objects (modules, classes, SQLAlchemy's caches) that all live until the process exits."""
    global _starting
    _starting = True
    gc.disable()


def startup_over() -> None:
    """The heap loaded so far lives as long as the process: frozen, the collector (on again) never walks
    it, and a command reading many rows collects in milliseconds. Once per `smith` process; a no-op in
    any other. The first `settings()` calls it (`serve` reads its settings there too)."""
    global _starting
    if _starting:
        _starting = False
        gc.freeze()
        gc.enable()


@cache
def settings() -> Settings:
    """The settings, read once. A command reads them when its imports are done and its work begins:
    that is where start-up ends (`startup_over`)."""
    from smith.settings import load_settings

    current = load_settings()
    startup_over()
    return current


def open_database(*, migrated: bool = True) -> Engine:
    """An engine on the configured database; refuses an unmigrated one unless told otherwise.

    SQLAlchemy Core only: a command that reads through `gradecore.persistence.listings` never loads the
    ORM."""
    from gradecore.persistence.db import create_db_engine, require_migrated

    engine = create_db_engine(settings().database_url, timeouts=settings().database_timeouts)
    if migrated:
        require_migrated(engine, named=True)
    return engine


def open_store(*, migrated: bool = True) -> Store:
    """A store (the ORM's repositories) on the configured database, refused unmigrated as above."""
    from gradecore.persistence.store import Store

    return Store(open_database(migrated=migrated))


@cache
def rules() -> Rules:
    """The effective rules: code defaults, overridden by SMITH_RULES_FILE when set."""
    from smith.wiring import effective_rules

    return effective_rules(settings())


def ingestor(store: Store) -> Ingestor:
    from smith.wiring import build_ingestor

    return build_ingestor(settings(), store, rules())
