"""`app_home_opened`: publish the view Smith builds for the person (`smith/listening/home.py`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from handlers.services import ListenerServices
from smith.listening.home import home_view_for
from smith.transports.slack_errors import classify

log = logging.getLogger(__name__)


def handle_app_home_opened(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_home_opened(event: dict[str, Any], client: AsyncWebClient) -> None:
        if event.get("tab", "home") != "home":
            return  # the Messages tab
        slack_user_id = str(event.get("user") or "")
        locale = await services.viewer_locales.locale_of(client, slack_user_id)
        view = await home_view_for(
            services.store, services.directory, slack_user_id, services.membership, locale=locale
        )
        try:
            await client.views_publish(user_id=slack_user_id, view=view)
        except SlackApiError as exc:  # the next opening publishes it again
            failure = classify("views.publish", exc)
            log.warning("views.publish failed (%s): %s", type(failure).__name__, failure)

    return handle_home_opened
