"""The correction modal's submission: Smith checks and records it before the ack (errors show in the
modal), then processes it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck

from handlers.services import ListenerServices
from smith.listening.modal import take_submission


def handle_correction_submission(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_correction_view(ack: AsyncAck, body: dict[str, Any]) -> None:
        taken = await take_submission(services.store, services.inbox, body)
        if taken.errors:
            await ack(response_action="errors", errors=taken.errors)
            return
        await ack()
        if taken.event_id is not None:
            await services.processor.process(taken.event_id, kind="view_submission", payload=body)

    return handle_correction_view
