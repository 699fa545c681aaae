"""The live transport: slack_sdk's AsyncWebClient, with the client's own blind retries turned off.

`chat.postMessage` has no idempotency key and the SDK's connection-error retry can post twice, so
this client retries nothing; the relay decides, after looking the post up when the outcome is unknown.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from smith.transports.base import (
    AmbiguousFailure,
    Payload,
    PermanentFailure,
    TransientFailure,
)
from smith.transports.slack_errors import classify

_LOOKUP_PAGE = 200
_LOOKUP_MAX_PAGES = 5  # a Smith thread is a parent, its flagged turns and a few staff replies


def build_post_client(token: str, *, base_url: str | None, timeout: float = 15.0) -> AsyncWebClient:
    """A client for posting: no retry handlers at all (the relay owns retries)."""
    kwargs: dict[str, object] = {"token": token, "timeout": timeout, "retry_handlers": []}
    if base_url:
        kwargs["base_url"] = base_url if base_url.endswith("/") else base_url + "/"
    return AsyncWebClient(**kwargs)  # type: ignore[arg-type]


class LiveTransport:
    name = "live"

    def __init__(self, client: AsyncWebClient) -> None:
        self._client = client

    async def post(self, channel: str, payload: Payload, *, thread_ts: str | None) -> str:
        response = await self._call(
            "chat.postMessage",
            self._client.chat_postMessage(
                channel=channel,
                text=payload["text"],
                blocks=payload.get("blocks"),
                metadata=payload.get("metadata"),
                thread_ts=thread_ts,
                unfurl_links=False,
                unfurl_media=False,
            ),
        )
        return str(response["ts"])

    async def update(self, channel: str, ts: str, payload: Payload) -> None:
        await self._call(
            "chat.update",
            self._client.chat_update(
                channel=channel,
                ts=ts,
                text=payload["text"],
                blocks=payload.get("blocks"),
                metadata=payload.get("metadata"),
            ),
        )

    async def post_ephemeral(
        self, channel: str, user: str, payload: Payload, *, thread_ts: str | None
    ) -> None:
        await self._call(
            "chat.postEphemeral",
            self._client.chat_postEphemeral(
                channel=channel,
                user=user,
                text=payload["text"],
                blocks=payload.get("blocks"),
                thread_ts=thread_ts,
            ),
        )

    async def find_posted(self, channel: str, idempotency_key: str, *, thread_ts: str | None) -> str | None:
        # No `oldest` bound: it would compare our clock with Slack's, and a relay host running ahead
        # would never find its own post and send it twice. The history answers newest first, so the
        # first page holds a post sent moments ago; a thread answers oldest first, so it is paged.
        if thread_ts is None:
            response = await self._read(
                "conversations.history",
                self._client.conversations_history(
                    channel=channel, include_all_metadata=True, limit=_LOOKUP_PAGE
                ),
            )
            return _ts_with_key(response, idempotency_key)
        cursor: str | None = None
        for _ in range(_LOOKUP_MAX_PAGES):
            response = await self._read(
                "conversations.replies",
                self._client.conversations_replies(
                    channel=channel,
                    ts=thread_ts,
                    include_all_metadata=True,
                    limit=_LOOKUP_PAGE,
                    cursor=cursor,
                ),
            )
            found = _ts_with_key(response, idempotency_key)
            cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
            if found is not None or not response.get("has_more") or cursor is None:
                return found
        return None

    async def _read(self, method: str, call: Awaitable[AsyncSlackResponse]) -> dict[str, Any]:
        try:
            return await self._call(method, call)
        except AmbiguousFailure as exc:  # a read cannot be ambiguous; it simply failed
            raise TransientFailure(str(exc)) from None

    async def join(self, channel: str) -> bool:
        try:
            await self._call("conversations.join", self._client.conversations_join(channel=channel))
        except PermanentFailure:
            return False
        except AmbiguousFailure as exc:  # joining twice is harmless: no look-up needed
            raise TransientFailure(str(exc)) from None
        return True

    @staticmethod
    async def _call(method: str, call: Awaitable[AsyncSlackResponse]) -> dict[str, Any]:
        try:
            response = await call
        except SlackApiError as exc:
            raise classify(method, exc) from None
        except (TimeoutError, aiohttp.ClientError, ConnectionError) as exc:
            raise AmbiguousFailure(f"{type(exc).__name__}: {exc}".strip(": ")) from None
        return dict(response.data) if isinstance(response.data, dict) else {}


def _ts_with_key(response: dict[str, Any], idempotency_key: str) -> str | None:
    for message in response.get("messages") or []:
        payload = (message.get("metadata") or {}).get("event_payload") or {}
        if payload.get("idempotency_key") == idempotency_key:
            return str(message["ts"])
    return None
