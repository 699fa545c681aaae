"""A backlog in one channel (paced at one message a second) does not hold up other channels' posts."""

from __future__ import annotations

from dataclasses import replace

from gradecore.persistence.store import Store
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import FAST, keys_in_slack, queue_plain, relay_for


async def test_a_fresh_post_in_a_quiet_channel_goes_out_in_the_first_round(store: Store) -> None:
    async with FakeSlack.running(channels=("C0BUSY", "C0QUIET"), post_window_s=0) as fake:
        backlog = queue_plain(store, "C0BUSY", [f"busy-{n}" for n in range(30)])
        [fresh] = queue_plain(store, "C0QUIET", ["quiet-0"])
        relay = relay_for(store, fake, replace(FAST, per_channel=5, batch_size=100))

        first_round = await relay.run_once()

        assert first_round.posted == 6  # five of the backlog, and the quiet channel's post
        assert keys_in_slack(fake)[fresh] == 1
        await relay.drain(within=30)
        assert all(keys_in_slack(fake)[key] == 1 for key in backlog)
