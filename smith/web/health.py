"""`/healthz` (the process is up) and `/readyz` (database reachable, schema current, relay alive).

`/readyz` answers within a few seconds whatever the database does: a stalled database is reported as
a problem (503), and probes never pile up threads waiting on it — while one check is still waiting,
the next probes say so instead of starting another.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta

from aiohttp import web

from gradecore.persistence.db import DatabaseError, require_migrated
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store
from smith.outbox import Relay

ChannelCheck = Callable[[], Awaitable[list[str]]]
_RELAY_STALE = timedelta(seconds=60)
PROBE_DEADLINE_SECONDS = 3.0


@dataclass(frozen=True)
class DatabaseState:
    problem: str | None
    parked_events: int
    parked_verdicts: int = 0
    properties_without_channel: tuple[str, ...] = ()  # they get no posts and no tally


class DatabaseProbe:
    """One database check at a time, in a thread of its own, awaited for at most `deadline` seconds."""

    def __init__(self, store: Store, *, deadline: float = PROBE_DEADLINE_SECONDS) -> None:
        self._store = store
        self._deadline = deadline
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="smith-readyz")
        self._running: Future[DatabaseState] | None = None

    async def state(self) -> DatabaseState:
        if self._running is not None and not self._running.done():
            return DatabaseState("the database has not answered the previous readiness check", 0)
        self._running = self._executor.submit(self._check)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(self._running), timeout=self._deadline)
        except TimeoutError:
            return DatabaseState(f"the database did not answer within {self._deadline:g} s", 0)

    def _check(self) -> DatabaseState:
        try:
            require_migrated(self._store.engine)
            with self._store.unit() as unit:
                unmapped = tuple(p.id for p in unit.properties.list() if p.slack_channel_id is None)
                return DatabaseState(None, unit.inbox.parked_count(), unit.fixtures.parked_count(), unmapped)
        except DatabaseError as exc:
            return DatabaseState(str(exc), 0)
        except Exception as exc:  # a timeout or a dropped connection: one line, not a traceback
            return DatabaseState(f"the database check failed: {type(exc).__name__}", 0)


async def handle_healthz(_request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


def make_readyz_handler(
    store: Store,
    relay: Relay | None,
    channels_not_joined: ChannelCheck | None = None,
    *,
    deadline: float = PROBE_DEADLINE_SECONDS,
) -> Callable[[web.Request], Awaitable[web.Response]]:
    probe = DatabaseProbe(store, deadline=deadline)

    async def handle_readyz(_request: web.Request) -> web.Response:
        problems: dict[str, str] = {}
        database = await probe.state()
        if database.problem is not None:
            problems["database"] = database.problem
        if relay is not None and (relay.last_tick is None or utcnow() - relay.last_tick > _RELAY_STALE):
            problems["relay"] = "the outbox relay has not run in the last minute"
        body: dict[str, object] = {
            "status": "ok" if not problems else "unavailable",
            "problems": problems,
            # Reported, not fatal: events given up on after repeated failures, each with its error.
            "inbox_parked": database.parked_events,
            # Likewise: verdicts the nightly sweep set aside after repeated failures (the Fixture ledger).
            "sweep_parked": database.parked_verdicts,
            # Reported, not fatal: a property with no channel gets no posts and no tally (issue 23).
            "properties_without_channel": list(database.properties_without_channel),
        }
        if channels_not_joined is not None and database.problem is None:
            # Reported, not fatal: posts there fail loudly instead. Left out when Slack is slow to say.
            with contextlib.suppress(TimeoutError):
                body["channels_not_joined"] = await asyncio.wait_for(channels_not_joined(), timeout=deadline)
        return web.json_response(body, status=200 if not problems else 503)

    return handle_readyz
