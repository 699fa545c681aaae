"""What Smith counts for Prometheus (prometheus-client), scraped at `/metrics` (smith/web/observe.py).

Counters and histograms are updated where the work happens; the depths of the outbox and the inbox
are read from the database at scrape time (`QueueCollector`), so every replica reports the same
shared queues and a restart loses nothing. Smith's metrics live in their own registry: a test, or a
second app in one process, never meets "Duplicated timeseries".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry()

INGEST_REQUESTS = Counter(
    "smith_ingest_requests",
    "Ingest requests (POST /v1/conversations) by HTTP status",
    ["status"],
    registry=REGISTRY,
)
INGEST_SECONDS = Histogram(
    "smith_ingest_duration_seconds",
    "Time to answer an ingest request (reading, grading, storing)",
    registry=REGISTRY,
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
GRADES = Counter("smith_grades", "Conversations graded and stored, by level", ["level"], registry=REGISTRY)
RELAY_SENDS = Counter(
    "smith_relay_sends",
    "Posts the relay handled, by outcome (posted, retried, failed)",
    ["outcome"],
    registry=REGISTRY,
)
RELAY_ERRORS = Counter(
    "smith_relay_errors",
    "Slack errors met by the relay, by Slack error (or the failure's kind when Slack named none)",
    ["error"],
    registry=REGISTRY,
)
ACKS = Counter(
    "smith_slack_acks",
    "Slack events acknowledged, by outcome (stored in the inbox, duplicate, refused)",
    ["outcome"],
    registry=REGISTRY,
)
ACTS = Counter("smith_acts_recorded", "Human acts recorded (reactions, replies, forms)", registry=REGISTRY)
JOB_RUNS = Counter(
    "smith_job_runs", "Scheduled job runs, by job and outcome", ["job", "outcome"], registry=REGISTRY
)
JOB_SECONDS = Histogram(
    "smith_job_duration_seconds",
    "Duration of scheduled job runs",
    ["job"],
    registry=REGISTRY,
    buckets=(0.1, 0.5, 1, 5, 15, 60, 300, 900),
)
TRACKER_SYNCS = Counter(
    "smith_tracker_syncs",
    "Tickets synced with the tracker, by outcome (new, reopened, closed, updated, failed, postponed)",
    ["outcome"],
    registry=REGISTRY,
)
TRACKER_ERRORS = Counter(
    "smith_tracker_errors",
    "Tracker errors, by kind (error, rate_limited)",
    ["kind"],
    registry=REGISTRY,
)


@dataclass(frozen=True)
class QueueDepths:
    """What the collector reads at each scrape."""

    outbox_by_status: dict[str, int]
    oldest_pending_seconds: float | None
    inbox_by_status: dict[str, int]


class QueueCollector(Collector):
    """Outbox depth by status, the age of the oldest pending post, inbox depth by status: read from the
    database when scraped (`read` is given by the wiring; it runs one short query per queue)."""

    def __init__(self, read: Callable[[], QueueDepths]) -> None:
        self._read = read

    def collect(self) -> Iterator[Metric]:
        depths = self._read()
        outbox = GaugeMetricFamily("smith_outbox_posts", "Posts in the outbox, by status", labels=["status"])
        for status, count in sorted(depths.outbox_by_status.items()):
            outbox.add_metric([status], count)
        yield outbox
        yield GaugeMetricFamily(
            "smith_outbox_oldest_pending_age_seconds",
            "Age of the oldest post waiting to be sent (0 when none waits)",
            value=depths.oldest_pending_seconds or 0.0,
        )
        inbox = GaugeMetricFamily(
            "smith_inbox_events", "Slack events in the inbox, by status", labels=["status"]
        )
        for status, count in sorted(depths.inbox_by_status.items()):
            inbox.add_metric([status], count)
        yield inbox
