"""Several replicas on one PostgreSQL: each period runs once, whoever ticks first (docs/jobs.md).

Every replica runs its own in-memory scheduler; the PostgreSQL advisory lock and the unique JobRun
`(job, period)` row are what keep a tally from being posted twice.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from gradecore.persistence.db import create_db_engine
from gradecore.persistence.locks import lock_id, period_lock
from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from tests.scheduling.world import job_runs, set_property, tally_posts

POSTGRES_ONLY = pytest.mark.backends("postgres")
ZONES = {"camellia": "America/Los_Angeles", "madrid": "Europe/Madrid", "tokyo": "Asia/Tokyo"}


@pytest.fixture
def other_engine(engine: Engine) -> Iterator[Engine]:
    """A second process's engine on the same database (its own connection pool)."""
    other = create_db_engine(engine.url.render_as_string(hide_password=False))
    yield other
    other.dispose()


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@POSTGRES_ONLY
async def test_three_replicas_post_exactly_one_tally_per_channel_per_day(
    engine: Engine, other_engine: Engine, tmp_path: Path
) -> None:
    store = Store(engine)
    for property_id, zone in ZONES.items():
        set_property(store, property_id, timezone=zone, channel=f"C0{property_id.upper()}")
    third_engine = create_db_engine(engine.url.render_as_string(hide_password=False))
    clock = Clock(datetime(2026, 11, 30, 0, 0, tzinfo=UTC))
    config = JobConfig(fixtures_dir=tmp_path / "fixtures")
    replicas = [Jobs(Store(e), config, clock=clock) for e in (engine, other_engine, third_engine)]
    ran: Counter[tuple[str, str]] = Counter()  # what each tick says it ran, over every replica
    try:
        for _ in range(6):  # six days, three simultaneous ticks at each of four moments a day
            for _ in range(4):
                clock.now += timedelta(hours=6)
                for done in await asyncio.gather(*(replica.tick() for replica in replicas)):
                    ran.update(done)
    finally:
        third_engine.dispose()

    assert ran and max(ran.values()) == 1, "a period ran on two replicas"
    tallies = [post.idempotency_key for post in tally_posts(store)]
    assert len(tallies) == len(set(tallies))
    for property_id in ZONES:
        days = sorted(key for key in tallies if key.startswith(f"tally:{property_id}:"))
        assert len(days) in (6, 7), days  # one per local day the six days covered, none twice
    runs = Counter((run.job, run.period) for run in job_runs(store))
    assert max(runs.values()) == 1
    assert {key for key in runs if key[0].startswith("tally:")} == {
        run for run in ran if run[0].startswith("tally:")
    }
    assert all(run.finished_at is not None and run.outcome == "ok" for run in job_runs(store))
    assert len(tallies) == sum(1 for run in ran if run[0].startswith("tally:"))


@POSTGRES_ONLY
def test_the_advisory_lock_is_exclusive_across_connections(engine: Engine, other_engine: Engine) -> None:
    key = "tally:camellia:2026-11-29"
    with period_lock(engine, key) as held:
        assert held is True
        with period_lock(other_engine, key) as second:
            assert second is False  # another process holds it: skip, do not wait
        with period_lock(other_engine, "tally:camellia:2026-11-30") as different:
            assert different is True  # locks are per period
    with period_lock(other_engine, key) as after:
        assert after is True  # released when the holder finished


@POSTGRES_ONLY
async def test_a_replica_skips_a_period_another_holds_and_runs_it_later(
    engine: Engine, other_engine: Engine, tmp_path: Path
) -> None:
    store = Store(engine)
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA")
    clock = Clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))  # 10:00 in Los Angeles
    jobs = Jobs(store, JobConfig(fixtures_dir=tmp_path), clock=clock)
    with period_lock(other_engine, "tally:camellia:2026-11-29") as held:
        assert held
        assert ("tally:camellia", "2026-11-29") not in await jobs.tick()
        assert tally_posts(store) == []
        assert not [run for run in job_runs(store) if run.job == "tally:camellia"]
    assert ("tally:camellia", "2026-11-29") in await jobs.tick()
    assert [post.idempotency_key for post in tally_posts(store)] == ["tally:camellia:2026-11-29"]


def test_lock_ids_are_stable_signed_64_bit() -> None:
    assert lock_id("tally:camellia:2026-11-29") == lock_id("tally:camellia:2026-11-29")
    assert lock_id("tally:camellia:2026-11-29") != lock_id("tally:camellia:2026-11-30")
    assert -(2**63) <= lock_id("sweep:2026-11-30") < 2**63
