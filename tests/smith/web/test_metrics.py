"""Issue 24, point 3: `/metrics` in Prometheus' format, scraped from the real app: ingest requests and
latency, grades by level, the outbox by status and its oldest pending post, the inbox; the relay's
sends and its errors by Slack error, through the fake Slack. Counters are compared before and after,
as Prometheus reads them (they only grow)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

import app as wiring
from gradecore.persistence.store import Store
from smith.outbox import Relay
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import FAST, live_transport, queue_plain
from tests.smith.web.conftest import AUTH

Client = TestClient[web.Request, web.Application]
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
async def client(smith: wiring.Smith) -> AsyncIterator[Client]:
    async with TestClient(TestServer(wiring.make_web_app(smith))) as running:
        yield running


async def scrape(client: Client) -> Samples:
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=")  # Prometheus text format
    samples: Samples = {}
    for family in text_string_to_metric_families(await response.text()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_an_ingest_shows_in_the_counters_and_the_outbox_gauges(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    before = await scrape(client)
    assert value(before, "smith_outbox_oldest_pending_age_seconds") == 0.0

    with caplog.at_level(logging.INFO, logger="smith.web.observe"):
        response = await client.post(
            "/v1/conversations",
            data=load_demo("lampliter-unbacked-promise.json"),
            headers={**AUTH, "X-Request-Id": "req-42"},
        )
    assert response.status == 202 and response.headers["X-Request-Id"] == "req-42"
    after = await scrape(client)

    assert (
        value(after, "smith_ingest_requests_total", status="202")
        - value(before, "smith_ingest_requests_total", status="202")
        == 1
    )
    assert (
        value(after, "smith_ingest_duration_seconds_count")
        - value(before, "smith_ingest_duration_seconds_count")
        == 1
    )
    assert (
        value(after, "smith_grades_total", level="block") - value(before, "smith_grades_total", level="block")
        == 1
    )
    # Lampliter has no channel yet: its two posts wait as unrouted; nothing is pending.
    assert value(after, "smith_outbox_posts", status="unrouted") == 2
    assert value(after, "smith_outbox_posts", status="pending") == 0
    assert value(after, "smith_inbox_events", status="waiting") == 0
    [line] = [r for r in caplog.records if r.getMessage().startswith("ingest c0a80101-lampliter-0001")]
    assert "→ 202 in " in line.getMessage()
    assert "block · 2 post(s) parked until the property has a channel" in line.getMessage()


async def test_an_unauthorised_ingest_is_counted_by_its_status(client: Client) -> None:
    before = await scrape(client)
    assert (await client.post("/v1/conversations", data=b"{}")).status == 401
    after = await scrape(client)
    assert (
        value(after, "smith_ingest_requests_total", status="401")
        - value(before, "smith_ingest_requests_total", status="401")
        == 1
    )


async def test_relay_sends_and_slack_errors_are_counted(client: Client, store: Store) -> None:
    before = await scrape(client)
    async with FakeSlack.running(channels=["C0APT"], post_window_s=0) as fake:
        queue_plain(store, "C0APT", ["metric-0", "metric-1"])
        queue_plain(store, "C0GONE", ["metric-2"])  # no such channel: channel_not_found
        await Relay(store, live_transport(fake), FAST).drain(within=10)
    after = await scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("smith_relay_sends_total", outcome="posted") == 2
    assert grew("smith_relay_sends_total", outcome="failed") == 1
    assert grew("smith_relay_errors_total", error="channel_not_found") == 1
    assert value(after, "smith_outbox_posts", status="posted") == 2
    assert value(after, "smith_outbox_posts", status="failed") == 1
