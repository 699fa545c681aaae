"""Which mapped channels Smith is not a member of (it cannot see thread replies there).

Asked of Slack at most once a minute per process, so `/readyz` probes do not turn into API traffic.
"""

from __future__ import annotations

import asyncio
import time

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from gradecore.store import Store

_TTL_SECONDS = 60.0


class ChannelMembership:
    def __init__(self, store: Store, client: AsyncWebClient) -> None:
        self._store = store
        self._client = client
        self._cached: tuple[float, list[str]] | None = None

    async def channels_not_joined(self) -> list[str]:
        if self._cached is not None and time.monotonic() - self._cached[0] < _TTL_SECONDS:
            return self._cached[1]
        missing = []
        for channel in await asyncio.to_thread(self._mapped_channels):
            if not await self._is_member(channel):
                missing.append(channel)
        self._cached = (time.monotonic(), missing)
        return missing

    async def _is_member(self, channel: str) -> bool:
        try:
            response = await self._client.conversations_info(channel=channel)
        except SlackApiError:
            return False  # not found, or not visible to the bot: either way it cannot read the thread
        return bool((response.get("channel") or {}).get("is_member"))

    def _mapped_channels(self) -> list[str]:
        with self._store.unit() as unit:
            return sorted({p.slack_channel_id for p in unit.properties.with_channel() if p.slack_channel_id})
