"""The "Correct grade" button: ack, then open the modal Smith builds for the item the post shows."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from handlers.services import ListenerServices
from smith.listening.modal import correction_view_for

log = logging.getLogger(__name__)


def handle_correct_grade(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_correct_grade_button(
        ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        await ack()
        action = (body.get("actions") or [{}])[0]
        channel = str((body.get("channel") or {}).get("id", ""))
        message_ts = str(
            (body.get("container") or {}).get("message_ts") or (body.get("message") or {}).get("ts", "")
        )
        view = await correction_view_for(services.store, str(action.get("value", "")), channel, message_ts)
        if view is None:
            return
        try:
            await client.views_open(trigger_id=body["trigger_id"], view=view)
        except SlackApiError as exc:  # an expired trigger: the person just clicks again
            log.warning("views.open failed: %s", exc.response.get("error"))

    return handle_correct_grade_button
