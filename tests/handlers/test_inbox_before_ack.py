"""The events listener's contract with Slack: the raw event is durably in the inbox before the ack,
the work happens after it, and an event that could not be recorded is not acked (Slack retries)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Engine, text

from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, running_scene


async def test_the_ack_comes_after_the_insert_and_before_the_work(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed("lampliter-unbacked-promise.json")
        scene.add_grader("U0ANA", "ana@example.test")
        assert scene.smith.processor is not None
        release, started = asyncio.Event(), asyncio.Event()
        real_process = scene.smith.processor.process

        async def slow_process(event_id: str, **carried: Any) -> str:
            started.set()
            await release.wait()  # the database is slow today
            return await real_process(event_id, **carried)

        scene.smith.processor.process = slow_process  # type: ignore[method-assign]
        response = await asyncio.wait_for(
            scene.post_event(sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts)), timeout=3
        )
        assert response.status == 200
        assert [row.event_id for row in scene.inbox()] == scene.event_ids  # recorded before the ack
        await asyncio.wait_for(started.wait(), timeout=3)
        assert scene.verdicts() == []  # ...and the work had not happened when Slack got its ack

        release.set()
        await scene.settle()
        assert [v.signal for v in scene.verdicts()] == ["up"]


async def test_an_event_that_cannot_be_recorded_is_not_acked(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed("lampliter-unbacked-promise.json")
        scene.add_grader("U0ANA", "ana@example.test")
        with engine.begin() as connection:  # the inbox is unusable (a broken deploy, a full disk…)
            connection.execute(text("ALTER TABLE slack_events RENAME TO slack_events_gone"))
        try:
            response = await scene.post_event(sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts))
            assert response.status >= 500  # Slack will deliver it again
        finally:
            with engine.begin() as connection:
                connection.execute(text("ALTER TABLE slack_events_gone RENAME TO slack_events"))
        assert scene.verdicts() == []

        # Slack's retry, once the inbox is back, is recorded and processed.
        retry = scene.event_ids[-1]
        event = sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts)
        assert (await scene.post_event(event, event_id=retry, retry_num=1)).status == 200
        await scene.settle()
        assert [v.slack_event_id for v in scene.verdicts()] == [retry]
