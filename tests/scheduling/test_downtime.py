"""After downtime a missed period runs once (coalesced to the latest), never twice; a failed or
abandoned run is retried (docs/jobs.md). Which periods are due comes from JobRun, not APScheduler."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from gradecore.persistence.store import Store
from gradecore.persistence.store.jobs import STALE_RUN
from scheduler import JobConfig, Jobs, build_scheduler
from tests.scheduling.world import (
    OAKRIDGE,
    add_grader,
    demo,
    fixtures,
    ingest,
    job_runs,
    react,
    set_property,
    tally_posts,
)

LA = ZoneInfo("America/Los_Angeles")


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _jobs(store: Store, clock: Clock, fixtures_dir: Path) -> Jobs:
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", name="Camellia")
    return Jobs(store, JobConfig(fixtures_dir=fixtures_dir, triage_channel="C0TRIAGE"), clock=clock)


async def test_a_restart_after_downtime_runs_the_missed_tally_once(store: Store, tmp_path: Path) -> None:
    clock = Clock(datetime(2026, 11, 30, 12, 0, tzinfo=LA))  # Monday noon: Sunday's tally is due
    jobs = _jobs(store, clock, tmp_path)
    assert ("tally:camellia", "2026-11-29") in await jobs.tick()

    # Down from Monday noon until Thursday noon; a new process starts with a fresh scheduler.
    clock.now = datetime(2026, 12, 3, 12, 0, tzinfo=LA)
    restarted = Jobs(store, jobs.config, clock=clock)
    ran = await restarted.tick()
    # Only the latest missed day: the tallies of Mon 30 Nov and Tue 1 Dec are coalesced away.
    assert [run for run in ran if run[0] == "tally:camellia"] == [("tally:camellia", "2026-12-02")]
    assert [run for run in ran if run[0] == "sweep"] == [("sweep", "2026-12-03")]
    assert await restarted.tick() == []
    assert await Jobs(store, jobs.config, clock=clock).tick() == []  # and not on a third process

    assert [post.idempotency_key for post in tally_posts(store)] == [
        "tally:camellia:2026-11-29",
        "tally:camellia:2026-12-02",
    ]
    assert sorted(run.period for run in job_runs(store) if run.job == "tally:camellia") == [
        "2026-11-29",
        "2026-12-02",
    ]
    assert sorted(run.period for run in job_runs(store) if run.job == "sweep") == ["2026-11-30", "2026-12-03"]


async def test_a_failed_sweep_is_retried_on_the_next_tick(store: Store, tmp_path: Path) -> None:
    ingest(store, demo(OAKRIDGE), when=datetime(2026, 11, 30, 1, 0, tzinfo=UTC))
    react(
        store,
        demo(OAKRIDGE).conversation_id,
        "up",
        when=datetime(2026, 11, 30, 1, 30, tzinfo=UTC),
        grader=add_grader(store),
    )
    blocked = tmp_path / "fixtures"
    blocked.write_text("a file where the fixtures directory should be")
    clock = Clock(datetime(2026, 11, 30, 3, 0, tzinfo=UTC))  # after the 02:00 sweep time
    jobs = _jobs(store, clock, blocked)
    assert ("sweep", "2026-11-30") not in await jobs.tick()
    [failed] = [run for run in job_runs(store) if run.job == "sweep"]
    assert failed.finished_at is None and failed.outcome == "failed"

    blocked.unlink()  # the disk problem is fixed; one minute later the next tick runs it
    clock.now += timedelta(minutes=1)
    assert ("sweep", "2026-11-30") in await jobs.tick()
    [done] = [run for run in job_runs(store) if run.job == "sweep"]
    no_tickets = {"new": 0, "reopened": 0, "closed": 0, "failed": 0, "postponed": 0}
    assert done.outcome == "ok" and done.counts == {
        "written": {"grader": 1},
        "refused": 0,
        "tickets": no_tickets,
        "failed": 0,
        "parked": 0,
    }
    assert [fixture.kind for fixture in fixtures(store)] == ["grader"]
    assert len(list((blocked / "grader").glob("*.json"))) == 1


async def test_a_run_abandoned_mid_way_is_resumed_only_once_stale(store: Store, tmp_path: Path) -> None:
    clock = Clock(datetime(2026, 11, 30, 12, 0, tzinfo=LA))
    jobs = _jobs(store, clock, tmp_path)
    with store.unit() as unit:  # another replica claimed Sunday's tally and then its process died
        assert unit.jobs.claim("tally:camellia", "2026-11-29", now=clock.now) is not None
    assert ("tally:camellia", "2026-11-29") not in await jobs.tick()  # maybe still running
    clock.now += STALE_RUN
    assert ("tally:camellia", "2026-11-29") in await jobs.tick()
    assert [post.idempotency_key for post in tally_posts(store)] == ["tally:camellia:2026-11-29"]


async def test_the_in_memory_scheduler_ticks_at_start_up(store: Store, tmp_path: Path) -> None:
    clock = Clock(datetime(2026, 11, 30, 12, 0, tzinfo=LA))
    jobs = _jobs(store, clock, tmp_path)
    scheduler = build_scheduler(jobs)
    [job] = scheduler.get_jobs()
    assert (job.max_instances, job.coalesce) == (1, True)
    scheduler.start()
    try:
        for _ in range(200):  # the start-up tick runs at once, not a minute later
            if _finished_runs(store):
                break
            await asyncio.sleep(0.02)
    finally:
        scheduler.shutdown(wait=False)
    assert ("tally:camellia", "2026-11-29") in _finished_runs(store)


def _finished_runs(store: Store) -> set[tuple[str, str]]:
    """(job, period) of every finished run, from the job-run table."""
    return {(run.job, run.period) for run in job_runs(store) if run.finished_at is not None}
