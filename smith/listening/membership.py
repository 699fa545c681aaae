"""Channel membership: which mapped channels Smith is not a member of (it cannot see thread replies
there), and which channels a person is a member of (what they see on the Home tab and may act on).

Smith's own is asked of Slack at most once a minute per process, so `/readyz` probes do not turn into
API traffic; a person's at most once per five minutes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from gradecore.errors import SmithError
from gradecore.persistence.store import Store

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


# --- Who is in which channel (issue 22: each person sees and grades only their properties) ---------

PEOPLE_TTL_SECONDS = 300.0  # docs/verdicts.md: "cached for minutes"
_PAGE = 200


# users.conversations answers for an id that is no (visible) person: a definite "in no channel".
_NO_SUCH_PERSON = frozenset({"user_not_found", "user_not_visible"})


class MembershipUnavailable(SmithError):
    """Slack could not say just now which channels a person is in."""


class ChannelsOfPeople(Protocol):
    async def channels_of(self, slack_user_id: str) -> frozenset[str]: ...

    def known(self, slack_user_id: str) -> frozenset[str] | None:
        """The person's channels if they are cached and fresh, without asking Slack."""
        ...


class PeopleInChannels:
    """`users.conversations` per person, cached for five minutes per process.

    A failure is not "in no channel": it raises MembershipUnavailable, so the caller can say Slack is
    unavailable rather than hide everything or act on a guess.
    """

    def __init__(
        self,
        client: AsyncWebClient,
        *,
        ttl_seconds: float = PEOPLE_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        page_size: int = _PAGE,
    ) -> None:
        self._client = client
        self._page_size = page_size
        self._ttl = ttl_seconds
        self._clock = clock
        self._cached: dict[str, tuple[float, frozenset[str]]] = {}

    def known(self, slack_user_id: str) -> frozenset[str] | None:
        cached = self._cached.get(slack_user_id)
        if cached is not None and self._clock() - cached[0] < self._ttl:
            return cached[1]
        return None

    async def channels_of(self, slack_user_id: str) -> frozenset[str]:
        known = self.known(slack_user_id)
        if known is not None:
            return known
        channels: set[str] = set()
        cursor: str | None = None
        try:
            while True:
                response = await self._client.users_conversations(
                    user=slack_user_id,
                    types="public_channel,private_channel",
                    exclude_archived=True,
                    limit=self._page_size,
                    cursor=cursor,
                )
                channels.update(str(c.get("id")) for c in response.get("channels") or () if c.get("id"))
                cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
                if not cursor:
                    break
        except SlackApiError as exc:
            error = exc.response.get("error")
            if error not in _NO_SUCH_PERSON:
                raise MembershipUnavailable(f"users.conversations {slack_user_id} failed: {error}") from None
            channels.clear()
            # Slack's answer, not an outage: whoever this is (a forged or deleted id) is in no channel,
            # and asking again would only be told the same.
        found = frozenset(channels)
        self._cached[slack_user_id] = (self._clock(), found)
        return found
