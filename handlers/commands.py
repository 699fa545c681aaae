"""`/smith …`: ack, then respond with what Smith answers (`smith/listening/command.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncRespond

from handlers.services import ListenerServices
from smith.listening.command import SmithCommand, answer_command


def handle_smith_command(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_smith(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        asked = SmithCommand(
            user_id=str(command.get("user_id", "")),
            channel_id=str(command.get("channel_id", "")),
            text=str(command.get("text", "")),
        )
        await respond(await answer_command(services.store, services.directory, asked, services.membership))

    return handle_smith
