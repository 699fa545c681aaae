"""Benchmark: Smith's Slack endpoint beside a no-op Bolt app, measured side by side in one run.

Both servers are real aiohttp servers on 127.0.0.1 (AppRunner + TCPSite) behind the same Bolt
adapter and signature check; one is Smith as `app.build` wires it (PostgreSQL inbox insert before the
ack, act processing after it), the other a Bolt app whose reaction listener does nothing. A client
session sends the same signed `reaction_added`/`reaction_removed` events to each at a fixed
concurrency and times every request until its ack. Prints events/second and p50/p99 time to ack for
both, their ratio, and how long Smith took to finish processing what it acked.

The events go in rounds, alternating the apps (no-op, Smith, no-op, Smith…; each round's share of the
events to each), so a busy neighbour on the machine slows both alike instead of deciding the ratio;
after each Smith round its processing is let finish, so it never runs under the next no-op round.
The ratio is printed over all rounds and as the median of the per-round ratios.

Goal: p99 ack under 100 ms, and at least half the no-op app's throughput.

    .venv/bin/python -m bench.events [--events 2000] [--rounds 8] [--concurrency 32] [--no-gc-freeze]
        [--postgres-url URL] [--database smith_bench_events]

Both apps share the process, so the start-up heap is frozen (`gc.freeze()`) after start-up, as a
server does once it is up; `--no-gc-freeze` measures without it.

Uses its own PostgreSQL database (`smith_bench_events`, created on the server `--postgres-url` names and
dropped afterwards; never the tests' database) and the fake Slack Web API from the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from aiohttp import ClientSession, TCPConnector, web
from slack_bolt.async_app import AsyncApp
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlmodel import col, func, select

import app as smith_app
from gradecore.model.contract import parse_conversation
from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.entities import GradeVerdict, SlackEvent
from gradecore.persistence.store import Store
from handlers.slack_app import mount
from smith.settings import Settings
from smith.wiring import build_read_client
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.fakes.slack_state import User as SlackUser
from tests.scenarios import slack_requests as sr

SECRET = "bench-signing-secret"
CHANNEL = "C0BENCH"
GRADERS = 200
P99_GOAL_MS = 100.0
THROUGHPUT_GOAL = 0.5
_WARMUP = 64
_DATABASE = "smith_bench_events"


@dataclass(frozen=True)
class Run:
    name: str
    events: int
    seconds: float
    acks_ms: list[float]
    statuses: dict[int, int]

    @property
    def per_second(self) -> float:
        return self.events / self.seconds

    def percentile(self, q: float) -> float:
        return statistics.quantiles(self.acks_ms, n=100, method="inclusive")[int(q) - 1]

    def line(self) -> str:
        return (
            f"{self.name:<8} {self.per_second:8.0f} events/s   p50 {self.percentile(50):6.1f} ms   "
            f"p99 {self.percentile(99):6.1f} ms   statuses {self.statuses}"
        )

    @classmethod
    def combined(cls, runs: list[Run]) -> Run:
        """The rounds of one app as one run: all its events over the time spent sending them."""
        statuses: dict[int, int] = {}
        for run in runs:
            for status, count in run.statuses.items():
                statuses[status] = statuses.get(status, 0) + count
        return cls(
            runs[0].name,
            sum(run.events for run in runs),
            sum(run.seconds for run in runs),
            [ms for run in runs for ms in run.acks_ms],
            statuses,
        )


async def _serve(application: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return runner, f"http://127.0.0.1:{port}/slack/events"


def _noop_app(fake: FakeSlack) -> web.Application:
    bolt = AsyncApp(
        client=build_read_client(fake.bot_token, base_url=fake.api_url),
        signing_secret=SECRET,
        raise_error_for_unhandled_request=False,
    )

    async def handle_noop(ack: Callable[[], Awaitable[None]]) -> None:
        await ack()

    for event_type in ("reaction_added", "reaction_removed"):
        bolt.event(event_type)(handle_noop)
    application = web.Application()
    mount(bolt, SECRET)(application)
    return application


def _bodies(count: int, targets: list[str]) -> list[bytes]:
    """Each grader 👍s, 👎s and takes reactions back, over the parent and the thread reply."""
    emoji = itertools.cycle(["+1", "-1::skin-tone-3", "thumbsup", "+1"])
    bodies = []
    for n in range(count):
        user = f"U0B{n % GRADERS:04d}"
        added = (n // GRADERS) % 3 != 2
        event = sr.reaction(user, next(emoji), CHANNEL, targets[n % len(targets)], added=added)
        bodies.append(sr.json_bytes(sr.event_body(event, event_id=f"EvB{uuid.uuid4().hex[:16]}")))
    return bodies


async def _load(name: str, url: str, bodies: list[bytes], concurrency: int) -> Run:
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)
    acks: list[float] = []
    statuses: dict[int, int] = {}
    async with ClientSession(connector=TCPConnector(limit=concurrency)) as session:

        async def worker() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                headers = sr.sign(SECRET, body, sr.JSON_TYPE)
                started = time.perf_counter()
                async with session.post(url, data=body, headers=headers) as response:
                    await response.read()
                acks.append((time.perf_counter() - started) * 1000)
                statuses[response.status] = statuses.get(response.status, 0) + 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        seconds = time.perf_counter() - started
    return Run(name, len(bodies), seconds, acks, statuses)


def _counts(store: Store) -> tuple[int, int]:
    with store.unit() as unit:
        pending = unit.session.exec(
            select(func.count()).select_from(SlackEvent).where(col(SlackEvent.processed_at).is_(None))
        ).one()
        verdicts = unit.session.exec(select(func.count()).select_from(GradeVerdict)).one()
    return int(pending), int(verdicts)


async def _bench(url: str, events: int, rounds: int, concurrency: int, *, freeze_heap: bool) -> None:
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0.0) as fake:
        for n in range(GRADERS):
            fake.add_user(SlackUser(f"U0B{n:04d}", f"grader{n}", email=f"grader{n}@example.test"))
        settings = Settings.model_validate(
            {
                "SMITH_DATABASE_URL": url,
                "SLACK_BOT_TOKEN": fake.bot_token,
                "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_BASE_URL": fake.api_url,
                "SMITH_CHANNEL_INTERVAL": 0.001,
                "SMITH_GLOBAL_RATE": 10_000,
            }
        )
        smith = smith_app.build(settings)
        targets = await _seed(smith, fake)
        if freeze_heap:
            # What a long-running server does once started: the start-up heap (modules, models,
            # caches — ~300k objects) leaves the collector's view, so a full collection during a
            # burst takes a few ms instead of ~150 ms of stalled acks.
            gc.collect()
            gc.freeze()
        smith_runner, smith_url = await _serve(smith_app.make_web_app(smith))
        noop_runner, noop_url = await _serve(_noop_app(fake))
        try:
            for name, endpoint in (("no-op", noop_url), ("smith", smith_url)):
                await _load(name, endpoint, _bodies(_WARMUP, targets), concurrency)
            await _wait_processed(smith.store, within=60)
            noop_rounds: list[Run] = []
            smith_rounds: list[Run] = []
            processed_in = 0.0
            for share in _shares(events, rounds):
                noop_rounds.append(await _load("no-op", noop_url, _bodies(share, targets), concurrency))
                started = time.perf_counter()
                smith_rounds.append(await _load("smith", smith_url, _bodies(share, targets), concurrency))
                await _wait_processed(smith.store, within=300)
                processed_in += time.perf_counter() - started
        finally:
            await smith_runner.cleanup()
            await noop_runner.cleanup()
            await smith.judge.aclose()
            smith.store.engine.dispose()
        _report(noop_rounds, smith_rounds, processed_in, _counts(smith.store)[1], concurrency)


def _shares(events: int, rounds: int) -> list[int]:
    """`events` split over `rounds` as evenly as whole events allow."""
    return [events // rounds + (1 if n < events % rounds else 0) for n in range(rounds)]


async def _seed(smith: smith_app.Smith, fake: FakeSlack) -> list[str]:
    conversation = parse_conversation(load_demo("lampliter-unbacked-promise.json"))
    with smith.store.unit() as unit:
        prop = conversation.property
        unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id=CHANNEL)
        for n in range(GRADERS):
            unit.users.add(f"grader{n}@example.test", f"Grader {n}")
    smith.ingestor.ingest(conversation)
    assert smith.relay is not None
    await smith.relay.drain(within=30.0, idle_sleep=0.01)
    return [m.ts for m in fake.messages(CHANNEL)]


async def _wait_processed(store: Store, *, within: float) -> None:
    deadline = time.monotonic() + within
    while (await asyncio.to_thread(_counts, store))[0]:
        if time.monotonic() > deadline:
            raise SystemExit(f"events still unprocessed after {within:.0f}s")
        await asyncio.sleep(0.05)


def _report(
    noop_rounds: list[Run], smith_rounds: list[Run], processed_in: float, verdicts: int, concurrency: int
) -> None:
    noop, smith = Run.combined(noop_rounds), Run.combined(smith_rounds)
    ratio = smith.per_second / noop.per_second
    per_round = [b.per_second / a.per_second for a, b in zip(noop_rounds, smith_rounds, strict=True)]
    p99 = smith.percentile(99)
    print(
        f"{smith.events} signed reaction events per app in {len(smith_rounds)} alternating rounds, "
        f"concurrency {concurrency}, PostgreSQL inbox"
    )
    print(noop.line())
    print(smith.line())
    print(f"throughput ratio smith/no-op: {ratio:.2f} (goal ≥ {THROUGHPUT_GOAL:.2f})")
    print(
        f"per round: median {statistics.median(per_round):.2f}, min {min(per_round):.2f}, "
        f"max {max(per_round):.2f} ({' '.join(f'{r:.2f}' for r in per_round)})"
    )
    print(f"smith p99 time to ack: {p99:.1f} ms (goal < {P99_GOAL_MS:.0f} ms)")
    print(
        f"smith acked and processed all {smith.events} in {processed_in:.2f} s "
        f"({smith.events / processed_in:.0f} events/s end to end; {verdicts} verdict rows in total)"
    )
    met = ratio >= THROUGHPUT_GOAL and p99 < P99_GOAL_MS
    print("goal met" if met else "goal NOT met")


@contextmanager
def _own_database(server_url: str, name: str) -> Iterator[str]:
    """A database of the bench's own on that server, created empty (a leftover of an interrupted run is
    dropped first) and dropped afterwards; yields its URL."""
    server = make_url(server_url)
    admin = create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=2000, help="events per app, over all rounds")
    parser.add_argument(
        "--rounds", type=int, default=8, help="alternating rounds (no-op, Smith) to split them into"
    )
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--no-gc-freeze", action="store_true", help="leave the start-up heap to the garbage collector"
    )
    parser.add_argument(
        "--postgres-url",
        default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
        help="the PostgreSQL server (its database part is ignored)",
    )
    parser.add_argument("--database", default=_DATABASE, help="the bench's own database, created and dropped")
    args = parser.parse_args()
    if not 1 <= args.rounds <= args.events:
        parser.error("--rounds must be between 1 and --events")

    with _own_database(args.postgres_url, args.database) as url:
        engine = create_db_engine(url)
        upgrade(engine)
        engine.dispose()
        asyncio.run(
            _bench(url, args.events, args.rounds, args.concurrency, freeze_heap=not args.no_gc_freeze)
        )


if __name__ == "__main__":
    main()
