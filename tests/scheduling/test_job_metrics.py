"""Issue 24, point 3: each scheduled run is counted for /metrics, by job and outcome, with its duration."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from smith.metrics import REGISTRY
from smith.tickets.github import GitHubTracker
from tests.fakes.github_api import FakeGitHub
from tests.scheduling.world import job_runs, set_property
from tests.smith.tickets.world import confirm_failures

LA = ZoneInfo("America/Los_Angeles")


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_job_runs_are_counted_with_their_duration(store: Store, tmp_path: Path) -> None:
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", name="Camellia")
    now = datetime(2026, 11, 30, 12, 0, tzinfo=LA)
    jobs = Jobs(store, JobConfig(fixtures_dir=tmp_path, triage_channel="C0TRIAGE"), clock=lambda: now)
    before = (
        sample("smith_job_runs_total", job="sweep", outcome="ok"),
        sample("smith_job_duration_seconds_count", job="sweep"),
        sample("smith_job_runs_total", job="tally:camellia", outcome="ok"),
    )

    ran = await jobs.tick()

    assert ("sweep", "2026-11-30") in ran and ("tally:camellia", "2026-11-29") in ran
    after = (
        sample("smith_job_runs_total", job="sweep", outcome="ok"),
        sample("smith_job_duration_seconds_count", job="sweep"),
        sample("smith_job_runs_total", job="tally:camellia", outcome="ok"),
    )
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1]


async def test_the_nightly_summary_says_tickets_were_postponed(store: Store, tmp_path: Path) -> None:
    # GitHub's primary rate limit on the first create: the sweep's summary post says what waits.
    settled = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
    confirm_failures(store, settled, {"secret": 2, "budget": 2})
    now = datetime(2026, 11, 30, 12, 0, tzinfo=LA)
    with FakeGitHub("acme/queue", token="t0ken") as github:
        github.fail_next("POST", "/issues", "primary_limit")
        tracker = GitHubTracker("acme/queue", "t0ken", base_url=github.base_url, seconds_between_writes=0)
        jobs = Jobs(
            store,
            JobConfig(fixtures_dir=tmp_path, triage_channel="C0TRIAGE"),
            clock=lambda: now,
            tracker=tracker,
        )
        await jobs.tick()

    [sweep] = [run for run in job_runs(store) if run.job == "sweep"]
    assert sweep.counts["tickets"]["postponed"] == 2
    with store.unit() as unit:
        summaries = [p for p in unit.outbox.list() if p.idempotency_key.startswith("sweep")]
    text = json.dumps([p.payload for p in summaries], ensure_ascii=False)
    assert "Tickets postponed (the tracker's rate limit)" in text
    assert "2 ticket(s) wait until " in text
