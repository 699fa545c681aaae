"""Reaction and message events: recorded durably before the ack, processed right after it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext

from handlers.services import ListenerServices

Next = Callable[[], Awaitable[None]]


def record_in_inbox(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    """Listener middleware (not global): one insert keyed by event_id, before Bolt acks the event."""

    async def inbox_middleware(body: dict[str, Any], context: AsyncBoltContext, next: Next) -> None:
        event_id = str(body.get("event_id") or "")
        kind = str((body.get("event") or {}).get("type", "unknown"))
        context["inbox_new"] = bool(event_id) and await services.inbox.record(event_id, kind, body)
        context["inbox_event_id"] = event_id
        await next()

    return inbox_middleware


def handle_event(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_slack_event(body: dict[str, Any], context: AsyncBoltContext) -> None:
        # Bolt has already acked (events are auto-acknowledged); a retry of a recorded event is a no-op.
        if not context.get("inbox_new"):
            return
        # The payload just recorded travels along: processing need not read the inbox row back.
        kind = str((body.get("event") or {}).get("type", "unknown"))
        # Not awaited here: the request's objects are freed now rather than held while the event
        # waits its turn (a burst of held requests makes the garbage collector pause every ack).
        services.in_background(
            services.processor.process(str(context["inbox_event_id"]), kind=kind, payload=body)
        )

    return handle_slack_event
