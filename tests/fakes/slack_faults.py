"""Failure modes the fake Slack can be told to produce: queued faults per method, and the per-channel
posting rate limit Slack enforces on chat.postMessage (about one message per second per channel).
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Final

HTTP_500: Final = "http_500"
TIMEOUT: Final = "timeout"
DROP_AFTER_ACCEPT: Final = "drop_after_accept"
RATELIMITED: Final = "ratelimited"
# A proxy in front of Slack failing: an HTML page, no JSON, no Slack error string.
HTML_502: Final = "html_502"
TRANSPORT_FAULTS: Final = frozenset({HTTP_500, TIMEOUT, DROP_AFTER_ACCEPT, HTML_502})

# Anything else must look like a Slack error string ("channel_not_found"), answered as ok: false.
_SLACK_ERROR = re.compile(r"^[a-z][a-z0-9_]*$")


class FaultPlan:
    """Faults queued by tests with ``fail_next``; each request to a method consumes at most one."""

    def __init__(self) -> None:
        self._queued: defaultdict[str, deque[str]] = defaultdict(deque)

    def add(self, method: str, kind: str, times: int = 1) -> None:
        if kind not in TRANSPORT_FAULTS and not _SLACK_ERROR.match(kind):
            raise ValueError(f"unknown fault kind {kind!r}: use {sorted(TRANSPORT_FAULTS)} or a Slack error")
        if times < 1:
            raise ValueError("times must be at least 1")
        self._queued[method].extend([kind] * times)

    def take(self, method: str) -> str | None:
        queue = self._queued.get(method)
        return queue.popleft() if queue else None

    def pending(self, method: str) -> int:
        return len(self._queued.get(method, ()))


class PostingRateLimit:
    """At most one accepted post per ``window_s`` per channel; a window of 0 turns the limit off.

    Only accepted posts start a window: a 429 does not extend it, as with Slack.
    """

    def __init__(self, window_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window_s = window_s
        self._clock = clock
        self._last_post: dict[str, float] = {}

    def retry_after(self, channel: str) -> int | None:
        """Seconds to wait (Slack sends whole seconds, at least 1), or None when a post may go now."""
        last = self._last_post.get(channel)
        if self.window_s <= 0 or last is None:
            return None
        remaining = self.window_s - (self._clock() - last)
        return max(1, math.ceil(remaining)) if remaining > 0 else None

    def record_post(self, channel: str) -> None:
        self._last_post[channel] = self._clock()
