"""`app_home_opened`: publish the person's Home tab (what waits for a review, their week)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from blocks.home import build_home_view
from gradecore.entities import User
from handlers.services import ListenerServices
from smith.home import home_for
from smith.listening.identity import DirectoryUnavailable, resolve

log = logging.getLogger(__name__)


def handle_app_home_opened(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_home_opened(event: dict[str, Any], client: AsyncWebClient) -> None:
        if event.get("tab", "home") != "home":
            return  # the Messages tab
        slack_user_id = str(event.get("user") or "")
        user: User | None = None
        try:
            who = await resolve(services.store, services.processor.directory, slack_user_id)
            user = who.user if who.may_grade else None
        except DirectoryUnavailable:  # Slack cannot say who this is just now: the not-linked tab
            log.warning("Home tab for %s: users.info unavailable", slack_user_id)
        content = await asyncio.to_thread(home_for, services.store, user)
        try:
            await client.views_publish(user_id=slack_user_id, view=build_home_view(content))
        except SlackApiError as exc:  # the next opening publishes it again
            log.warning("views.publish failed: %s", exc.response.get("error"))

    return handle_home_opened
