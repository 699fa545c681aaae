"""Forcing a race between two replicas on PostgreSQL, rather than hoping for one.

Replica A does its write and keeps its transaction open; `replica.run_blocked(work)` starts replica B's
work in a thread and returns once PostgreSQL shows B waiting on a lock (A's row); A then commits, and
`.result()` is what B's work returned, or its exception raised again.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from sqlalchemy import Engine, text

from gradecore.persistence.db import create_db_engine
from gradecore.persistence.store import Store

T = TypeVar("T")
WAIT_SECONDS = 60.0  # generous: only a broken test ever waits this long


@dataclass
class Blocked(Generic[T]):
    """Replica B's work, running in its own thread."""

    thread: threading.Thread
    outcome: list[T | BaseException] = field(default_factory=list)

    def result(self) -> T:
        self.thread.join(WAIT_SECONDS)
        assert not self.thread.is_alive(), "replica B never finished"
        found = self.outcome[0]
        if isinstance(found, BaseException):
            raise AssertionError(f"replica B failed: {found!r}") from found
        return found


@dataclass(frozen=True)
class Replica:
    """A second engine on the same database, named so that its lock waits can be seen."""

    store: Store
    name: str
    observer: Engine  # A's engine, to look at pg_stat_activity while A's transaction is open

    def waiting_on_a_lock(self) -> bool:
        with self.observer.connect() as connection:
            waiting = connection.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE application_name = :name AND wait_event_type = 'Lock'"
                ),
                {"name": self.name},
            ).scalar_one()
        return bool(waiting)

    def run_blocked(self, work: Callable[[Store], T]) -> Blocked[T]:
        """Start `work` on this replica; return once it waits on a lock the caller holds."""
        blocked: Blocked[T] = Blocked(threading.Thread(target=lambda: self._run(work, blocked)))
        blocked.thread.start()
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.waiting_on_a_lock():
            assert blocked.thread.is_alive(), f"B finished without waiting on A's lock: {blocked.outcome!r}"
            assert time.monotonic() < deadline, "B never waited on A's lock"
            time.sleep(0.05)
        return blocked

    def _run(self, work: Callable[[Store], T], blocked: Blocked[T]) -> None:
        try:
            blocked.outcome.append(work(self.store))
        except BaseException as exc:  # raised again by Blocked.result
            blocked.outcome.append(exc)


@contextmanager
def second_replica(engine: Engine) -> Iterator[Replica]:
    name = f"replica_b_{uuid.uuid4().hex[:10]}"
    url = engine.url.update_query_dict({"application_name": name})
    second = create_db_engine(url.render_as_string(hide_password=False))
    try:
        yield Replica(Store(second), name, engine)
    finally:
        second.dispose()
