"""The weekly engineering digest: the early symptoms of the failure modes the design names.

Reaction rate per channel (alert fatigue), checks that never fail (right answer, wrong question), pass
rate against 👎 count (grade inflation), grader-error 👎s (calibration debt), judge drift (the same
frozen sample graded again by the judge), and tool errors a retry recovered (flaky integrations that
no grade flags). Every read is a bounded window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from blocks import DigestLine, LinkLine, PostContent, build_digest_blocks, texts_triage
from cerebrus import check_ids
from cerebrus.checks.tools_succeeded import recovered_errors
from gradecore.persistence.store import Store, Unit
from smith.calibration.disagreements import digest_lines as disagreement_digest_lines
from smith.outbox.keys import digest_key
from smith.reports.stats import WindowStats, total_stats, window_stats, window_stats_by_property

WEEK = timedelta(days=7)
QUIET_CHECK_WINDOW = timedelta(days=30)
Section = tuple[str, Sequence[DigestLine]]


@dataclass(frozen=True)
class WeekNumbers:
    graded: int
    passed: int
    downs: int
    grader_errors: int

    @property
    def pass_rate(self) -> float | None:
        return None if self.graded == 0 else self.passed / self.graded


def week_numbers(unit: Unit, property_ids: Sequence[str], start: datetime, end: datetime) -> WeekNumbers:
    return _week_numbers(unit, window_stats(unit, property_ids, start, end), start, end)


def _week_numbers(unit: Unit, stats: WindowStats, start: datetime, end: datetime) -> WeekNumbers:
    # What readers count (docs/storage.md): a 👎 taken back, or replaced by the same person's correction, is
    # not a second grader error.
    signals = unit.windows.standing_signals(start, end)
    return WeekNumbers(stats.graded, stats.passed, signals.downs, signals.grader_errors)


def recovered_tool_errors(unit: Unit, start: datetime, end: datetime) -> int:
    """Tool errors that a later call of the same tool recovered, in the turn grades of a window: the
    turn passed, so only this count shows an integration failing now and then."""
    return sum(
        recovered_errors(evidence.get("rule_entry") for evidence in dimension.get("evidence") or ())
        for dimensions in unit.windows.recovered_tool_error_dimensions(start, end)
        for dimension in dimensions
        if dimension.get("check") == "tools_succeeded"
    )


def iso_week(now: datetime) -> str:
    """`2026-W49`: the week a digest covers, and its post's idempotency key."""
    year, week, _ = now.isocalendar()
    return f"{year}-W{week:02d}"


def compose_digest(store: Store, now: datetime, *, week: str, judge_drift: list[str] | None) -> PostContent:
    """The weekly digest post, as the scheduler queues it and `smith digest` prints it."""
    disagreed = disagreement_digest_lines(store, now - WEEK, now)
    with store.unit() as unit:
        sections = digest_sections(unit, now, judge_drift=judge_drift, rule_disagreements=disagreed)
    return build_digest_blocks(
        sections, title=texts_triage.digest_title(week), idempotency_key=digest_key(week)
    )


def digest_sections(
    unit: Unit,
    now: datetime,
    *,
    judge_drift: list[str] | None,
    rule_disagreements: list[str] | None = None,
) -> list[Section]:
    """Each window is counted once, by the database (docs/query-plans.md): a few statements in all."""
    properties = list(unit.properties.list())
    ids = [p.id for p in properties]
    by_property = window_stats_by_property(unit, ids, now - WEEK, now)
    this_week = _week_numbers(unit, total_stats(by_property.values()), now - WEEK, now)
    last_week = week_numbers(unit, ids, now - 2 * WEEK, now - WEEK)

    deck = texts_triage
    reaction_lines = [
        deck.reaction_rate(
            prop.name, prop.slack_channel_id, by_property[prop.id].flagged, by_property[prop.id].reacted
        )
        for prop in properties
    ]

    # "Has not failed in 30 days" is only true, and only worth saying, once there are 30 days of grades.
    first = unit.grades.first_graded_at()
    month_of_grades = first is not None and first <= now - QUIET_CHECK_WINDOW
    failed_lately = unit.windows.failed_checks(now - QUIET_CHECK_WINDOW, now) if month_of_grades else set()
    quiet = [check for check in check_ids() if check not in failed_lately]
    inflation = [
        deck.pass_rate_against_downs(
            last_week.pass_rate, this_week.pass_rate, last_week.downs, this_week.downs
        )
    ]
    if (this_week.pass_rate or 0) > (last_week.pass_rate or 0) and this_week.downs <= last_week.downs:
        inflation.append(deck.INFLATION_WARNING)
    calibration = [deck.grader_errors(last_week.grader_errors, this_week.grader_errors)]
    recovered = [
        deck.recovered_tool_errors(
            recovered_tool_errors(unit, now - 2 * WEEK, now - WEEK),
            recovered_tool_errors(unit, now - WEEK, now),
        )
    ]
    if this_week.grader_errors > last_week.grader_errors:
        calibration.append(deck.CALIBRATION_WARNING)
    quiet_section: list[Section] = (
        [(deck.QUIET_CHECKS, quiet or [deck.EVERY_CHECK_FAILED])] if month_of_grades else []
    )
    return [
        (deck.REACTION_RATE, reaction_lines or [deck.NO_PROPERTIES]),
        (deck.AGREEMENT, [agreement_line(total_stats(by_property.values()))]),
        (deck.ROOT_CAUSES, root_cause_lines(unit, now)),
        *quiet_section,
        (deck.INFLATION, inflation),
        (deck.CALIBRATION_DEBT, calibration),
        (deck.JUDGE_DRIFT, judge_drift if judge_drift is not None else [deck.JUDGE_LANE_OFF]),
        (deck.RECOVERED_TOOL_ERRORS, recovered),
        (deck.RULE_DISAGREEMENTS, rule_disagreements or [deck.NOT_MEASURED]),
        (
            deck.SET_ASIDE,
            [deck.parked_acts(unit.fixtures.parked_count()), deck.parked_events(unit.inbox.parked_count())],
        ),
    ]


def agreement_line(stats: WindowStats) -> str:
    """The figure `smith agreement`, /smith stats and the Home tab show: 👍 and corrections to the
    machine's level over every standing act that judges a grade, 👎 included (docs/verdicts.md)."""
    if stats.agreement is None:
        return texts_triage.NO_ACT_JUDGED
    return texts_triage.agreement(stats.agreement, stats.agreeing, stats.acts)


def root_cause_lines(unit: Unit, now: datetime, *, top: int = 5) -> list[DigestLine]:
    """The signatures that happened most this week, with the change from last week: a roadmap."""
    lines: list[DigestLine] = []
    for signature, this_week, last_week in unit.tickets.weekly_ranking(now=now, limit=top):
        line = texts_triage.root_cause(signature.check_id, signature.cause, this_week, last_week)
        url = signature.tracker_url or ""
        lines.append(LinkLine(url, line) if url.startswith(("https://", "http://")) else line)
    return lines or [texts_triage.NO_OURS_FAILURES]
