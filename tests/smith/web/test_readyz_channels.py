"""`/readyz` names the mapped channels Smith is not a member of (it cannot read their threads)."""

from __future__ import annotations

from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine

import app as wiring
from tests.fakes.slack_api import FakeSlack
from tests.smith.web.conftest import settings_for


async def test_readyz_lists_channels_the_bot_is_not_in(engine: Engine, tmp_path: Path) -> None:
    async with FakeSlack.running(channels=("C0JOINED", "C0NOTIN"), member_of=("C0JOINED",)) as fake:
        settings = settings_for(
            engine,
            tmp_path,
            SLACK_BOT_TOKEN=fake.bot_token,
            SLACK_SIGNING_SECRET="test-signing-secret",
            SLACK_API_BASE_URL=fake.api_url,
        )
        smith = wiring.build(settings)
        with smith.store.unit() as unit:
            unit.properties.set(
                "camellia", name="Camellia", timezone="America/Los_Angeles", channel_id="C0JOINED"
            )
            unit.properties.set(
                "birchwood", name="Birchwood", timezone="America/Denver", channel_id="C0NOTIN"
            )
            unit.properties.set(
                "oakridge", name="Oakridge", timezone="America/Denver", channel_id="C0MISSING"
            )
        async with TestClient(TestServer(wiring.make_web_app(smith))) as client:
            body = await (await client.get("/readyz")).json()
        assert body["channels_not_joined"] == ["C0MISSING", "C0NOTIN"]
        assert len(fake.calls_to("conversations.info")) == 3
        smith.store.engine.dispose()
