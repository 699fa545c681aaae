"""Pacing for the relay: one message per interval per channel, under a global rate cap.

Slack allows about one message per second per channel; going faster only earns 429s. Each channel
keeps the earliest time its next message may go, and a token bucket caps the sum over channels.
"""

from __future__ import annotations

import asyncio
import time


class ChannelPacer:
    def __init__(self, interval: float) -> None:
        self._interval = interval
        self._next_allowed: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def wait_turn(self, channel: str) -> None:
        """Wait until `channel` may take another message, and reserve that slot."""
        lock = self._locks.setdefault(channel, asyncio.Lock())
        async with lock:
            delay = self._next_allowed.get(channel, 0.0) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self._next_allowed[channel] = time.monotonic() + self._interval

    def answered(self, channel: str) -> None:
        """Slack answered a send: the next one waits a full interval from now.

        Slack counts from when it accepted a message, somewhere between our request and its answer;
        counting from the request alone lets network jitter push every other message into a 429.
        """
        self._next_allowed[channel] = max(
            self._next_allowed.get(channel, 0.0), time.monotonic() + self._interval
        )

    def back_off(self, channel: str, seconds: float) -> None:
        """Slack said Retry-After: nothing more to this channel until then."""
        self._next_allowed[channel] = max(self._next_allowed.get(channel, 0.0), time.monotonic() + seconds)

    def blocked_for(self, channel: str) -> float:
        return max(0.0, self._next_allowed.get(channel, 0.0) - time.monotonic())


class TokenBucket:
    """At most `rate` acquisitions per second on average, with bursts up to `burst`."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self._rate = rate
        self._capacity = burst if burst is not None else max(1.0, rate)
        self._tokens = self._capacity
        self._updated = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self._capacity, self._tokens + (now - self._updated) * self._rate)
                self._updated = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self._rate)
