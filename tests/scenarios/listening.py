"""A running Smith for the listening scenarios: the real app from `app.build` behind an aiohttp test
server, talking to the fake Slack Web API, with demo conversations posted so their ts are real.

    async with running_scene(engine) as scene:
        posted = await scene.seed("lampliter-unbacked-promise.json")
        await scene.add_grader("U0ANA", "ana@example.test")
        await scene.react("U0ANA", "+1", posted.parent_ts)
        await scene.settle()
        assert scene.verdicts()[0].signal == "up"

`settle()` is the barrier: the inbox row is written before the ack, so once every request has been
answered, waiting until no inbox row is unprocessed means every act has been handled.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine
from sqlmodel import select

import app as smith_app
from gradecore.model.contract import parse_conversation
from gradecore.persistence.entities import GradeVerdict, MachineGrade, PendingAct, SlackEvent, User
from gradecore.persistence.store import Store
from smith.outbox import RelayStats
from smith.settings import Settings
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.fakes.slack_state import User as SlackUser
from tests.scenarios import slack_requests as sr

SECRET = "scenario-signing-secret"
CHANNEL = "C0APT1"
EVENTS = "/slack/events"


@dataclass(frozen=True)
class Posted:
    """One demo conversation as it landed in Slack: the parent's ts and each flagged turn's ts."""

    conversation_id: str
    parent_ts: str
    turn_ts: dict[str, str]
    parent_grade: MachineGrade
    turn_grades: dict[str, MachineGrade]


def settings_for(database_url: str, fake: FakeSlack, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "SMITH_DATABASE_URL": database_url,
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_BASE_URL": fake.api_url,
        "SMITH_CHANNEL_INTERVAL": 0.01,
        "SMITH_GLOBAL_RATE": 1000,
        # Generous: these scenes test what the listeners do, not how fast a loaded machine's SQLite
        # answers (the stalled-database test sets the product's own deadline).
        "SMITH_INBOX_DEADLINE": 30,
        **extra,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@dataclass
class Scene:
    fake: FakeSlack
    store: Store
    smith: smith_app.Smith
    client: TestClient  # type: ignore[type-arg]
    database_url: str
    event_ids: list[str] = field(default_factory=list)

    # -- requests ---------------------------------------------------------------------------------

    async def post_event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        secret: str = SECRET,
        timestamp: int | None = None,
        signed: bool = True,
    ) -> ClientResponse:
        body = sr.event_body(event, event_id=event_id)
        self.event_ids.append(body["event_id"])
        raw = sr.json_bytes(body)
        headers = sr.sign(secret, raw, sr.JSON_TYPE, timestamp=timestamp, retry_num=retry_num)
        if not signed:
            headers = {"Content-Type": sr.JSON_TYPE}
        response = await self.client.post(EVENTS, data=raw, headers=headers)
        await response.read()
        return response

    async def react(self, user: str, name: str, ts: str, *, added: bool = True, **opts: Any) -> str:
        response = await self.post_event(sr.reaction(user, name, CHANNEL, ts, added=added), **opts)
        assert response.status == 200, await response.text()
        return self.event_ids[-1]

    async def reply(
        self, user: str, thread_ts: str, text: str, *, blocks: list[dict[str, Any]] | None = None
    ) -> str:
        """A person writes in a thread: the message exists in the fake, and Slack sends the event."""
        stored = self.fake.add_message(CHANNEL, text, user=user, thread_ts=thread_ts)
        event = sr.message(user, CHANNEL, stored.ts, text, thread_ts=thread_ts, blocks=blocks)
        response = await self.post_event(event)
        assert response.status == 200, await response.text()
        return stored.ts

    async def interact(self, payload: dict[str, Any]) -> ClientResponse:
        raw = sr.interaction_form(payload)
        response = await self.client.post(EVENTS, data=raw, headers=sr.sign(SECRET, raw, sr.FORM_TYPE))
        await response.read()
        return response

    async def command(self, user: str, text: str, *, key: str = "cmd") -> ClientResponse:
        raw = sr.command_form(user, CHANNEL, text, response_url=self.fake.response_url(key))
        response = await self.client.post(EVENTS, data=raw, headers=sr.sign(SECRET, raw, sr.FORM_TYPE))
        await response.read()
        return response

    # -- arranging --------------------------------------------------------------------------------

    async def seed(self, demo: str) -> Posted:
        """Ingest a flagged demo conversation into the apartment channel; its posts reach the fake."""
        return self.posted(await self.ingest(demo))

    async def ingest(self, demo: str) -> str:
        conversation = parse_conversation(load_demo(demo))
        prop = conversation.property
        with self.store.unit() as unit:
            unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id=CHANNEL)
        self.smith.ingestor.ingest(conversation)
        await self.drain()
        return conversation.conversation_id

    def posted(self, conversation_id: str) -> Posted:
        with self.store.unit() as unit:
            posts = [p for p in unit.outbox.for_conversation(conversation_id) if p.operation == "post"]
            parent = next(p for p in posts if p.kind == "conversation")
            turns = {p.turn_id or "": p.ts or "" for p in posts if p.kind == "turn"}
            grades = {
                p.turn_id or "": unit.grades.get(p.machine_grade_id or "") for p in posts if p.kind == "turn"
            }
            parent_grade = unit.grades.get(parent.machine_grade_id or "")
        assert parent.ts is not None and parent_grade is not None
        return Posted(
            conversation_id,
            parent.ts,
            turns,
            parent_grade,
            {k: v for k, v in grades.items() if v is not None},
        )

    async def drain(self) -> RelayStats:
        assert self.smith.relay is not None
        return await self.smith.relay.drain(within=20.0, idle_sleep=0.01)

    def add_slack_user(
        self, slack_id: str, email: str | None, *, is_bot: bool = False, locale: str = "en-US"
    ) -> None:
        self.fake.add_user(SlackUser(slack_id, slack_id.lower(), email=email, is_bot=is_bot, locale=locale))

    def add_grader(
        self,
        slack_id: str,
        email: str,
        *,
        role: Literal["staff", "engineer", "admin"] = "staff",
        slack_email: str | None = None,
    ) -> User:
        """A staff User, and a Slack account whose profile e-mail matches it (case may differ)."""
        self.add_slack_user(slack_id, slack_email or email)
        with self.store.unit() as unit:
            return unit.users.add(email, slack_id.title(), role)

    # -- reading ----------------------------------------------------------------------------------

    async def settle(self, within: float = 60.0) -> None:
        """Wait until every recorded event has been processed."""
        await wait_until(lambda: not self.unprocessed(), within=within, what="inbox processed")

    async def run_smith(self, *args: str, cwd: Path) -> tuple[int, str, str]:
        """The `smith` command line, in a process of its own, on this scene's database."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "from smith_cli import main; main()",
            *args,
            cwd=cwd,
            env={**os.environ, "SMITH_DATABASE_URL": self.database_url, "COLUMNS": "200"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), 60)
        return process.returncode or 0, out.decode(), err.decode()

    def unprocessed(self) -> list[str]:
        with self.store.unit() as unit:
            rows = unit.session.exec(select(SlackEvent).where(SlackEvent.processed_at == None)).all()  # noqa: E711
            return [row.event_id for row in rows]

    def inbox(self) -> list[SlackEvent]:
        with self.store.unit() as unit:
            return list(unit.session.exec(select(SlackEvent)).all())

    def verdicts(self) -> list[GradeVerdict]:
        with self.store.unit() as unit:
            query = select(GradeVerdict).order_by(GradeVerdict.id)  # type: ignore[arg-type]
            return list(unit.session.exec(query).all())

    def pending(self) -> list[PendingAct]:
        with self.store.unit() as unit:
            return list(unit.session.exec(select(PendingAct)).all())

    def current(self) -> list[GradeVerdict]:
        from gradecore.persistence.store import current_acts

        return current_acts(self.verdicts())


async def wait_until(check: Callable[[], bool], *, within: float = 60.0, what: str = "condition") -> None:
    # Generous on purpose: it returns as soon as `check` holds, and a loaded CI machine must not fail a
    # test that is only slow.
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {within}s waiting for {what}")
        await asyncio.sleep(0.02)


def database_url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


@asynccontextmanager
async def serving(smith: smith_app.Smith) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    client = TestClient(TestServer(smith_app.make_web_app(smith)))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()
        await smith.judge.aclose()
        smith.store.engine.dispose()


@asynccontextmanager
async def running_scene(engine: Engine, **fake_opts: Any) -> AsyncIterator[Scene]:
    fake_opts.setdefault("post_window_s", 0.0)
    async with FakeSlack.running(**fake_opts) as fake:
        url = database_url(engine)
        smith = smith_app.build(settings_for(url, fake))
        async with serving(smith) as client:
            yield Scene(fake, Store(engine), smith, client, url)
