"""Benchmark: every daily and interactive read at a year of traffic (1,000,000 machine grades).

Builds once (bench/scale_data.py: 200 properties over 365 days, real grading output, ~52,000 verdicts,
~187,000 posts) a PostgreSQL database of its own, `smith_bench_scale` beside the one in
SMITH_BENCH_POSTGRES_URL, kept in a schema named by the data's version and reused while it is complete.
Then, in one run and in-process (start-up excluded), it times each read as min / median / max of
repeated calls and prints it against its goal: 50 ms for a daily or interactive read, 2 s for the
200-property tally tick, 5 s for the weekly digest, 1 s (and its tracemalloc peak) for
`smith agreement --since` a year; and the relay's `claim_due` at a 1,000-post and a 100,000-post
backlog, side by side.

    .venv/bin/python bench/scale.py [--repeat 7] [--rebuild]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from contextlib import redirect_stdout
from datetime import UTC, date, datetime, timedelta
from typing import Any

from scale_data import DAYS, START, ensure_database, open_scale_database
from sqlalchemy import Engine, event, text
from sqlmodel import Session

from gradecore.persistence import listings
from gradecore.persistence.db import create_db_engine
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import OutboxRepo
from smith.calibration.disagreements import digest_lines as disagreement_digest_lines
from smith.cli.outbox import COUNT_UP_TO
from smith.listening.command import stats_text
from smith.reports.digest import digest_sections
from smith.reports.meaning_reads import agreement_counts
from smith.reports.tally import compose_tally

ADMIN_URL = os.environ.get("SMITH_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
NOW = START + timedelta(days=DAYS)  # the end of the year of data
READ_GOAL = 0.050


def timed(call: Callable[[], object], repeat: int) -> list[float]:
    call()  # warm: plans, caches, connections
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - started)
    return seconds


def line(name: str, seconds: list[float], goal: float, note: str = "") -> None:
    low, middle, high = min(seconds), statistics.median(seconds), max(seconds)
    verdict = "ok" if middle < goal else "OVER"
    print(
        f"{name:<44} min {low * 1000:8.1f} ms · median {middle * 1000:8.1f} ms · max {high * 1000:8.1f} ms"
        f"   goal < {goal * 1000:,.0f} ms: {verdict}{note}"
    )


def plans(engine: Engine, name: str, call: Callable[[], object]) -> None:
    """Print the PostgreSQL plan (EXPLAIN ANALYZE) of each distinct statement `call` runs."""
    seen: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if statement.lstrip().upper().startswith("SELECT") and all(s != statement for s, _ in seen):
            seen.append((statement, params))

    event.listen(engine, "before_cursor_execute", record)
    try:
        call()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    print(f"\n### {name}\n")
    with engine.connect() as connection:
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        for statement, params in seen:
            cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + statement, params)
            print("```\n" + "\n".join(row[0] for row in cursor.fetchall()) + "\n```")


def smith_agreement(since: date) -> str:
    """`smith agreement --since … --json`, in-process, as a person runs it."""
    from smith.cli.slack import agreement

    out = io.StringIO()
    with redirect_stdout(out):
        agreement(since=since.isoformat(), by="grader", as_json=True)
    return out.getvalue()


def claim_at_backlog(engine: Engine, backlog: int, repeat: int) -> list[float]:
    """`claim_due` (50 posts, 10 per channel) with `backlog` posts pending, each claim rolled back."""
    with engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE slack_posts SET status = 'pending', next_attempt_at = created_at "
                "WHERE id IN (SELECT id FROM slack_posts ORDER BY id LIMIT :n)"
            ),
            {"n": backlog},
        )
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("ANALYZE slack_posts"))

    def claim() -> None:
        with Session(engine) as session:
            claimed = OutboxRepo(session).claim_due(
                "bench-relay", now=NOW + timedelta(days=1), lease=timedelta(seconds=15)
            )
            assert len(claimed) == 50, len(claimed)
            session.rollback()

    try:
        return timed(claim, repeat)
    finally:
        with engine.begin() as connection:
            connection.execute(text("UPDATE slack_posts SET status = 'posted' WHERE status = 'pending'"))
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM ANALYZE slack_posts"))  # as autovacuum would, for the next run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--plans", action="store_true", help="print each read's EXPLAIN ANALYZE instead")
    args = parser.parse_args()
    repeat: int = args.repeat

    database = open_scale_database(ensure_database(ADMIN_URL, "smith_bench_scale"), rebuild=args.rebuild)
    if database.built_seconds is not None:
        print(f"built {database.schema} in {database.built_seconds:.0f} s")
    os.environ["SMITH_DATABASE_URL"] = database.url
    engine = create_db_engine(database.url)
    store = Store(engine)
    with engine.connect() as connection:
        sizes = {
            table: connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("machine_grades", "grade_verdicts", "fixtures", "slack_posts", "properties")
        }
    print(" · ".join(f"{table} {count:,}" for table, count in sizes.items()))

    day = (NOW - timedelta(days=2)).date()
    with store.unit() as unit:
        properties = list(unit.properties.list())
        busy, typical = unit.properties.require("p000"), unit.properties.require("p101")

    def tally(prop: Any) -> Callable[[], object]:
        def run() -> object:
            with store.unit() as unit:
                return compose_tally(unit, prop, day)

        return run

    def tick() -> None:
        with store.unit() as unit:
            for prop in properties:
                compose_tally(unit, prop, day)

    def stats(channel: str) -> Callable[[], object]:
        return lambda: stats_text(store, channel)

    def sweep_selection() -> None:
        with store.unit() as unit:
            unit.fixtures.unswept_verdicts(after_id=0, limit=200)

    def outbox_listing() -> None:
        """What `smith outbox` reads (its counts, bounded as it bounds them), listing all and one status."""
        with engine.connect() as connection:
            listings.post_counts(connection, up_to=COUNT_UP_TO)
            listings.posts(connection, None, 50)
            listings.posts(connection, "failed", 50)

    def digest() -> None:
        disagreed = disagreement_digest_lines(store, NOW - timedelta(days=7), NOW)
        with store.unit() as unit:
            digest_sections(unit, NOW, judge_drift=None, rule_disagreements=disagreed)

    def agreement_30_days() -> None:
        with store.unit() as unit:
            agreement_counts(unit, NOW - timedelta(days=30), NOW, "grader")

    if args.plans:
        for name, call in (
            ("tally (one property, one day)", tally(busy)),
            ("/smith stats (one channel, 30 days)", stats(busy.slack_channel_id or "")),
            ("smith agreement (30 days)", agreement_30_days),
            ("sweep selection", sweep_selection),
            ("smith outbox", outbox_listing),
            ("weekly digest", digest),
        ):
            plans(engine, name, call)
        return

    print(f"\nreads at {sizes['machine_grades']:,} machine grades (now = {NOW:%Y-%m-%d})")
    line("tally, busy property (p000, 1 day)", timed(tally(busy), repeat), READ_GOAL)
    line("tally, typical property (p101, 1 day)", timed(tally(typical), repeat), READ_GOAL)
    line("/smith stats, busy channel (30 days)", timed(stats(busy.slack_channel_id or ""), repeat), READ_GOAL)
    line(
        "/smith stats, typical channel (30 days)",
        timed(stats(typical.slack_channel_id or ""), repeat),
        READ_GOAL,
    )
    line("smith agreement (30 days)", timed(agreement_30_days, repeat), READ_GOAL)
    line("sweep selection (unswept_verdicts)", timed(sweep_selection, repeat), READ_GOAL)
    line("smith outbox (counts + 2 listings)", timed(outbox_listing, repeat), READ_GOAL)
    line(f"tally tick, {len(properties)} properties", timed(tick, max(3, repeat // 2)), 2.0)
    line("weekly digest (sections + rule lines)", timed(digest, max(3, repeat // 2)), 5.0)

    year_ago = (NOW - timedelta(days=365)).date()
    seconds = timed(lambda: smith_agreement(year_ago), max(3, repeat // 2))
    tracemalloc.start()
    smith_agreement(year_ago)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    line("smith agreement --since a year", seconds, 1.0, f" · peak allocations {peak:.1f} MB")

    print("\nthe relay's claim (50 posts, at most 10 per channel, rolled back each time)")
    small = claim_at_backlog(engine, 1_000, repeat)
    large = claim_at_backlog(engine, 100_000, repeat)
    line("claim_due at a 1,000-post backlog", small, READ_GOAL)
    line("claim_due at a 100,000-post backlog", large, READ_GOAL)
    ratio = statistics.median(large) / statistics.median(small)
    print(f"{'ratio 100,000 : 1,000 (medians)':<44} {ratio:.2f}   goal ≤ 2: {'ok' if ratio <= 2 else 'OVER'}")
    engine.dispose()
    print(f"\nmeasured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
