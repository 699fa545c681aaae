"""Leases are short and renewed: a live relay keeps its posts through a slow send, a dead one's posts
resume after one short lease (not a fixed two minutes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import POSTED
from smith.outbox import RelayConfig
from smith.settings import Settings
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import FAST, keys_in_slack, queue_plain, relay_for, statuses

APT = "C0LEASE"
# Generous bounds for waiting on something the test itself set in motion: never a race on speed.
PATIENCE_SECONDS = 30.0


async def _until(condition: Callable[[], bool]) -> None:
    deadline = asyncio.get_running_loop().time() + PATIENCE_SECONDS
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the awaited condition never came"
        await asyncio.sleep(0.02)


def _lease_until(store: Store, key: str) -> datetime | None:
    with store.unit() as unit:
        post = unit.outbox.by_key(key)
        assert post is not None
        return post.lease_until


def _at(moment: datetime) -> Callable[[], datetime]:
    return lambda: moment


def test_the_default_lease_is_short_and_a_setting() -> None:
    assert RelayConfig().lease_seconds <= 15
    assert Settings(SMITH_RELAY_LEASE_SECONDS="7").relay_lease_seconds == 7  # type: ignore[call-arg]


async def test_a_dead_replicas_post_resumes_after_the_short_lease(store: Store) -> None:
    (key,) = queue_plain(store, APT, ["crashed-mid-send"])
    # A long stall: the message never reaches the fake before it stops (then it answers 503, unstored).
    async with FakeSlack.running(channels=[APT], post_window_s=0, fault_delay_s=600) as fake:
        fake.fail_next("chat.postMessage", "timeout")
        dead = relay_for(store, fake, replace(FAST, lease_seconds=RelayConfig().lease_seconds), owner="dead")
        dying = asyncio.create_task(dead.drain(within=PATIENCE_SECONDS))
        await _until(lambda: bool(fake.faults_served))
        dying.cancel()  # the process is gone mid-send: nothing settles the post, nothing renews it
        await asyncio.gather(dying, return_exceptions=True)
        killed_at = utcnow()

        lease_until = _lease_until(store, key)
        assert lease_until is not None
        assert lease_until - killed_at <= timedelta(seconds=15), "a dead replica's post waits one short lease"

        before = await relay_for(
            store, fake, owner="early", clock=_at(lease_until - timedelta(seconds=1))
        ).run_once()
        assert before.posted == 0, "the lease still holds: nobody else may send it yet"
        after = await relay_for(
            store, fake, owner="restarted", clock=_at(lease_until + timedelta(seconds=1))
        ).drain(within=PATIENCE_SECONDS)

        assert after.posted == 1
        assert fake.calls_to("conversations.history"), "the resumed post was looked up first (ambiguous)"
        assert keys_in_slack(fake) == {key: 1}
        assert statuses(store) == {key: POSTED}


async def test_a_live_relay_renews_its_lease_through_a_slow_send(store: Store) -> None:
    (key,) = queue_plain(store, APT, ["slow-send"])
    config = replace(FAST, lease_seconds=1.5)
    async with FakeSlack.running(channels=[APT], post_window_s=0, fault_delay_s=10) as fake:
        fake.fail_next("chat.postMessage", "timeout")  # Slack takes 10 s to answer this one
        sender = relay_for(store, fake, config, owner="sender", timeout=60)
        sending = asyncio.create_task(sender.drain(within=60))
        await _until(lambda: bool(fake.faults_served))
        first = _lease_until(store, key)
        assert first is not None

        def renewed() -> bool:
            current = _lease_until(store, key)
            assert current is not None, "the send finished before any renewal was seen"
            return current > first + timedelta(seconds=0.25)

        await _until(renewed)
        # A rival looking when the first lease would have run out finds the post still held.
        rival = relay_for(store, fake, config, owner="rival", clock=_at(first + timedelta(seconds=0.1)))
        assert (await rival.run_once()).posted == 0

        stats = await sending
        assert stats.posted == 1
        assert keys_in_slack(fake) == {key: 1}
        assert len(fake.calls_to("chat.postMessage")) == 1
        assert statuses(store) == {key: POSTED}
