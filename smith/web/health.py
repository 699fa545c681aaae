"""`/healthz` (the process is up) and `/readyz` (database reachable, schema current, relay alive)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta

from aiohttp import web

from gradecore.db import DatabaseError, NotMigrated, require_migrated
from gradecore.entities import utcnow
from gradecore.store import Store
from smith.outbox import Relay

ChannelCheck = Callable[[], Awaitable[list[str]]]
_RELAY_STALE = timedelta(seconds=60)


async def handle_healthz(_request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


def make_readyz_handler(
    store: Store, relay: Relay | None, channels_not_joined: ChannelCheck | None = None
) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def handle_readyz(_request: web.Request) -> web.Response:
        problems: dict[str, str] = {}
        try:
            await asyncio.to_thread(require_migrated, store.engine)
        except NotMigrated as exc:
            problems["database"] = str(exc)
        except DatabaseError as exc:
            problems["database"] = str(exc)
        if relay is not None and (relay.last_tick is None or utcnow() - relay.last_tick > _RELAY_STALE):
            problems["relay"] = "the outbox relay has not run in the last minute"
        body: dict[str, object] = {"status": "ok" if not problems else "unavailable", "problems": problems}
        if channels_not_joined is not None:
            missing = await channels_not_joined()
            body["channels_not_joined"] = missing  # reported, not fatal: posts there fail loudly instead
        return web.json_response(body, status=200 if not problems else 503)

    return handle_readyz
