"""The "Correct grade" button: ack, then open the correction modal on the item the post shows."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.models.views import View
from slack_sdk.web.async_client import AsyncWebClient

from gradecore.store import Store
from handlers.services import ListenerServices
from smith.acts import ItemType, Target
from smith.listening.events import ButtonValue
from smith.listening.modal import build_correction_view

log = logging.getLogger(__name__)


def _view_for(store: Store, value: ButtonValue, channel: str, message_ts: str) -> View | None:
    with store.unit() as unit:
        item_type: ItemType = "turn" if value.turn_id else "conversation"
        record = unit.conversations.get(value.conversation_id)
        if record is None:
            return None
        target = Target(item_type, value.conversation_id, value.turn_id, record.property_id)
        machine = unit.grades.latest(item_type, target.ref)
        if machine is None:
            return None
        prop = unit.properties.get(record.property_id)
        return build_correction_view(
            target,
            machine,
            unit.principles.vocabulary(),
            channel=channel,
            message_ts=message_ts,
            locale=prop.locale if prop is not None else None,
        )


def handle_correct_grade(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_correct_grade_button(
        ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        await ack()
        action = (body.get("actions") or [{}])[0]
        value = ButtonValue.parse(str(action.get("value", "")))
        if value is None:
            return
        channel = str((body.get("channel") or {}).get("id", ""))
        message_ts = str(
            (body.get("container") or {}).get("message_ts") or (body.get("message") or {}).get("ts", "")
        )
        view = await asyncio.to_thread(_view_for, services.store, value, channel, message_ts)
        if view is None:
            return
        try:
            await client.views_open(trigger_id=body["trigger_id"], view=view)
        except SlackApiError as exc:  # an expired trigger: the person just clicks again
            log.warning("views.open failed: %s", exc.response.get("error"))

    return handle_correct_grade_button
