"""How events arrive: Slack's retries, many graders at once, forged or stale requests, and a crash
between the ack and the work (docs/slack-endpoint.md: nothing acked is lost, nothing is counted twice)."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine

import app as smith_app
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, SECRET, running_scene, serving, settings_for

LAMPLITER = "lampliter-unbacked-promise.json"


async def test_slack_retries_of_one_event_write_one_row(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        event = sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts)
        for retry in (None, 1, 2):
            response = await scene.post_event(event, event_id="Ev0RETRIED", retry_num=retry)
            assert response.status == 200
            await scene.settle()

        assert len(scene.inbox()) == 1
        assert [(v.signal, v.slack_event_id) for v in scene.verdicts()] == [("up", "Ev0RETRIED")]


async def test_copies_of_one_event_arriving_together_write_one_row(engine: Engine) -> None:
    """Two replicas (or a retry racing the original) record the same event_id at once."""
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        event = sr.reaction("U0ANA", "-1", CHANNEL, posted.turn_ts["t1"])
        responses = await asyncio.gather(
            *(scene.post_event(event, event_id="Ev0RACED", retry_num=n or None) for n in range(5))
        )
        assert {r.status for r in responses} == {200}
        await scene.settle()

        assert len(scene.inbox()) == 1
        assert [v.signal for v in scene.verdicts()] == ["down"]


async def test_fifty_graders_reacting_at_once_write_fifty_rows(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        users = [f"U0P{n:03d}" for n in range(50)]
        for n, slack_id in enumerate(users):
            scene.add_grader(slack_id, f"Person{n}@Example.test", slack_email=f"person{n}@example.TEST")
        # Fifty acks at once (how fast is the benches' business: bench/events.py).
        responses = await asyncio.gather(
            *(scene.post_event(sr.reaction(u, "+1", CHANNEL, posted.parent_ts)) for u in users)
        )
        assert {r.status for r in responses} == {200}
        await scene.settle(within=30)

        rows = scene.verdicts()
        assert len(rows) == 50
        assert len({row.grader_user_id for row in rows}) == 50
        assert {row.signal for row in rows} == {"up"}


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param({"secret": "not-the-signing-secret"}, id="forged"),
        pytest.param({"signed": False}, id="unsigned"),
        # Offsets, not timestamps: parameters are built at collection, minutes before the test runs.
        pytest.param({"timestamp_offset": -301}, id="stale"),
        pytest.param({"timestamp_offset": +400}, id="from-the-future"),
    ],
)
async def test_unverifiable_requests_are_rejected_before_any_work(engine: Engine, tamper: Any) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        calls_before = len(scene.fake.calls)
        if "timestamp_offset" in tamper:
            tamper = {"timestamp": int(time.time()) + tamper["timestamp_offset"]}
        response = await scene.post_event(sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts), **tamper)

        assert response.status == 401
        await asyncio.sleep(0.2)  # give any (wrongly) started background work a chance to show
        assert scene.inbox() == []
        assert scene.verdicts() == []
        assert len(scene.fake.calls) == calls_before  # not even users.info or auth.test


async def test_a_body_altered_after_signing_is_rejected(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        raw = sr.json_bytes(sr.event_body(sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts)))
        headers = sr.sign(SECRET, raw, sr.JSON_TYPE)
        altered = raw.replace(b'"+1"', b'"-1"')
        response = await scene.client.post("/slack/events", data=altered, headers=headers)

        assert response.status == 401
        assert scene.inbox() == []


async def test_an_event_acked_before_a_crash_is_recorded_after_restart(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        assert scene.smith.processor is not None
        died = asyncio.Event()

        async def dies_after_the_ack(event_id: str, **carried: Any) -> str:
            died.set()  # the process is killed here: acked, recorded, never processed
            return "killed"

        scene.smith.processor.process = dies_after_the_ack  # type: ignore[method-assign]
        event_id = await scene.react("U0ANA", "+1", posted.parent_ts)
        await asyncio.wait_for(died.wait(), timeout=5)
        assert scene.verdicts() == []
        assert [row.event_id for row in scene.inbox() if row.processed_at is None] == [event_id]

        # A fresh process on the same database does what start-up does: process the leftovers.
        restarted = smith_app.build(settings_for(scene.database_url, scene.fake))
        async with serving(restarted) as client:
            assert restarted.processor is not None
            assert await restarted.processor.process_leftovers(older_than=timedelta(0)) == 1
            assert await restarted.processor.process_leftovers(older_than=timedelta(0)) == 0
            # Slack retrying the same event at the new process changes nothing either.
            raw = sr.json_bytes(
                sr.event_body(sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts), event_id=event_id)
            )
            response = await client.post(
                "/slack/events", data=raw, headers=sr.sign(SECRET, raw, sr.JSON_TYPE, retry_num=1)
            )
            assert response.status == 200
            await scene.settle()

        rows = scene.verdicts()
        assert [(row.signal, row.slack_event_id) for row in rows] == [("up", event_id)]
        assert scene.unprocessed() == []


async def test_a_processing_error_leaves_the_event_for_the_retry_pass(engine: Engine) -> None:
    """users.info failing (Slack down) must not lose the act: the row stays unprocessed, and the
    next retry pass records it once Slack answers again."""
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        scene.fake.fail_next("users.info", "http_500")
        event_id = await scene.react("U0ANA", "+1", posted.parent_ts)
        await asyncio.sleep(0.3)
        assert scene.verdicts() == []

        assert scene.smith.processor is not None
        assert scene.pending() == []  # a Slack outage does not make a linked grader "unlinked"
        assert scene.fake.ephemerals == []
        assert scene.unprocessed() == [event_id]
        await scene.smith.processor.process_leftovers(older_than=timedelta(0))
        assert [(row.signal, row.slack_event_id) for row in scene.verdicts()] == [("up", event_id)]
