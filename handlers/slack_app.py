"""The Bolt app: signed requests in at `/slack/events` (or Socket Mode), answered by the listeners here.

Its client is the bot's reading client (`smith.wiring.build_read_client`); posting never goes through
it. What each request is answered, and why: docs/slack-endpoint.md.
"""

from __future__ import annotations

import logging
import os
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.async_app import AsyncApp
from slack_bolt.response import BoltResponse
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy.exc import SQLAlchemyError

from gradecore.persistence.db import first_line
from handlers import ListenerServices, register_listeners
from smith.listening.inbox_writer import InboxUnavailable
from smith.web.slack_readable import Unreadable, read_signed
from smith.web.slack_verify import SlackSignature

log = logging.getLogger(__name__)
EVENTS_PATH = "/slack/events"


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
    app.error(answer_listener_error)
    return app


async def answer_listener_error(error: Exception) -> BoltResponse:
    """What Slack is told when handling its request failed: retry later, or never again.

    An event that could not be recorded is not acked (5xx), so Slack delivers it again. Anything else
    will fail the same way on every retry (a payload shape Smith does not know), so it is acked and
    logged in one line rather than answered 500 for Slack to resend for ever.
    """
    if isinstance(error, InboxUnavailable):
        log.warning("a Slack request was not acked, Slack will retry it: %s", error)
        return BoltResponse(status=503, body="")
    if isinstance(error, SQLAlchemyError):  # the SQL and its parameters stay out of the log
        log.warning("a Slack request failed on the database: %s: %s", type(error).__name__, first_line(error))
        return BoltResponse(status=503, body="")
    log.warning("ignored a Slack request Smith could not handle: %s", _where(error))
    return BoltResponse(status=200, body="")


def _where(error: BaseException) -> str:
    """The error's type and the line it came from: enough to find a bug, without the payload's text."""
    frames = traceback.extract_tb(error.__traceback__)
    place = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{place}"


def mount(app: AsyncApp, signing_secret: str) -> Callable[[web.Application], None]:
    """Adds the events route to smith's own aiohttp application.

    The signature is checked over the raw bytes before Bolt parses anything, so a forged or malformed
    request costs one log line and a 4xx, never a traceback.
    """
    signature = SlackSignature(signing_secret)

    async def slack_events(request: web.Request) -> web.Response:
        body = await request.read()
        refused = signature.check(body, request.headers)
        if refused is not None:
            log.warning("refused a request to %s: %s", EVENTS_PATH, refused.reason)
            return web.json_response({"error": refused.reason}, status=refused.status)
        readable = read_signed(body, request.query_string, request.headers)
        if isinstance(readable, Unreadable):
            log.info("ignored a signed Slack request: %s", readable.reason)
            return web.Response(status=200)
        try:
            answer = await app.async_dispatch(readable)
        except InboxUnavailable as exc:  # Bolt's own error handling failed on the way: still a 503
            log.warning("a Slack request was not acked, Slack will retry it: %s", exc)
            return web.Response(status=503)
        except Exception as exc:  # Bolt itself choked on an odd shape (in its error handling, say)
            log.warning("ignored a Slack request Bolt could not handle: %s", _where(exc))
            return web.Response(status=200)
        if answer.status == 404:  # nothing listens for it (Bolt has logged it): acked, not resent
            return web.Response(status=200)
        return await to_aiohttp_response(answer)

    def add_routes(application: web.Application) -> None:
        application.router.add_post(EVENTS_PATH, slack_events)

    return add_routes
