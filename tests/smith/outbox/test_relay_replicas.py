"""Several relays (replicas) share one PostgreSQL outbox and never send the same post twice.

PostgreSQL only: the guarantee rests on `FOR UPDATE SKIP LOCKED` plus the compare-and-set lease, which
is what production replicas run on.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import POSTED
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import FAST, keys_in_slack, queue_plain, relay_for, statuses

CHANNELS = [f"C0APT{i}" for i in range(6)]


@pytest.mark.backends("postgres")
async def test_two_relays_on_one_postgres_send_each_post_exactly_once(store: Store) -> None:
    assert store.engine.dialect.name == "postgresql"
    keys = [
        key
        for channel in CHANNELS
        for key in queue_plain(store, channel, [f"{channel}-{i}" for i in range(10)])
    ]
    # Small batches so both replicas keep coming back to the queue while the other holds claims.
    config = replace(FAST, channel_interval=0.01, batch_size=4)
    async with FakeSlack.running(channels=CHANNELS, post_window_s=0) as fake:
        first = relay_for(store, fake, config, owner="replica-a")
        second = relay_for(store, fake, config, owner="replica-b")
        stats_a, stats_b = await asyncio.gather(first.drain(within=30), second.drain(within=30))

        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)
        assert len(fake.calls_to("chat.postMessage")) == len(keys) == 60
        assert stats_a.posted + stats_b.posted == 60
        assert stats_a.posted > 0 and stats_b.posted > 0, "both replicas should have done some of the work"
        assert set(statuses(store).values()) == {POSTED}


async def test_a_relay_slower_than_its_lease_leaves_reclaimed_posts_to_the_new_owner(store: Store) -> None:
    # The first relay claims the whole queue but, paced at one post per 0.1 s, outlives its 0.3 s
    # lease; the second relay claims what has expired. Neither may send what the other holds.
    keys = queue_plain(store, "C0SLOW", [f"slow-{i}" for i in range(10)])
    config = replace(FAST, channel_interval=0.1, lease_seconds=0.3)
    async with FakeSlack.running(channels=["C0SLOW"], post_window_s=0) as fake:
        first = relay_for(store, fake, config, owner="first")
        second = relay_for(store, fake, config, owner="second")

        async def second_later() -> None:
            await asyncio.sleep(0.45)
            await second.drain(within=10)

        await asyncio.gather(first.drain(within=10), second_later())

        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)
        assert set(statuses(store).values()) == {POSTED}
