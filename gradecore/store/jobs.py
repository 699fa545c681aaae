"""JobRun (the scheduler's ledger) and Fixture (the sweep's ledger).

A `(job, period)` row is unique, so a second run of a finished period is a no-op on any replica;
which periods are due is decided from these rows, never from APScheduler's misfire state.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from gradecore.entities import Fixture, GradeVerdict, JobRun, utcnow

STALE_RUN = timedelta(minutes=30)
FAILED = "failed"


class JobsRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, job: str, period: str) -> JobRun | None:
        return self._session.exec(select(JobRun).where(JobRun.job == job, JobRun.period == period)).first()

    def claim(self, job: str, period: str, *, now: datetime | None = None) -> JobRun | None:
        """Start a run of `period`; None when it already finished or another run is live."""
        now = now or utcnow()
        existing = self.get(job, period)
        if existing is None:
            try:
                with self._session.begin_nested():
                    run = JobRun(job=job, period=period, started_at=now)
                    self._session.add(run)
                return run
            except IntegrityError:  # another replica claimed it between our read and our insert
                return None
        if existing.finished_at is not None:
            return None
        if existing.outcome != FAILED and now - existing.started_at < STALE_RUN:
            return None  # still running elsewhere (or its process died moments ago: retried later)
        # A run that failed, or died mid-way: resume it (jobs are idempotent).
        existing.started_at, existing.outcome = now, None
        self._session.add(existing)
        return existing

    def fail(self, run: JobRun, error: str) -> None:
        """The run raised: leave the period unfinished and free for the next tick to retry at once."""
        run.outcome, run.counts = FAILED, {"error": error[:500]}
        self._session.add(run)
        self._session.flush()

    def finish(self, run: JobRun, outcome: str, counts: dict[str, Any] | None = None) -> None:
        run.finished_at, run.outcome, run.counts = utcnow(), outcome, counts
        self._session.add(run)
        self._session.flush()

    def last_finished(self, job: str) -> JobRun | None:
        query = (
            select(JobRun)
            .where(JobRun.job == job, col(JobRun.finished_at).is_not(None))
            .order_by(col(JobRun.period).desc())
        )
        return self._session.exec(query.limit(1)).first()


class FixturesRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def unswept_verdicts(self, *, limit: int = 500) -> Sequence[GradeVerdict]:
        """Verdicts with a known expected level that have no Fixture row yet (oldest first)."""
        swept = select(Fixture.verdict_id)
        query = (
            select(GradeVerdict)
            .where(col(GradeVerdict.expected_level).is_not(None), col(GradeVerdict.id).not_in(swept))
            .order_by(col(GradeVerdict.id))
            .limit(limit)
        )
        return self._session.exec(query).all()

    def record(self, fixture: Fixture) -> tuple[Fixture, bool]:
        existing = self._session.exec(select(Fixture).where(Fixture.verdict_id == fixture.verdict_id)).first()
        if existing is not None:
            return existing, False
        self._session.add(fixture)
        self._session.flush()
        return fixture, True

    def of_kind(self, kind: str) -> Sequence[Fixture]:
        query = (
            select(Fixture).where(Fixture.kind == kind, Fixture.status == "written").order_by(col(Fixture.id))
        )
        return self._session.exec(query).all()
