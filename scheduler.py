"""Scheduled work: the daily tally per property channel, the nightly sweep, the weekly digest.

Each replica runs an in-memory APScheduler that ticks every minute and at start-up. Which periods are
due is decided from JobRun (the last completed period), never from APScheduler's misfire state: a
missed period runs once on the next tick (coalesced — only the latest missed one), a PostgreSQL
advisory lock keeps two replicas from running it at once, and the unique `(job, period)` row makes a
second run a no-op.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from time import perf_counter
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from blocks import DigestLine, LinkLine, PostContent, build_digest_blocks, texts_triage
from cerebrus.judge import JudgeLane
from gradecore.persistence.entities import Property, utcnow
from gradecore.persistence.locks import period_lock
from gradecore.persistence.store import Store
from smith.metrics import JOB_RUNS, JOB_SECONDS
from smith.outbox.keys import PostKey, digest_key, sweep_summary_key
from smith.outbox.queue import NewPost, queue_one
from smith.reports.digest import compose_digest
from smith.reports.judge_drift import measure_drift
from smith.reports.tally import compose_tally, due_tally_day, queue_tally
from smith.sweep.job import SweepReport, run_sweep
from smith.tickets.sync import QUIET_AFTER, TicketLink
from smith.tickets.tracker import Tracker

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]


@dataclass
class JobConfig:
    tally_time: time = time(9, 0)
    sweep_time: time = time(2, 0)
    fixtures_dir: Path = Path("fixtures_out")
    triage_channel: str | None = None
    tick_seconds: float = 60.0
    ticket_quiet_after: timedelta = QUIET_AFTER


@dataclass
class Jobs:
    store: Store
    config: JobConfig
    judge: JudgeLane | None = None
    tracker: Tracker | None = None
    clock: Clock = utcnow

    # --- the tick --------------------------------------------------------------------------------

    async def tick(self) -> list[tuple[str, str]]:
        """Run every job whose latest period is due and not yet done; returns what this tick ran."""
        now = self.clock()
        done: list[tuple[str, str]] = []
        for prop in await asyncio.to_thread(self._tallied_properties):
            day = due_tally_day(now, prop, self.config.tally_time)
            if day is not None and await asyncio.to_thread(
                self._run_period, f"tally:{prop.id}", day.isoformat(), self._tally(prop.id, day)
            ):
                done.append((f"tally:{prop.id}", day.isoformat()))
        sweep_day = self._latest_daily_period(now, self.config.sweep_time)
        if await asyncio.to_thread(self._run_period, "sweep", sweep_day.isoformat(), self._sweep):
            done.append(("sweep", sweep_day.isoformat()))
        week = self._latest_week(now)
        drift = (
            await self._drift_lines() if not await asyncio.to_thread(self._finished, "digest", week) else None
        )
        if await asyncio.to_thread(self._run_period, "digest", week, lambda: self._digest(week, drift)):
            done.append(("digest", week))
        return done

    # --- periods ---------------------------------------------------------------------------------

    def _latest_daily_period(self, now: datetime, at: time) -> date:
        """The latest UTC day whose run time has passed."""
        today = now.astimezone(UTC).date()
        return today if now >= datetime.combine(today, at, UTC) else today - timedelta(days=1)

    def _latest_week(self, now: datetime) -> str:
        """The ISO week whose Monday run time has passed most recently (`2026-W49`)."""
        today = now.astimezone(UTC).date()
        monday = today - timedelta(days=today.weekday())
        if now < datetime.combine(monday, self.config.sweep_time, UTC):
            monday -= timedelta(days=7)
        year, week, _ = monday.isocalendar()
        return f"{year}-W{week:02d}"

    def _run_period(self, job: str, period: str, work: Callable[[], dict[str, Any]]) -> bool:
        """Run `work` for (job, period) unless it is done or running elsewhere. True when it ran."""
        with period_lock(self.store.engine, f"{job}:{period}") as held:
            if not held:
                return False
            with self.store.unit() as unit:
                run = unit.jobs.claim(job, period, now=self.clock())
            if run is None:
                return False
            started = perf_counter()
            try:
                counts = work()
            except Exception as exc:
                log.exception("%s for %s failed; the next tick retries it", job, period)
                JOB_RUNS.labels(job=job, outcome="failed").inc()
                with self.store.unit() as unit:
                    unit.jobs.fail(unit.session.merge(run), f"{type(exc).__name__}: {exc}")
                return False
            finally:
                JOB_SECONDS.labels(job=job).observe(perf_counter() - started)
            with self.store.unit() as unit:
                unit.jobs.finish(unit.session.merge(run), "ok", counts)
            JOB_RUNS.labels(job=job, outcome="ok").inc()
            log.info("%s for %s done in %.1f s", job, period, perf_counter() - started)
            return True

    def _finished(self, job: str, period: str) -> bool:
        with self.store.unit() as unit:
            run = unit.jobs.get(job, period)
            return run is not None and run.finished_at is not None

    # --- the jobs --------------------------------------------------------------------------------

    def _tallied_properties(self) -> list[Property]:
        with self.store.unit() as unit:
            return list(unit.properties.with_channel())

    def _tally(self, property_id: str, day: date) -> Callable[[], dict[str, Any]]:
        def work() -> dict[str, Any]:
            with self.store.unit() as unit:
                prop = unit.properties.require(property_id)
                tally = compose_tally(unit, prop, day)
                queued = queue_tally(unit, prop, tally)
            return {"graded": tally.graded, "below": tally.flagged, "queued": queued}

        return work

    def _sweep(self) -> dict[str, Any]:
        now = self.clock()
        report = run_sweep(
            self.store,
            self.config.fixtures_dir,
            tracker=self.tracker,
            now=now,
            quiet_after=self.config.ticket_quiet_after,
        )
        self._queue_summary(
            report, key=sweep_summary_key(self._latest_daily_period(now, self.config.sweep_time))
        )
        return {
            "written": dict(report.written),
            "refused": len(report.refused),
            "tickets": {
                "new": len(report.tickets.new),
                "reopened": len(report.tickets.reopened),
                "closed": len(report.tickets.closed),
                "failed": len(report.tickets.failed),
                "postponed": len(report.tickets.postponed),
            },
            "failed": len(report.failed),
            "parked": len(report.parked),
        }

    def _queue_summary(self, report: SweepReport, *, key: PostKey) -> None:
        if self.config.triage_channel is None or not _sweep_has_news(report):
            return  # a summary of nothing is noise (docs/jobs.md)
        sections = sweep_summary_sections(report)
        self._queue_triage(
            build_digest_blocks(sections, title=texts_triage.SWEEP_SUMMARY_TITLE, idempotency_key=key),
            key,
            "digest",
        )

    def _digest(self, week: str, drift: list[str] | None) -> dict[str, Any]:
        if self.config.triage_channel is None:
            return {"posted": False}
        now = self.clock()
        with self.store.unit() as unit:
            first = unit.grades.first_graded_at()
        if first is None or first > now - timedelta(days=7):
            # The first digest waits for a full week of grades: before that, every figure is empty.
            return {"posted": False, "why": "no full week of grades yet"}
        self._queue_triage(
            compose_digest(self.store, now, week=week, judge_drift=drift), digest_key(week), "digest"
        )
        return {"posted": True}

    def _queue_triage(self, content: PostContent, key: PostKey, kind: str) -> None:
        with self.store.unit() as unit:
            queue_one(unit, NewPost(key=key, kind=kind, content=content, channel=self.config.triage_channel))

    async def _drift_lines(self) -> list[str] | None:
        if self.judge is None or not self.judge.enabled:
            return None
        return (await measure_drift(self.store, self.judge)).lines()


def sweep_summary_sections(report: SweepReport) -> list[tuple[str, list[DigestLine]]]:
    """The triage channel's summary of one sweep, as headed lists (the gallery renders it too)."""
    deck = texts_triage
    written: list[DigestLine] = [
        deck.fixtures_of_kind(kind, count) for kind, count in sorted(report.written.items())
    ]
    sections: list[tuple[str, list[DigestLine]]] = [
        (deck.FIXTURES_WRITTEN, written or [deck.NONE]),
        (deck.NEW_TICKETS, [_ticket_line(link) for link in report.tickets.new] or [deck.NONE]),
        (deck.REOPENED_TICKETS, [_ticket_line(link) for link in report.tickets.reopened] or [deck.NONE]),
        (deck.REFUSED, [deck.refused_act(v, why) for v, why in report.refused] or [deck.NONE]),
    ]
    if report.tickets.postponed and report.tickets.postponed_until is not None:
        postponed = deck.tickets_postponed(len(report.tickets.postponed), report.tickets.postponed_until)
        sections.append((deck.TICKETS_POSTPONED, [postponed]))
    if report.failed or report.parked:
        problems: list[DigestLine] = [deck.failed_act(v, why) for v, why in report.failed]
        problems += [deck.parked_act(v, why) for v, why in report.parked]
        sections.append((deck.FAILED_OR_PARKED, problems))
    return sections


def _sweep_has_news(report: SweepReport) -> bool:
    """The sweep wrote or filed something, or has a problem to report."""
    tickets = report.tickets
    return any(
        (
            any(report.written.values()),
            tickets.new,
            tickets.reopened,
            tickets.postponed,
            report.refused,
            report.failed,
            report.parked,
        )
    )


def _ticket_line(link: TicketLink) -> DigestLine:
    """A ticket as a link when it has a web address (a GitHub issue), else its title."""
    if link.url is not None and link.url.startswith(("https://", "http://")):
        return LinkLine(link.url, link.title)
    return link.title


def build_scheduler(jobs: Jobs) -> AsyncIOScheduler:
    """An in-memory scheduler (job stores must not be shared between processes), ticking from now on."""
    scheduler = AsyncIOScheduler(timezone=UTC)

    async def tick() -> None:
        try:
            await jobs.tick()
        except asyncio.CancelledError:
            # Shutdown cancels a tick in flight; APScheduler would log that as a failed job with a
            # traceback. Nothing is lost: a period claimed and not finished runs again once stale.
            log.info("a scheduled tick was stopped by shutdown; unfinished periods run after a restart")

    scheduler.add_job(
        tick,
        IntervalTrigger(seconds=jobs.config.tick_seconds),
        id="smith-tick",
        name="smith-tick",
        next_run_time=datetime.now(UTC),  # at start-up: missed periods run now, once
        max_instances=1,
        coalesce=True,
    )
    return scheduler
