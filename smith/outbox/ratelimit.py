"""The relay's global rate cap: a token bucket over every channel (per-channel pacing is shared
between replicas through the database, in `smith.outbox.pacing`)."""

from __future__ import annotations

import asyncio
import time


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
