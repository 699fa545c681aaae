"""`smith serve` in Socket Mode, against the fake Slack's WebSocket: events arrive and are acked over the
socket, and stopping Smith closes the socket (a close frame, as Slack expects) rather than dropping it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from aiohttp import WSCloseCode
from sqlmodel import Session

from gradecore.persistence.db import create_db_engine
from gradecore.persistence.entities import SlackEvent
from tests.fakes.slack_api import FakeSlack, SocketSession
from tests.scenarios.slack_requests import event_body, reaction
from tests.smith.cli.runner import database_url
from tests.smith.cli.serving import serve_environment, serve_until_serving

# Generous bounds on waits that normally take milliseconds: the machine is shared with other runs.
SOCKET_WAIT_S = 30.0


def socket_mode_environment(workdir: Path, fake: FakeSlack) -> dict[str, str]:
    return serve_environment(
        workdir,
        SLACK_BOT_TOKEN=fake.bot_token,
        SLACK_APP_TOKEN=fake.app_token,
        SLACK_API_BASE_URL=fake.api_url,
        SMITH_INGEST_TOKEN="ingest-token-socket-mode",
    )


async def test_stopping_smith_closes_its_socket_mode_connection(workdir: Path) -> None:
    async with FakeSlack.running() as fake:
        opened: list[SocketSession] = []

        async def until_connected() -> None:
            async with asyncio.timeout(SOCKET_WAIT_S):
                opened.append(await fake.socket_session())

        ended = await serve_until_serving(workdir, socket_mode_environment(workdir, fake), until_connected)
        [session] = opened
        # The process has exited; the fake's side of the socket has ended too, or is about to.
        async with asyncio.timeout(SOCKET_WAIT_S):
            await session.ended.wait()
        assert len(fake.socket_mode.sessions) == 1  # no reconnection while stopping
    assert "Traceback" not in ended.stderr, ended.stderr
    assert ended.code == 0, ended.stderr
    # A close frame from Smith: the connection was closed, not dropped when the process went away.
    assert not session.closed_by_fake
    assert session.client_close_code == WSCloseCode.OK, ended.stderr


async def test_an_event_delivered_over_the_socket_is_recorded_then_acked(workdir: Path) -> None:
    body = event_body(reaction("U0MARIA", "+1", "C0APT1", f"{time.time():.6f}"))
    acks: list[dict[str, object]] = []
    async with FakeSlack.running() as fake:

        async def deliver_one_event() -> None:
            async with asyncio.timeout(SOCKET_WAIT_S):
                session = await fake.socket_session()
                await session.send_envelope(body, envelope_id="envelope-reaction-1")
                acks.append(await session.ack_of("envelope-reaction-1"))

        ended = await serve_until_serving(workdir, socket_mode_environment(workdir, fake), deliver_one_event)
    assert "Traceback" not in ended.stderr, ended.stderr
    assert acks == [{"envelope_id": "envelope-reaction-1"}]
    # Acked only once recorded: the event is in the inbox Smith keeps in its database.
    engine = create_db_engine(database_url(workdir))
    try:
        with Session(engine) as db:
            recorded = db.get(SlackEvent, body["event_id"])
    finally:
        engine.dispose()
    assert recorded is not None
    assert recorded.kind == "reaction_added"
