"""Two replicas posting to one channel share its pace through the database: Slack never answers 429.

Each replica has its own engine, Store and Relay, as two processes would; they meet only in
PostgreSQL. Spacing is measured by the fake Slack's own receive times.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy import Engine

from gradecore.persistence.db import create_db_engine
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import POSTED
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import FAST, keys_in_slack, queue_plain, relay_for, statuses

CHANNEL = "C0SHARED"


@pytest.fixture
def second_engine(engine: Engine) -> Iterator[Engine]:
    """Another connection pool on the same database (and schema): the second replica's."""
    other = create_db_engine(engine.url.render_as_string(hide_password=False))
    yield other
    other.dispose()


@pytest.mark.backends("postgres")
async def test_two_replicas_posting_40_messages_to_one_channel_never_hit_a_429(
    engine: Engine, second_engine: Engine
) -> None:
    first_store, second_store = Store(engine), Store(second_engine)
    keys = queue_plain(first_store, CHANNEL, [f"paced-{i}" for i in range(40)])
    # Slack's real pace, and small claims so both replicas keep taking posts from the same channel.
    config = replace(FAST, channel_interval=1.0, batch_size=4, per_channel=4)
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=1.0) as fake:
        first = relay_for(first_store, fake, config, owner="replica-a")
        second = relay_for(second_store, fake, config, owner="replica-b")
        stats_a, stats_b = await asyncio.gather(first.drain(within=300), second.drain(within=300))

        assert fake.rate_limited == [], "Slack had to answer 429: the replicas paced independently"
        arrivals = fake.received_at("chat.postMessage", CHANNEL)
        assert len(arrivals) == 40
        gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
        assert min(gaps) >= 1.0, f"two posts {min(gaps):.3f} s apart"
        assert keys_in_slack(fake) == dict.fromkeys(keys, 1), "nothing lost, nothing duplicated"
        assert stats_a.posted > 0 and stats_b.posted > 0, "both replicas should have posted"
        assert stats_a.posted + stats_b.posted == 40
        assert set(statuses(first_store).values()) == {POSTED}
