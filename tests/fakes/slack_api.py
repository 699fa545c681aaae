"""A fake Slack Web API server on loopback, for tests that drive the real slack_sdk AsyncWebClient.

    async with FakeSlack.running(channels=["C0APT1"]) as fake:
        client = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)
        await client.chat_postMessage(channel="C0APT1", text="hi")
        assert fake.messages("C0APT1")[0].text == "hi"

Requests go through HTTP exactly as they would to slack.com (JSON or form bodies, bearer token), so
tests see Slack's errors, 429s with ``Retry-After`` and broken connections rather than mocked calls.
State lives in ``slack_state``, the methods in ``slack_methods``, the limits in ``slack_limits``,
injectable failures in ``slack_faults`` and Socket Mode (``apps.connections.open`` and the WebSocket it
points at) in ``slack_socket``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web

from .slack_faults import (
    DROP_AFTER_ACCEPT,
    HTML_502,
    HTTP_500,
    RATELIMITED,
    TIMEOUT,
    FaultPlan,
    PostingRateLimit,
)
from .slack_methods import HANDLERS, Bot, Handler, SlackError
from .slack_socket import LINK_PATH, SocketModeEndpoint, SocketSession
from .slack_state import (
    Call,
    Channel,
    Ephemeral,
    FaultServed,
    JsonDict,
    OpenedView,
    RateLimitHit,
    ResponseUrlPost,
    StoredMessage,
    User,
    Workspace,
)

__all__ = [
    "DEFAULT_CHANNEL",
    "Call",
    "Channel",
    "Ephemeral",
    "FakeSlack",
    "FaultServed",
    "OpenedView",
    "RateLimitHit",
    "ResponseUrlPost",
    "SocketSession",
    "StoredMessage",
    "User",
]

DEFAULT_CHANNEL = "C0APT1"
# Called with the app-level token (xapp-), not the bot token.
APP_TOKEN_METHODS = frozenset({"apps.connections.open"})
_ANY: Any = object()


class FakeSlack:
    """One fake workspace with one bot; start it with ``running()`` (or ``start()``/``stop()``)."""

    def __init__(
        self,
        *,
        bot_token: str = "xoxb-fake-smith-token",
        app_token: str = "xapp-fake-smith-app-token",
        app_id: str = "A0SMITH",
        bot_user_id: str = "U0SMITH",
        bot_id: str = "B0SMITH",
        team_id: str = "T0FAKE",
        channels: Iterable[str] = (DEFAULT_CHANNEL,),
        archived: Iterable[str] = (),
        member_of: Iterable[str] | None = None,
        users: Iterable[User] = (),
        post_window_s: float = 1.0,
        fault_delay_s: float = 2.0,
    ) -> None:
        """``member_of=None`` means the bot is in every channel; ``fault_delay_s`` is how long a
        ``timeout`` fault stalls (set it above the client's timeout)."""
        self.bot = Bot(bot_token, bot_user_id, bot_id, team_id)
        self.app_token = app_token
        self.socket_mode = SocketModeEndpoint(app_id)
        self._own_handlers: dict[str, Handler] = {"apps.connections.open": self._connections_open}
        bot_user = User(bot_user_id, "smith", real_name="Agent Smith", is_bot=True)
        self.workspace = Workspace(
            team_id=team_id,
            channels=channels,
            archived=archived,
            member_of=member_of,
            users=[bot_user, *users],
        )
        self.fault_delay_s = fault_delay_s
        self.calls: list[Call] = []
        # time.monotonic() when each of `calls` arrived (same index): pacing is judged by it.
        self.arrived_at: list[float] = []
        self.rate_limited: list[RateLimitHit] = []
        self.faults_served: list[FaultServed] = []
        self.responses: list[ResponseUrlPost] = []
        self._faults = FaultPlan()
        self._post_limit = PostingRateLimit(post_window_s)
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port = 0

    # -- lifecycle -------------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def running(cls, **opts: Any) -> AsyncIterator[FakeSlack]:
        fake = cls(**opts)
        await fake.start()
        try:
            yield fake
        finally:
            await fake.stop()

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._handle)
        app.router.add_post("/respond/{key}", self._respond)
        app.router.add_get(LINK_PATH, self.socket_mode.serve)
        # A short shutdown timeout: stalled ("timeout") handlers are released by _closing anyway.
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        self._closing.set()
        await self.socket_mode.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self._port}/"

    @property
    def api_url(self) -> str:
        """The ``base_url`` for AsyncWebClient (ends with a slash, as slack_sdk requires)."""
        return f"{self.root_url}api/"

    @property
    def url(self) -> str:
        return self.api_url

    def response_url(self, key: str) -> str:
        """A ``response_url`` (slash commands, actions) served by the fake; what is posted to it is
        recorded in ``responses``."""
        return f"{self.root_url}respond/{key}"

    async def socket_session(self) -> SocketSession:
        """The first Socket Mode WebSocket the app opened, once open (bound it with ``asyncio.timeout``)."""
        return await self.socket_mode.first_session()

    @property
    def bot_token(self) -> str:
        return self.bot.token

    @property
    def bot_user_id(self) -> str:
        return self.bot.user_id

    @property
    def bot_id(self) -> str:
        return self.bot.bot_id

    @property
    def team_id(self) -> str:
        return self.bot.team_id

    # -- arranging a scenario ----------------------------------------------------------------------

    def fail_next(self, method: str, kind: str, times: int = 1) -> None:
        """Make the next ``times`` calls to ``method`` fail: ``http_500``, ``timeout`` (stall for
        ``fault_delay_s``, then answer normally), ``drop_after_accept`` (do the work, then close the
        connection without answering), ``ratelimited`` (a 429), or any Slack error string."""
        self._faults.add(method, kind, times)

    def add_channel(self, channel_id: str, *, member: bool = True, archived: bool = False) -> Channel:
        return self.workspace.add_channel(channel_id, member=member, archived=archived)

    def channel(self, channel_id: str) -> Channel:
        return self.workspace.channels[channel_id]

    def add_user(self, user: User) -> None:
        self.workspace.users[user.id] = user

    def add_message(
        self,
        channel: str,
        text: str,
        *,
        user: str,
        thread_ts: str | None = None,
        metadata: JsonDict | None = None,
    ) -> StoredMessage:
        """A message someone else wrote (a staff reply in a thread, say), as if posted in Slack."""
        return self.workspace.store(channel, user=user, text=text, thread_ts=thread_ts, metadata=metadata)

    def add_reaction(self, channel: str, ts: str, name: str, user: str) -> None:
        self.message(channel, ts).reactions.setdefault(name, []).append(user)

    # -- introspection -----------------------------------------------------------------------------

    def calls_to(self, method: str) -> list[JsonDict]:
        return [call.params for call in self.calls if call.method == method]

    def received_at(self, method: str, channel: str) -> list[float]:
        """When each request to ``method`` for ``channel`` arrived (monotonic seconds), in order."""
        return [
            arrived
            for call, arrived in zip(self.calls, self.arrived_at, strict=True)
            if call.method == method and str(call.params.get("channel", "")) == channel
        ]

    def messages(self, channel: str) -> list[StoredMessage]:
        """Every message in the channel, thread replies included, oldest first."""
        return list(self.workspace.by_channel.get(channel, []))

    def top_level(self, channel: str) -> list[StoredMessage]:
        return [m for m in self.messages(channel) if not m.is_reply]

    def thread(self, channel: str, ts: str) -> list[StoredMessage]:
        return self.workspace.thread(channel, ts)

    def message(self, channel: str, ts: str) -> StoredMessage:
        found = self.workspace.find(channel, ts)
        if found is None:
            raise KeyError(f"no message {ts} in {channel}")
        return found

    def posts_by_metadata(self, key: str, value: Any = _ANY) -> list[StoredMessage]:
        """Messages in any channel whose metadata payload has ``key`` (equal to ``value``, if given)."""
        return [
            m
            for messages in self.workspace.by_channel.values()
            for m in messages
            if m.metadata is not None
            and key in m.metadata["event_payload"]
            and (value is _ANY or m.metadata["event_payload"][key] == value)
        ]

    @property
    def ephemerals(self) -> list[Ephemeral]:
        return self.workspace.ephemerals

    @property
    def views(self) -> list[OpenedView]:
        return self.workspace.views

    def home_view(self, user_id: str) -> JsonDict | None:
        """The Home tab last published for `user_id` (views.publish), if any."""
        return self.workspace.home_views.get(user_id)

    # -- HTTP ------------------------------------------------------------------------------------

    async def _respond(self, request: web.Request) -> web.Response:
        body = json.loads(await request.text() or "{}")
        self.responses.append(ResponseUrlPost(request.match_info["key"], body))
        return web.Response(text="ok")

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        try:
            params, token = await _read_request(request)
        except ValueError:
            return web.json_response({"ok": False, "error": "invalid_json"})
        self.calls.append(Call(method, params))
        self.arrived_at.append(time.monotonic())
        handler = HANDLERS.get(method) or self._own_handlers.get(method)
        if handler is None:
            return web.json_response({"ok": False, "error": "unknown_method"})
        expected = self.app_token if method in APP_TOKEN_METHODS else self.bot.token
        if token != expected:
            # Slack tells a token of the wrong kind (bot for app-level, or the reverse) from an unknown one.
            wrong_kind = token in (self.app_token, self.bot.token)
            error = "not_allowed_token_type" if wrong_kind else "invalid_auth"
            return web.json_response({"ok": False, "error": error})

        fault = self._faults.take(method)
        if fault is not None:
            self.faults_served.append(FaultServed(method, fault))
        if fault == TIMEOUT and not await self._stall():
            return web.json_response({"ok": False, "error": "fatal_error"}, status=503)
        if fault == HTTP_500:
            return web.json_response({"ok": False, "error": "fatal_error"}, status=500)
        if fault == HTML_502:
            return web.Response(
                text="<html><body><h1>502 Bad Gateway</h1></body></html>",
                status=502,
                content_type="text/html",
            )
        if fault == RATELIMITED:
            return self._too_many_requests(method, params, retry_after=1)
        if fault not in (None, TIMEOUT, DROP_AFTER_ACCEPT):
            return web.json_response(SlackError(str(fault)).body())

        channel = str(params.get("channel", ""))
        posting = method == "chat.postMessage"
        retry_after = self._post_limit.retry_after(channel) if posting else None
        if retry_after is not None:
            return self._too_many_requests(method, params, retry_after)
        try:
            body = handler(self.workspace, self.bot, params)
        except SlackError as error:
            body = error.body()
        if posting and body["ok"]:
            self._post_limit.record_post(channel)

        if fault == DROP_AFTER_ACCEPT and request.transport is not None:
            # The work is done; the caller never hears back, the ambiguous failure a relay must survive.
            request.transport.close()
            return web.Response()
        return web.json_response(body)

    def _connections_open(self, _ws: Workspace, _bot: Bot, _params: JsonDict) -> JsonDict:
        return self.socket_mode.connections_open(self.root_url)

    async def _stall(self) -> bool:
        """Wait ``fault_delay_s``; False when the server is shutting down meanwhile."""
        try:
            await asyncio.wait_for(self._closing.wait(), timeout=self.fault_delay_s)
        except TimeoutError:
            return True
        return False

    def _too_many_requests(self, method: str, params: JsonDict, retry_after: int) -> web.Response:
        channel = params.get("channel")
        self.rate_limited.append(RateLimitHit(method, None if channel is None else str(channel), retry_after))
        return web.json_response(
            {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": str(retry_after)}
        )


async def _read_request(request: web.Request) -> tuple[JsonDict, str | None]:
    """Merge query and body parameters (JSON or form) and take out the token, wherever it was sent."""
    params: JsonDict = dict(request.query)
    if request.content_type == "application/json":
        body = json.loads(await request.text() or "{}")
        if not isinstance(body, dict):
            raise ValueError("JSON body must be an object")
        params.update(body)
    elif request.can_read_body:
        form = await request.post()
        params.update({key: value for key, value in form.items() if isinstance(value, str)})
    token = params.pop("token", None)
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        token = auth.removeprefix("Bearer ")
    return params, None if token is None else str(token)
