"""The Slack locale of whoever opens the Home tab (`users.info` with `include_locale`), cached.

The Home tab speaks its viewer's language, not the properties' (one person may watch an English and a
Spanish property). Opening the tab is frequent and users.info is rate-limited (tier 4), so an answer is
kept for an hour; a failed look-up is not kept, and the tab falls back to English meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 3600.0
MAX_CACHED = 10_000  # a bound, so a workspace's worth of viewers cannot grow the cache without end


class ViewerLocales:
    """`users.info` locales by Slack user id, each answer kept for `ttl` seconds."""

    def __init__(self, ttl: float = DEFAULT_TTL_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl
        self._clock = clock
        self._cache: dict[str, tuple[str | None, float]] = {}

    async def locale_of(self, client: AsyncWebClient, slack_user_id: str) -> str | None:
        """`es-ES`, `en-US`…, or None when Slack did not say (or could not be asked just now)."""
        now = self._clock()
        cached = self._cache.get(slack_user_id)
        if cached is not None and cached[1] > now:
            return cached[0]
        try:
            response = await client.users_info(user=slack_user_id, include_locale=True)
        except SlackApiError as exc:
            log.warning("users.info locale for %s failed: %s", slack_user_id, exc.response.get("error"))
            return None
        user = response.get("user") or {}
        locale = user.get("locale")
        answer = locale if isinstance(locale, str) and locale else None
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[slack_user_id] = (answer, now + self._ttl)
        return answer
