"""The outbox relay: delivers queued SlackPosts exactly once where Slack lets us, at least once always.

It paces each channel to Slack's one message per second, honours Retry-After, retries transient
failures with backoff resending the same bytes, and after an ambiguous failure (the post may have
reached Slack) looks for the post's idempotency key in the channel before sending again. Permanent
errors end `failed` and tell the ops channel once per cause. Database work runs in a thread so the
event loop (and Slack's 3-second acks in `smith serve`) never waits on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from gradecore.persistence.entities import SlackPost, utcnow
from gradecore.persistence.store import Store, Unit
from gradecore.persistence.store.outbox import FAILED, PENDING, POSTED
from smith.logs import log_context
from smith.metrics import RELAY_ERRORS, RELAY_SENDS
from smith.outbox.notices import queue_ops_notice
from smith.outbox.pacing import SharedChannelPacer
from smith.outbox.policy import MORE_TURNS_KIND
from smith.outbox.ratelimit import TokenBucket
from smith.transports import (
    AmbiguousFailure,
    DeliveryFailure,
    JoinRequired,
    PermanentFailure,
    RateLimited,
    TransientFailure,
    Transport,
)

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]
# A Retry-After up to this long is waited out in place; a longer one hands the posts back to the queue.
_WAIT_IN_PLACE_SECONDS = 10.0


@dataclass(frozen=True)
class RelayConfig:
    channel_interval: float = 1.0
    global_rate: float = 20.0
    max_attempts: int = 8
    # Short, because it is renewed while the relay lives: a crashed replica's posts resume this soon.
    lease_seconds: float = 15.0
    batch_size: int = 100
    per_channel: int = 10  # per claim: a backlog in one channel does not starve the others
    max_lookup_failures: int = 3
    backoff_base: float = 2.0
    backoff_cap: float = 300.0
    ops_channel: str | None = None


@dataclass
class RelayStats:
    posted: int = 0
    recovered: int = 0  # found already in Slack by the metadata look-up; not sent again
    rate_limited: int = 0
    retried: int = 0
    failed: int = 0
    failures: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def merge(self, other: RelayStats) -> None:
        self.posted += other.posted
        self.recovered += other.recovered
        self.rate_limited += other.rate_limited
        self.retried += other.retried
        self.failed += other.failed
        for cause, count in other.failures.items():
            self.failures[cause] += count


class Relay:
    def __init__(
        self,
        store: Store,
        transport: Transport,
        config: RelayConfig | None = None,
        *,
        clock: Clock = utcnow,
        owner: str | None = None,
    ) -> None:
        self._store = store
        self._transport = transport
        self._config = config or RelayConfig()
        self._clock = clock
        self.owner = owner or f"relay-{uuid.uuid4().hex[:10]}"
        self._pacer = SharedChannelPacer(
            store,
            self.owner,
            interval=self._config.channel_interval,
            hold_seconds=self._config.lease_seconds,
            clock=clock,
        )
        self._bucket = TokenBucket(self._config.global_rate)
        self.last_tick: datetime | None = None

    # --- loops -----------------------------------------------------------------------------------

    async def run_once(self) -> RelayStats:
        """Claim what is due now and deliver it, channel by channel in parallel."""
        self.last_tick = self._clock()
        claimed = await asyncio.to_thread(self._claim)
        stats = RelayStats()
        by_channel: dict[str, list[SlackPost]] = defaultdict(list)
        for post in claimed:
            by_channel[post.channel or ""].append(post)
        if not claimed:
            return stats
        renewing = asyncio.create_task(self._keep_leases())
        try:
            results = await asyncio.gather(*(self._deliver_channel(posts) for posts in by_channel.values()))
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
        for result in results:
            stats.merge(result)
        return stats

    async def drain(self, *, within: float = 60.0, idle_sleep: float = 0.05) -> RelayStats:
        """Deliver until nothing is due, for at most `within` seconds (replies follow their parent)."""
        total = RelayStats()
        deadline = asyncio.get_running_loop().time() + within
        while asyncio.get_running_loop().time() < deadline:
            stats = await self.run_once()
            total.merge(stats)
            if not await asyncio.to_thread(self._anything_pending):
                break
            if stats.posted == stats.recovered == stats.retried == stats.rate_limited == stats.failed == 0:
                await asyncio.sleep(idle_sleep)
        return total

    async def run_forever(self, stop: asyncio.Event, *, poll_interval: float = 1.0) -> None:
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception:  # the relay must outlive a bad tick (database blip, bug in one post)
                log.exception("relay tick failed; retrying")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=poll_interval)

    # --- one channel ----------------------------------------------------------------------------

    async def _deliver_channel(self, posts: list[SlackPost]) -> RelayStats:
        stats = RelayStats()
        for index, post in enumerate(posts):
            channel = post.channel or ""
            blocked = await self._pacer.take_turn(channel, wait_at_most=_WAIT_IN_PLACE_SECONDS)
            if blocked is not None:
                await asyncio.to_thread(self._release, posts[index:], blocked)
                break
            try:
                await self._bucket.acquire()
                stats.merge(await self._deliver(post))
            finally:
                await self._pacer.release(channel)  # a no-op when the send was answered
        return stats

    async def _keep_leases(self) -> None:
        """Renew this relay's leases (posts and channel holds) while it works through them."""
        while True:
            await asyncio.sleep(self._config.lease_seconds / 3)
            try:
                await asyncio.to_thread(self._renew)
            except Exception:  # a missed renewal costs at most a lease; the next one may succeed
                log.exception("relay %s: renewing leases failed", self.owner)

    async def _deliver(self, post: SlackPost) -> RelayStats:
        stats = RelayStats()
        assert post.id is not None and post.channel is not None
        target_ts = await asyncio.to_thread(self._target_ts, post)
        if post.ambiguous and post.operation == "post":
            found = await self._look_up(post, target_ts, stats)
            if found is None:
                return stats  # rescheduled: the look-up itself failed
            if found:
                await asyncio.to_thread(
                    self._settle, post, status=POSTED, ts=found, ambiguous=False, last_error=None
                )
                stats.recovered += 1
                return stats
        if not await asyncio.to_thread(self._mark_ambiguous, post):
            # Our lease ran out while the post waited its turn and another relay claimed it: it is theirs.
            log.warning("post %s: lease lost before sending; left to its new owner", post.id)
            return stats
        try:
            ts = await self._send(post, target_ts)
        except RateLimited as exc:
            await self._pacer.back_off(post.channel, exc.retry_after)
            stats.rate_limited += 1
            RELAY_ERRORS.labels(error="ratelimited").inc()
            # A 429 is Slack pacing us, not a failed attempt: the attempt is given back.
            await asyncio.to_thread(
                self._settle,
                post,
                ambiguous=False,
                attempts=post.attempts,
                next_attempt_at=self._later(exc.retry_after),
            )
        except PermanentFailure as exc:
            await self._fail_permanently(post, exc.code, stats)
        except (AmbiguousFailure, TransientFailure) as exc:
            await self._retry_later(post, exc, stats)
        else:
            await asyncio.to_thread(
                self._settle, post, status=POSTED, ts=ts, ambiguous=False, last_error=None
            )
            stats.posted += 1
            RELAY_SENDS.labels(outcome="posted").inc()
            with log_context(channel=post.channel, conversation_id=post.conversation_id):
                log.info("post %s (%s, %s) sent to %s", post.id, post.kind, post.operation, post.channel)
        return stats

    async def _send(self, post: SlackPost, target_ts: str | None) -> str | None:
        assert post.channel is not None
        try:
            return await self._send_once(post, target_ts)
        finally:
            await self._pacer.answered(post.channel)

    async def _send_once(self, post: SlackPost, target_ts: str | None) -> str | None:
        assert post.channel is not None
        if post.operation == "update":
            assert target_ts is not None
            await self._transport.update(post.channel, target_ts, post.payload)
            return target_ts
        if post.operation == "ephemeral":
            # Ephemerals leave no trace to look up; resending one after an ambiguous failure is harmless.
            assert post.recipient is not None, "an ephemeral is queued with its recipient"
            await self._transport.post_ephemeral(
                post.channel, post.recipient, post.payload, thread_ts=post.thread_ts
            )
            return None
        try:
            return await self._transport.post(post.channel, post.payload, thread_ts=target_ts)
        except JoinRequired:
            # The bot may simply not have joined yet: join once and send again. Where Slack refuses the
            # join (a private channel), the failure stands and ops are told to invite the bot.
            if await self._transport.join(post.channel):
                return await self._transport.post(post.channel, post.payload, thread_ts=target_ts)
            raise

    async def _look_up(self, post: SlackPost, target_ts: str | None, stats: RelayStats) -> str | bool | None:
        """The ts if Slack already has the post, False if it does not, None if we could not tell."""
        assert post.channel is not None
        in_thread = post.kind in ("turn", MORE_TURNS_KIND) or post.thread_ts
        thread_ts = target_ts if in_thread else None
        try:
            found = await self._transport.find_posted(post.channel, post.idempotency_key, thread_ts=thread_ts)
        except DeliveryFailure as exc:
            if post.lookups_failed + 1 >= self._config.max_lookup_failures:
                log.warning(
                    "post %s: look-up unavailable %d times; resending (at-least-once)",
                    post.id,
                    post.lookups_failed + 1,
                )
                return False
            stats.retried += 1
            await asyncio.to_thread(
                self._settle,
                post,
                lookups_failed=post.lookups_failed + 1,
                last_error=f"look-up failed: {exc}"[:1000],
                next_attempt_at=self._later(self._backoff(post.attempts)),
            )
            return None
        return found or False

    async def _retry_later(self, post: SlackPost, exc: DeliveryFailure, stats: RelayStats) -> None:
        cause = type(exc).__name__
        stats.failures[cause] += 1
        RELAY_ERRORS.labels(error=str(exc).split(":")[0][:64] or cause).inc()
        attempts = post.attempts + 1
        if attempts >= self._config.max_attempts:
            await self._fail_permanently(post, f"gave up after {attempts} attempts: {exc}", stats)
            return
        stats.retried += 1
        RELAY_SENDS.labels(outcome="retried").inc()
        await asyncio.to_thread(
            self._settle,
            post,
            ambiguous=isinstance(exc, AmbiguousFailure),
            last_error=str(exc)[:1000],
            next_attempt_at=self._later(self._backoff(attempts)),
        )

    async def _fail_permanently(self, post: SlackPost, cause: str, stats: RelayStats) -> None:
        stats.failed += 1
        stats.failures[cause.split(":")[0]] += 1
        RELAY_SENDS.labels(outcome="failed").inc()
        if not cause.startswith("gave up"):  # a retried error was counted when it was met
            RELAY_ERRORS.labels(error=cause.split(":")[0][:64]).inc()
        log.error("post %s to %s failed permanently: %s", post.id, post.channel, cause)
        await asyncio.to_thread(self._fail_and_notify, post, cause)

    # --- database side (runs in a worker thread) ------------------------------------------------

    def _claim(self) -> list[SlackPost]:
        lease = timedelta(seconds=self._config.lease_seconds)
        with self._store.unit() as unit:
            claimed = list(
                unit.outbox.claim_due(
                    self.owner,
                    now=self._clock(),
                    lease=lease,
                    limit=self._config.batch_size,
                    per_channel=self._config.per_channel,
                )
            )
            channels: dict[str, str | None] = {}
            for post in claimed:
                destination = _destination(unit, post, channels)
                if destination is not None and destination != post.channel:
                    log.info("post %s: re-pointed from %s to %s", post.id, post.channel, destination)
                    unit.outbox.repoint(post, destination)
            return claimed

    def _renew(self) -> None:
        with self._store.unit() as unit:
            unit.outbox.renew_leases(self.owner, until=self._later(self._config.lease_seconds))

    def _target_ts(self, post: SlackPost) -> str | None:
        with self._store.unit() as unit:
            return unit.outbox.target_ts(post)

    def _mark_ambiguous(self, post: SlackPost) -> bool:
        lease_until = self._later(self._config.lease_seconds)  # the send gets a whole lease of its own
        with self._store.unit() as unit:
            return unit.outbox.mark_ambiguous(post.id or 0, self.owner, lease_until=lease_until)

    def _settle(self, post: SlackPost, **values: object) -> None:
        values.setdefault("status", PENDING)
        with self._store.unit() as unit:
            if not unit.outbox.settle(post.id or 0, self.owner, **values):
                log.warning("post %s: lease lost before settling; another relay owns it now", post.id)

    def _release(self, posts: list[SlackPost], delay: float) -> None:
        with self._store.unit() as unit:
            for post in posts:
                unit.outbox.settle(post.id or 0, self.owner, next_attempt_at=self._later(delay))

    def _fail_and_notify(self, post: SlackPost, cause: str) -> None:
        with self._store.unit() as unit:
            unit.outbox.settle(
                post.id or 0, self.owner, status=FAILED, ambiguous=False, last_error=cause[:1000]
            )
            if self._config.ops_channel and post.kind != "notice":
                queue_ops_notice(
                    unit, self._config.ops_channel, cause=cause.split(":")[0], failed_channel=post.channel
                )

    def _anything_pending(self) -> bool:
        with self._store.unit() as unit:
            return unit.outbox.has_deliverable(self._clock() + timedelta(seconds=_WAIT_IN_PLACE_SECONDS))

    def _later(self, seconds: float) -> datetime:
        return self._clock() + timedelta(seconds=seconds)

    def _backoff(self, attempts: int) -> float:
        return float(min(self._config.backoff_cap, self._config.backoff_base * 2 ** max(0, attempts - 1)))


def _destination(unit: Unit, post: SlackPost, channels: dict[str, str | None]) -> str | None:
    """Where a post not yet in Slack goes (docs/verdicts.md: the channel is the property's current one).

    A thread reply or an edit goes where its parent's message lives (the channel stored with its ts);
    a new message of a property goes to the property's channel as it is now, so a mistyped channel,
    once corrected, takes the posts still waiting. None: keep the channel it was queued with (an
    ephemeral, an ops notice, a property with no channel now). `channels` caches property look-ups.
    """
    if post.operation == "ephemeral":
        return None
    if post.parent_post_id is not None:
        parent = unit.outbox.get(post.parent_post_id)
        return None if parent is None else parent.channel
    if post.property_id is None or post.kind == "notice":
        return None
    if post.property_id not in channels:
        prop = unit.properties.get(post.property_id)
        channels[post.property_id] = None if prop is None else prop.slack_channel_id
    return channels[post.property_id]
