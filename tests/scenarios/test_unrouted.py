"""A property without a channel parks its posts as `unrouted`; mapping a channel delivers them.

`smith properties set --channel` is what staff run: it routes the parked posts and, in live mode,
joins the channel (Smith must be in it to read the replies) or says plainly that it cannot.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import POSTED, UNROUTED
from smith.ingest import Ingestor
from tests.fakes.slack_api import FakeSlack
from tests.scenarios.examples import CHANNELS, demo
from tests.smith.outbox.harness import keys_in_slack, relay_for, statuses

CHANNEL = CHANNELS["lampliter"]


async def test_posts_wait_unrouted_until_a_channel_is_mapped(store: Store) -> None:
    result = Ingestor(store).ingest(demo("lampliter-unbacked-promise"))
    assert result.parked and result.posts_queued == 2
    assert set(statuses(store).values()) == {UNROUTED}
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        relay = relay_for(store, fake)
        assert (await relay.drain(within=1)).posted == 0
        assert fake.calls == []

        with store.unit() as unit:
            unit.properties.set("lampliter", channel_id=CHANNEL)
            assert unit.outbox.route_parked("lampliter", CHANNEL) == 2
        stats = await relay.drain(within=10)

        assert stats.posted == 2
        assert set(statuses(store).values()) == {POSTED}
        (parent,) = fake.top_level(CHANNEL)
        assert len(fake.thread(CHANNEL, parent.ts)) == 2
        assert set(keys_in_slack(fake).values()) == {1}


async def test_smith_properties_set_routes_parked_posts_and_joins_the_channel(
    store: Store, tmp_path: Path
) -> None:
    Ingestor(store).ingest(demo("lampliter-unbacked-promise"))
    async with FakeSlack.running(channels=[CHANNEL], member_of=[], post_window_s=0) as fake:
        code, out, err = await _smith(
            store, fake, tmp_path, "properties", "set", "lampliter", "--channel", CHANNEL
        )

        assert code == 0, err
        assert "2 waiting posts queued" in out and f"joined {CHANNEL}" in out
        assert fake.calls_to("conversations.join") == [{"channel": CHANNEL}]
        assert fake.channel(CHANNEL).is_member
        stats = await relay_for(store, fake).drain(within=10)
        assert stats.posted == 2
        assert len(fake.messages(CHANNEL)) == 2


async def test_smith_properties_set_says_when_it_cannot_join(store: Store, tmp_path: Path) -> None:
    Ingestor(store).ingest(demo("lampliter-unbacked-promise"))
    async with FakeSlack.running(channels=[], post_window_s=0) as fake:
        code, _out, err = await _smith(
            store, fake, tmp_path, "properties", "set", "lampliter", "--channel", "C0PRIVATE"
        )

        assert code == 0  # the mapping is saved; joining is Slack's side of the job
        assert "could not join C0PRIVATE" in err and "/invite" in err
        assert "Traceback" not in err
        with store.unit() as unit:
            assert unit.properties.require("lampliter").slack_channel_id == "C0PRIVATE"


async def _smith(store: Store, fake: FakeSlack, cwd: Path, *args: str) -> tuple[int, str, str]:
    """Run the real `smith` entry point in a subprocess against this store and the fake Slack."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SMITH_", "SLACK_", "ANTHROPIC_"))}
    env |= {
        "SMITH_DATABASE_URL": store.engine.url.render_as_string(hide_password=False),
        "SMITH_POST_MODE": "live",
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_API_BASE_URL": fake.api_url,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from smith_cli import main; main()",
        *args,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    return process.returncode or 0, out.decode(), err.decode()
