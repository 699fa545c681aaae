"""The correction modal's submission: Smith checks and records it before the ack (errors show in the
modal), then processes it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from blocks import texts
from handlers.services import ListenerServices
from smith.listening.modal import take_submission

log = logging.getLogger(__name__)


def handle_correction_submission(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_correction_view(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        taken = await take_submission(services.store, services.inbox, body)
        if taken.out_of_date:
            await ack()  # the modal closes; nothing was recorded
            try:
                await client.chat_postEphemeral(
                    channel=taken.channel, user=taken.user, text=texts.form_out_of_date()
                )
            except SlackApiError as exc:  # a forged channel, or Slack unwell: the log line stands
                log.warning("could not say the form was out of date: %s", exc.response.get("error"))
            return
        if taken.errors:
            await ack(response_action="errors", errors=taken.errors)
            return
        await ack()
        if taken.event_id is not None:
            await services.processor.process(taken.event_id, kind="view_submission", payload=body)

    return handle_correction_view
