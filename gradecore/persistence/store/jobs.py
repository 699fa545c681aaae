"""JobRun (the scheduler's ledger) and Fixture (the sweep's ledger).

A `(job, period)` row is unique, so a second run of a finished period is a no-op on any replica;
which periods are due is decided from these rows, never from APScheduler's misfire state.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from gradecore.persistence.entities import Fixture, GradeVerdict, JobRun, utcnow

STALE_RUN = timedelta(minutes=30)
FAILED = "failed"
# Fixture ledger states of a verdict whose sweep raised: tried again next run, then set aside for good.
FIXTURE_FAILED = "failed"
FIXTURE_PARKED = "parked"
# A fixture the leak scan refused: kept with its reason and drafted again at every sweep (docs/jobs.md),
# so a better anonymizer gets it written.
FIXTURE_REFUSED = "refused"
_RETRIED = (FIXTURE_FAILED, FIXTURE_REFUSED)
DETAIL_LIMIT = 1024  # the Fixture.detail column


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


class FixturesRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def unswept_verdicts(self, *, after_id: int = 0, limit: int = 500) -> Sequence[GradeVerdict]:
        """Verdicts with a known expected level not yet swept, or last failed or refused, by id, after
        `after_id`."""
        # The ids first, from two indexes alone (an anti-join of the acts naming a level against the
        # ledger, docs/query-plans.md), then only the batch's rows: `NOT IN (subquery)` over whole rows
        # hashed the ledger and read every verdict's JSON on every call.
        settled = exists().where(
            col(Fixture.verdict_id) == col(GradeVerdict.id), col(Fixture.status).not_in(_RETRIED)
        )
        ids = (
            select(col(GradeVerdict.id))
            .where(col(GradeVerdict.expected_level).is_not(None), col(GradeVerdict.id) > after_id, ~settled)
            .order_by(col(GradeVerdict.id))
            .limit(limit)
        )
        batch = list(self._session.exec(ids).all())
        if not batch:
            return []
        rows = select(GradeVerdict).where(col(GradeVerdict.id).in_(batch)).order_by(col(GradeVerdict.id))
        return self._session.exec(rows).all()

    def add(self, fixture: Fixture) -> tuple[Fixture, bool]:
        """Enter a verdict's outcome; a row left by a failed try or a refusal takes the new outcome."""
        existing = self._session.exec(select(Fixture).where(Fixture.verdict_id == fixture.verdict_id)).first()
        if existing is not None and existing.status not in _RETRIED:
            return existing, False
        if existing is not None:
            for name in ("kind", "path", "content_hash", "status", "detail"):
                setattr(existing, name, getattr(fixture, name))
            self._session.add(existing)
            self._session.flush()
            return existing, True
        self._session.add(fixture)
        self._session.flush()
        return fixture, True

    def record_failure(self, verdict_id: int, kind: str, error: str, *, park_after: int) -> Fixture:
        """Count one failed try; after `park_after` of them the verdict is parked with its last error."""
        row = self._session.exec(select(Fixture).where(Fixture.verdict_id == verdict_id)).first()
        if row is None:
            row = Fixture(verdict_id=verdict_id, kind=kind, status=FIXTURE_FAILED, attempts=0)
        if row.status not in (FIXTURE_FAILED, FIXTURE_PARKED):
            return row  # already settled by another run: nothing to count
        row.attempts += 1
        row.status = FIXTURE_PARKED if row.attempts >= park_after else FIXTURE_FAILED
        row.detail = error[:DETAIL_LIMIT]
        self._session.add(row)
        self._session.flush()
        return row

    def status_of(self, verdict_id: int) -> str | None:
        """The ledger state of a verdict's fixture, None before its first sweep."""
        query = select(col(Fixture.status)).where(Fixture.verdict_id == verdict_id)
        return self._session.exec(query).first()

    def refused(self) -> Sequence[Fixture]:
        """Fixtures the leak scan (or the builder) refused, each with its reason, oldest first."""
        query = select(Fixture).where(Fixture.status == FIXTURE_REFUSED).order_by(col(Fixture.verdict_id))
        return self._session.exec(query).all()

    def parked_count(self) -> int:
        """Verdicts the sweep gave up on (each with its error in `detail`), for the digest and readiness."""
        query = select(func.count()).select_from(Fixture).where(Fixture.status == FIXTURE_PARKED)
        return int(self._session.exec(query).one())

    def of_kind(self, kind: str) -> Sequence[Fixture]:
        query = (
            select(Fixture).where(Fixture.kind == kind, Fixture.status == "written").order_by(col(Fixture.id))
        )
        return self._session.exec(query).all()
