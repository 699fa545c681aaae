"""Channel pacing shared by every relay (replica) through the database.

Slack allows about one message per second per channel, counted over everyone posting; replicas that
paced in their own memory posted milliseconds apart and earned 429s. Each channel has one row: a
relay holds the channel for the length of one send, and the next send waits a full interval after
Slack answered. A relay that dies mid-send stops renewing its hold, so the channel comes free after
one lease. The design is in docs/delivery.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import ChannelTurn

Clock = Callable[[], datetime]
# While another relay's send is in flight, how often to look whether it has answered (a fraction of
# the interval, so a waiting replica loses little of the channel's one-per-second budget).
_IN_FLIGHT_POLL_SHARE = 0.2


class SharedChannelPacer:
    def __init__(
        self, store: Store, holder: str, *, interval: float, hold_seconds: float, clock: Clock
    ) -> None:
        self._store = store
        self._holder = holder
        self._interval = interval
        self._hold = timedelta(seconds=hold_seconds)
        self._clock = clock

    async def take_turn(self, channel: str, *, wait_at_most: float) -> float | None:
        """Wait for the channel's next slot and hold it (None), unless the channel is blocked for more
        than `wait_at_most` seconds (a long Retry-After): then how long, and the caller hands back its
        posts instead of sleeping on them."""
        while True:
            turn = await asyncio.to_thread(self._take, channel)
            if turn.granted:
                return None
            if turn.in_flight:
                await asyncio.sleep(min(turn.wait, self._interval * _IN_FLIGHT_POLL_SHARE) or 0.01)
                continue
            if turn.wait > wait_at_most:
                return turn.wait
            await asyncio.sleep(turn.wait)

    async def answered(self, channel: str) -> None:
        await asyncio.to_thread(self._answered, channel)

    async def release(self, channel: str) -> None:
        await asyncio.to_thread(self._release, channel)

    async def back_off(self, channel: str, seconds: float) -> None:
        until = self._clock() + timedelta(seconds=seconds)
        await asyncio.to_thread(self._delay, channel, until)

    # --- database side (worker threads) ---------------------------------------------------------------

    def _take(self, channel: str) -> ChannelTurn:
        with self._store.unit() as unit:
            return unit.outbox.take_channel_turn(channel, self._holder, now=self._clock(), hold=self._hold)

    def _answered(self, channel: str) -> None:
        with self._store.unit() as unit:
            unit.outbox.channel_answered(channel, self._holder, now=self._clock(), interval=self._interval)

    def _release(self, channel: str) -> None:
        with self._store.unit() as unit:
            unit.outbox.release_channel(channel, self._holder, now=self._clock(), interval=self._interval)

    def _delay(self, channel: str, until: datetime) -> None:
        with self._store.unit() as unit:
            unit.outbox.delay_channel(channel, until=until)
