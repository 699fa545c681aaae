"""`/metrics` in Prometheus' text format, and the line and counters of each ingest request.

The queue depths are read from the database when scraped, in a worker thread (a scrape never blocks
the event loop on the database); a database that cannot answer leaves them out of that scrape rather
than failing it, so the counters are still collected.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from sqlalchemy import Engine, column, func, select, table
from sqlalchemy.exc import SQLAlchemyError

from gradecore.persistence.listings import post_counts
from smith import metrics
from smith.logs import log_context

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class IngestNote:
    """What the ingest handler learnt about the request, for its log line (filled in as it goes)."""

    conversation_id: str | None = None
    property: str | None = None
    level: str | None = None
    posts: str | None = None


INGEST_NOTE = web.RequestKey("smith_ingest_note", IngestNote)

# Counting a status stops there: a year of delivered posts need not be walked at every scrape.
_COUNT_UP_TO = 100_000
_PENDING = table("slack_posts", column("status"), column("created_at"))
_INBOX = table("slack_events", column("processed_at"), column("parked_at"))


def read_queue_depths(engine: Engine) -> metrics.QueueDepths:
    with engine.connect() as connection:
        outbox = post_counts(connection, up_to=_COUNT_UP_TO)
        oldest = connection.execute(
            select(func.min(_PENDING.c.created_at)).where(_PENDING.c.status == "pending")
        ).scalar_one()
        waiting = connection.execute(
            select(func.count())
            .select_from(_INBOX)
            .where(_INBOX.c.processed_at.is_(None), _INBOX.c.parked_at.is_(None))
        ).scalar_one()
        parked = connection.execute(
            select(func.count()).select_from(_INBOX).where(_INBOX.c.parked_at.is_not(None))
        ).scalar_one()
    age = None
    if oldest is not None:
        since = oldest if oldest.tzinfo is not None else oldest.replace(tzinfo=UTC)
        age = max(0.0, (datetime.now(UTC) - since).total_seconds())
    return metrics.QueueDepths(outbox, age, {"waiting": int(waiting), "parked": int(parked)})


def make_metrics_handler(engine: Engine) -> Handler:
    async def handle_metrics(_request: web.Request) -> web.Response:
        body = generate_latest(metrics.REGISTRY)
        try:
            depths = await asyncio.to_thread(read_queue_depths, engine)
        except SQLAlchemyError as exc:
            log.warning("metrics: queue depths unavailable (%s)", type(exc).__name__)
        else:
            queues = CollectorRegistry()
            queues.register(metrics.QueueCollector(lambda: depths))
            body += generate_latest(queues)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return handle_metrics


def observed_ingest(handler: Handler) -> Handler:
    """The ingest handler with a request id (the caller's X-Request-Id, or a new one) in every log line
    it makes, one INFO line per request, and the request's count and latency."""

    async def handle(request: web.Request) -> web.StreamResponse:
        request_id = request.headers.get("X-Request-Id", "")[:64] or uuid.uuid4().hex[:16]
        started = time.perf_counter()
        note = request[INGEST_NOTE] = IngestNote()
        with log_context(request_id=request_id):
            response = await handler(request)
            seconds = time.perf_counter() - started
            metrics.INGEST_REQUESTS.labels(status=str(response.status)).inc()
            metrics.INGEST_SECONDS.observe(seconds)
            with log_context(conversation_id=note.conversation_id, property=note.property):
                details = "".join(f" · {part}" for part in (note.level, note.posts) if part)
                log.info(
                    "ingest %s → %d in %.0f ms%s",
                    note.conversation_id or "(unread document)",
                    response.status,
                    seconds * 1000,
                    details,
                )
        response.headers["X-Request-Id"] = request_id
        return response

    return handle
