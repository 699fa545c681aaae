"""The Bolt app: signed requests in at `/slack/events` (or Socket Mode), listeners from `handlers/`.

Its client reads with slack_sdk's rate-limit retry handler (users.info, views.open, auth.test); posting
never goes through it — the outbox relay has its own client that retries nothing blindly.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from handlers import ListenerServices, register_listeners

log = logging.getLogger(__name__)
EVENTS_PATH = "/slack/events"


def build_read_client(token: str, *, base_url: str | None) -> AsyncWebClient:
    kwargs: dict[str, object] = {
        "token": token,
        "timeout": 10,
        "retry_handlers": [AsyncRateLimitErrorRetryHandler(max_retry_count=2)],
    }
    if base_url:
        kwargs["base_url"] = base_url if base_url.endswith("/") else base_url + "/"
    return AsyncWebClient(**kwargs)  # type: ignore[arg-type]


# What Bolt's constructor falls back to reading from the process environment when it is not given it.
# Smith gives Bolt its client and secret explicitly (settings are read once, by Smith); seeing
# SLACK_BOT_TOKEN as well, Bolt would warn at every start that the token "will be unused", and
# SLACK_CLIENT_ID/SECRET would switch it to an OAuth installation flow Smith does not run.
_BOLT_READS = (
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_VERIFICATION_TOKEN",
    "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
)


@contextmanager
def _environment_hidden(names: tuple[str, ...]) -> Iterator[None]:
    hidden = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(hidden)


def build_bolt_app(client: AsyncWebClient, signing_secret: str, services: ListenerServices) -> AsyncApp:
    with _environment_hidden(_BOLT_READS):
        app = AsyncApp(
            client=client,
            signing_secret=signing_secret,
            # Events Smith does not listen to are acked quietly rather than retried by Slack forever.
            raise_error_for_unhandled_request=False,
        )
    register_listeners(app, services)
    return app


def mount(app: AsyncApp) -> Callable[[web.Application], None]:
    """Adds the events route to smith's own aiohttp application."""

    async def slack_events(request: web.Request) -> web.Response:
        bolt_response = await app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    def add_routes(application: web.Application) -> None:
        application.router.add_post(EVENTS_PATH, slack_events)

    return add_routes
