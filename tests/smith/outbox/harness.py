"""A relay wired to the fake Slack through the real AsyncWebClient, and ways to read what arrived.

Shared by the relay tests and the end-to-end scenarios. "Exactly once" is always judged from Slack's
side: the idempotency keys found in the fake's message metadata, counted across every channel.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from gradecore.persistence.entities import SlackPost, utcnow
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import PENDING
from smith.outbox import Relay, RelayConfig
from smith.transports import DeliveryFailure, Payload, RateLimited
from smith.transports.live import LiveTransport, build_post_client
from tests.fakes.slack_api import FakeSlack

# Fast enough for tests, slow enough to keep the relay's own pacing in play.
FAST = RelayConfig(
    channel_interval=0.05, global_rate=500.0, backoff_base=0.01, backoff_cap=0.2, lease_seconds=30.0
)


def live_transport(fake: FakeSlack, *, timeout: float = 5.0) -> LiveTransport:
    return LiveTransport(build_post_client(fake.bot_token, base_url=fake.api_url, timeout=timeout))


def relay_for(
    store: Store,
    fake: FakeSlack,
    config: RelayConfig = FAST,
    *,
    timeout: float = 5.0,
    owner: str | None = None,
    clock: Callable[[], datetime] = utcnow,
) -> Relay:
    return Relay(store, live_transport(fake, timeout=timeout), config, owner=owner, clock=clock)


def keys_in_slack(fake: FakeSlack) -> Counter[str]:
    """How many messages in the fake carry each idempotency key (edits do not add messages)."""
    return Counter(
        str(message.metadata["event_payload"]["idempotency_key"])
        for message in fake.posts_by_metadata("idempotency_key")
        if message.metadata is not None
    )


def plain_payload(key: str, *, text: str | None = None) -> Payload:
    return {
        "text": text or f"post {key}",
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text or f"post *{key}*"}}],
        "metadata": {"event_type": "smith_grade", "event_payload": {"idempotency_key": key}},
    }


def queue_plain(
    store: Store, channel: str, keys: Iterable[str], *, payload: Payload | None = None
) -> list[str]:
    """Queue top-level posts straight into the outbox, as grading would, one per key."""
    queued: list[str] = []
    with store.unit() as unit:
        for key in keys:
            unit.outbox.add(
                SlackPost(
                    kind="conversation",
                    idempotency_key=key,
                    channel=channel,
                    payload=payload or plain_payload(key),
                    status=PENDING,
                )
            )
            queued.append(key)
    return queued


def statuses(store: Store) -> dict[str, str]:
    with store.unit() as unit:
        return {post.idempotency_key: post.status for post in unit.outbox.list(limit=10_000)}


@dataclass
class Attempt:
    at: float
    channel: str
    outcome: str  # "ok", or the failure's class name
    retry_after: float | None = None


@dataclass
class RecordingTransport:
    """The live transport with a log of each post attempt and when it was made (for pacing checks)."""

    inner: LiveTransport
    attempts: list[Attempt] = field(default_factory=list)
    name: str = "recording"

    async def post(self, channel: str, payload: Payload, *, thread_ts: str | None) -> str:
        started = time.monotonic()
        try:
            ts = await self.inner.post(channel, payload, thread_ts=thread_ts)
        except RateLimited as exc:
            self.attempts.append(Attempt(started, channel, "RateLimited", exc.retry_after))
            raise
        except DeliveryFailure as exc:
            self.attempts.append(Attempt(started, channel, type(exc).__name__))
            raise
        self.attempts.append(Attempt(started, channel, "ok"))
        return ts

    async def update(self, channel: str, ts: str, payload: Payload) -> None:
        await self.inner.update(channel, ts, payload)

    async def post_ephemeral(
        self, channel: str, user: str, payload: Payload, *, thread_ts: str | None
    ) -> None:
        await self.inner.post_ephemeral(channel, user, payload, thread_ts=thread_ts)

    async def find_posted(self, channel: str, idempotency_key: str, *, thread_ts: str | None) -> str | None:
        return await self.inner.find_posted(channel, idempotency_key, thread_ts=thread_ts)

    async def join(self, channel: str) -> bool:
        return await self.inner.join(channel)
