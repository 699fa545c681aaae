"""A stalled PostgreSQL (a TCP proxy that stops forwarding, neither refusing nor closing): Slack's ack
still comes within 3 seconds, `/readyz` says 503 within a few, and nothing acked is lost.

Reproduction from the hardening report: with the database stalled, the Slack ack and `/readyz` each
waited 180 s (no connect, statement or lock timeout, and no deadline on the insert before the ack).
The bounds asserted are the product's own deadlines (2 s for the inbox insert, 3 s for a readiness
check), with room to spare; they do not depend on how fast this machine is.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest
from aiohttp import ClientResponse
from sqlalchemy import Engine

import app as smith_app
from gradecore.persistence.store import Store
from smith.settings import Settings
from smith.web.health import PROBE_DEADLINE_SECONDS
from tests.fakes.slack_api import FakeSlack
from tests.fakes.stalling_proxy import StallingProxy
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, Scene, serving, settings_for

LAMPLITER = "lampliter-unbacked-promise.json"
SLACK_GIVES_UP_AFTER = 3.0  # seconds: Slack's own limit for an ack
# The proxy holds the database until the test resumes it: an answer that waited on the database would
# come only after the resume, minutes later. Every answer during the stall must come well before that;
# the bound is many times each deadline so that a busy machine cannot fail the test, and the deadlines
# themselves are pinned below Slack's limit by test_the_default_deadlines_fit_inside_slacks_limit.
ANSWERED_DURING_THE_STALL = 30.0


@asynccontextmanager
async def scene_behind(proxy: StallingProxy, engine: Engine) -> AsyncIterator[Scene]:
    """Smith talks to PostgreSQL through the proxy; the test reads the database directly."""
    proxied = engine.url.set(host=proxy.host, port=proxy.port).render_as_string(hide_password=False)
    async with FakeSlack.running(post_window_s=0.0) as fake:
        smith = smith_app.build(
            settings_for(proxied, fake, SMITH_DB_CONNECT_TIMEOUT=2, SMITH_INBOX_DEADLINE=2.0)
        )
        async with serving(smith) as client:
            yield Scene(fake, Store(engine), smith, client, proxied)


async def _timed(request: asyncio.Future[ClientResponse] | object) -> tuple[int, float]:
    started = time.monotonic()
    response = await request  # type: ignore[misc]
    await response.read()
    return response.status, time.monotonic() - started


async def _react(scene: Scene, user: str, ts: str, event_id: str, retry_num: int | None = None) -> int:
    body = sr.event_body(sr.reaction(user, "+1", CHANNEL, ts), event_id=event_id)
    raw = sr.json_bytes(body)
    headers = sr.sign("scenario-signing-secret", raw, sr.JSON_TYPE, retry_num=retry_num)
    status, _ = await _timed(scene.client.post("/slack/events", data=raw, headers=headers))
    return status


def test_the_default_deadlines_fit_inside_slacks_limit() -> None:
    # The ack waits for the inbox insert at most this long, whatever the database does.
    assert Settings.model_fields["inbox_deadline_seconds"].default < SLACK_GIVES_UP_AFTER
    assert PROBE_DEADLINE_SECONDS <= SLACK_GIVES_UP_AFTER


@pytest.mark.backends("postgres")
async def test_a_stalled_database_never_holds_the_ack_and_loses_nothing_acked(engine: Engine) -> None:
    host, port = engine.url.host or "127.0.0.1", engine.url.port or 5432
    with StallingProxy(host, port) as proxy:
        async with scene_behind(proxy, engine) as scene:
            posted = await scene.seed(LAMPLITER)
            before = [f"U0A{n}" for n in range(4)]
            during = [f"U0B{n}" for n in range(4)]
            for user in before + during:
                scene.add_grader(user, f"{user.lower()}@example.test")

            # Acked just before the stall: their rows are committed, their processing may not be.
            before_ids = [sr.new_event_id() for _ in before]
            statuses = await asyncio.gather(
                *(_react(scene, u, posted.parent_ts, e) for u, e in zip(before, before_ids, strict=True))
            )
            proxy.stall()
            assert statuses == [200] * len(before)
            waiting_at_stall = len(scene.unprocessed())

            # During the stall: every ack is an error, and it comes before Slack gives up.
            during_ids = [sr.new_event_id() for _ in during]
            answers = await asyncio.gather(
                *(
                    _timed(
                        scene.client.post(
                            "/slack/events",
                            data=(
                                raw := sr.json_bytes(
                                    sr.event_body(sr.reaction(u, "+1", CHANNEL, posted.parent_ts), event_id=e)
                                )
                            ),
                            headers=sr.sign("scenario-signing-secret", raw, sr.JSON_TYPE),
                        )
                    )
                    for u, e in zip(during, during_ids, strict=True)
                )
            )
            assert all(status >= 500 for status, _ in answers), answers
            assert max(elapsed for _, elapsed in answers) < ANSWERED_DURING_THE_STALL, answers

            # /readyz is bounded too: 503 within its deadline, and a second probe does not queue.
            status, elapsed = await _timed(scene.client.get("/readyz"))
            assert status == 503 and elapsed < ANSWERED_DURING_THE_STALL
            again = await scene.client.get("/readyz")
            assert again.status == 503
            assert "database" in (await again.json())["problems"]

            # The database comes back; Slack retries what was answered with an error.
            proxy.resume()
            retried = await asyncio.gather(
                *(
                    _react(scene, u, posted.parent_ts, e, retry_num=1)
                    for u, e in zip(during, during_ids, strict=True)
                )
            )
            assert retried == [200] * len(during)
            # Acked events whose processing failed in the stall wait for the periodic sweep (played
            # here at once instead of after its 30 s interval).
            assert scene.smith.processor is not None
            await scene.smith.processor.process_leftovers(older_than=timedelta(0))
            await scene.settle(within=30)

            recorded = sorted(v.slack_event_id or "" for v in scene.verdicts())
            assert recorded == sorted(before_ids + during_ids)  # each act once: none lost, none doubled
            body = await (await scene.client.get("/readyz")).json()
            assert "database" not in body["problems"]
            print(f"acked before the stall, unprocessed when it began: {waiting_at_stall}/{len(before)}")
            print(
                f"acks during the stall: {[f'{s} in {t:.2f}s' for s, t in answers]}; /readyz {elapsed:.2f}s"
            )


@pytest.mark.backends("postgres")
async def test_ingest_answers_503_in_time_when_the_database_stalls_and_the_retry_stores_it_once(
    engine: Engine,
) -> None:
    """Reproduction: with PostgreSQL stalled, `POST /v1/conversations` waited 180 s. Now it answers 503
    (Retry-After) within its deadline, and the platform's retry after the stall stores the document
    exactly once, whether or not the stalled attempt finished behind the 503."""
    from tests.conftest import load_demo

    host, port = engine.url.host or "127.0.0.1", engine.url.port or 5432
    deadline = 2.0
    with StallingProxy(host, port) as proxy:
        proxied = engine.url.set(host=proxy.host, port=proxy.port).render_as_string(hide_password=False)
        async with FakeSlack.running(post_window_s=0.0) as fake:
            settings = settings_for(
                proxied, fake, SMITH_INGEST_TOKEN="ingest-secret", SMITH_INGEST_DEADLINE=deadline
            )
            smith = smith_app.build(settings)
            async with serving(smith) as client:
                headers = {"Authorization": "Bearer ingest-secret", "Content-Type": "application/json"}
                document = load_demo(LAMPLITER)
                proxy.stall()
                status, elapsed = await _timed(
                    client.post("/v1/conversations", data=document, headers=headers)
                )
                assert status == 503 and elapsed < ANSWERED_DURING_THE_STALL, (status, elapsed)

                proxy.resume()
                retried = await client.post("/v1/conversations", data=document, headers=headers)
                assert retried.status == 202
                assert (await retried.json())["outcome"] in ("new", "unchanged")
    with Store(engine).unit() as unit:
        assert unit.conversations.get("c0a80101-lampliter-0001") is not None
        assert len(unit.grades.for_conversation("c0a80101-lampliter-0001")) == 2  # stored once
