"""Counts over a window, computed by the database (docs/query-plans.md).

Every read here is one aggregate statement over an index range that returns a handful of rows: no ORM
objects, no unbounded `IN (…)` lists, no JSON parsed in Python. "Standing acts" follow the one rule of
`gradecore.persistence.store.verdicts.current_acts` (docs/storage.md: what readers count), written as a window
function: per (grader, item), retracted acts and retractions drop out, and the latest act stands,
except that a note (a reply naming no level) stands only where the grader did nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    Select,
    String,
    and_,
    bindparam,
    case,
    cast,
    exists,
    func,
    literal,
    or_,
    select,
    text,
)
from sqlalchemy import type_coerce as coerce
from sqlalchemy.orm import aliased
from sqlmodel import Session

from gradecore.persistence.entities import (
    FAILING_DIMENSIONS,
    RECOVERED_TOOL_ERRORS,
    ConversationRecord,
    GradeVerdict,
    MachineGrade,
)

NO_CHECK = "—"  # the `check` of an act whose frozen grade names no headline


@dataclass(frozen=True)
class WindowCounts:
    """One property's (or every property's) conversations graded in a window, and the acts on them."""

    graded: int = 0
    passed: int = 0
    flagged: int = 0
    reacted: int = 0  # flagged conversations with at least one standing human act
    acts: int = 0  # standing acts that judge the grade: 👍, 👎 and corrections naming a level
    agreeing: int = 0  # … that agree with the machine (👍, or a correction to its level)

    def __add__(self, other: WindowCounts) -> WindowCounts:
        return WindowCounts(
            self.graded + other.graded,
            self.passed + other.passed,
            self.flagged + other.flagged,
            self.reacted + other.reacted,
            self.acts + other.acts,
            self.agreeing + other.agreeing,
        )


@dataclass(frozen=True)
class StandingSignals:
    downs: int
    grader_errors: int


def _count_if(condition: ColumnElement[bool]) -> ColumnElement[Any]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _machine_level(verdict: Any) -> ColumnElement[str]:
    level: ColumnElement[str] = coerce(verdict.machine_grade_at_time, JSON)["level"].as_string()
    return level


def _judges(signal: Any, expected_level: Any) -> ColumnElement[bool]:
    """SQL twin of `store.verdicts.agrees_with_machine` is not None: 👍, 👎, or a level named."""
    return or_(expected_level.is_not(None), signal == "down")


def _agrees(expected_level: Any, machine_level: Any) -> ColumnElement[bool]:
    """SQL twin of `agrees_with_machine` is True: a 👍 stores the machine's level as its expected one, a
    👎 stores none, so agreeing is "the level named is the machine's"."""
    return and_(expected_level.is_not(None), expected_level == machine_level)


def _standing_rank(verdict: Any) -> ColumnElement[int]:
    """1 for the act that stands in its (grader, item): latest, a note only when nothing else is there."""
    is_note = case((and_(verdict.signal == "correction", verdict.expected_level.is_(None)), 1), else_=0)
    return func.row_number().over(
        partition_by=(verdict.grader_user_id, verdict.item_type, verdict.item_ref),
        order_by=(is_note.asc(), verdict.created_at.desc(), verdict.id.desc()),
    )


@cache
def _window_counts_query(filtered: bool, by_settled: bool = False) -> Select[Any]:
    """WindowsRepo.window_counts' statement: start, end (and the properties when `filtered`) are bound
    at execution, so the statement is built and compiled once, not per property and tick.

    `by_settled` counts the conversations that settled in the window (at their latest grade, whenever
    it was made) rather than those graded in it: a backfill then lands on the days it happened."""
    grade = MachineGrade.__table__.c  # type: ignore[attr-defined]
    rank = func.row_number().over(
        partition_by=grade.conversation_id, order_by=(grade.created_at.desc(), grade.id.desc())
    )
    ranked_grades = select(grade.conversation_id, grade.property_id, grade.level, rank.label("rank"))
    if by_settled:
        records = ConversationRecord.__table__  # type: ignore[attr-defined]
        record = records.c
        ranked_grades = ranked_grades.join(records, record.conversation_id == grade.conversation_id).where(
            grade.item_type == "conversation",
            record.settled_at >= bindparam("start"),
            record.settled_at < bindparam("end"),
        )
    else:
        ranked_grades = ranked_grades.where(
            grade.item_type == "conversation",
            grade.created_at >= bindparam("start"),
            grade.created_at < bindparam("end"),
        )
    if filtered:
        ranked_grades = ranked_grades.where(grade.property_id.in_(bindparam("properties", expanding=True)))
    inner = ranked_grades.subquery("ranked_grades")
    latest = (
        select(inner.c.conversation_id, inner.c.property_id, inner.c.level)
        .where(inner.c.rank == 1)
        .subquery("latest_grades")
    )
    graded = (
        select(
            latest.c.property_id,
            func.count().label("graded"),
            _count_if(latest.c.level == "pass").label("passed"),
        )
        .group_by(latest.c.property_id)
        .subquery("graded")
    )
    verdict = GradeVerdict.__table__.c  # type: ignore[attr-defined]
    retraction = aliased(GradeVerdict.__table__)  # type: ignore[attr-defined]
    retracted = exists().where(retraction.c.retracts_id == verdict.id, retraction.c.signal == "retraction")
    ranked = (
        select(
            latest.c.property_id,
            latest.c.conversation_id,
            latest.c.level.label("grade_level"),
            verdict.signal,
            verdict.expected_level,
            _machine_level(verdict).label("machine_level"),
            _standing_rank(verdict).label("rank"),
        )
        .join(latest, latest.c.conversation_id == verdict.conversation_id)
        .where(verdict.signal != "retraction", ~retracted)
        .subquery("ranked_acts")
    )
    judged = _judges(ranked.c.signal, ranked.c.expected_level)
    flagged = ranked.c.grade_level != "pass"
    acted = (
        select(
            ranked.c.property_id,
            func.count(func.distinct(case((flagged, ranked.c.conversation_id), else_=None))).label("reacted"),
            _count_if(judged).label("acts"),
            _count_if(_agrees(ranked.c.expected_level, ranked.c.machine_level)).label("agreeing"),
        )
        .where(ranked.c.rank == 1)
        .group_by(ranked.c.property_id)
        .subquery("acted")
    )
    return select(
        graded.c.property_id,
        graded.c.graded,
        graded.c.passed,
        func.coalesce(acted.c.reacted, 0),
        func.coalesce(acted.c.acts, 0),
        func.coalesce(acted.c.agreeing, 0),
    ).outerjoin(acted, acted.c.property_id == graded.c.property_id)


@cache
def _any_flagged_query() -> Select[Any]:
    grade = MachineGrade.__table__.c  # type: ignore[attr-defined]
    return (
        select(literal(1))
        .where(
            grade.property_id == bindparam("property_id"),
            grade.item_type == "conversation",
            grade.created_at >= bindparam("start"),
            grade.created_at < bindparam("end"),
            grade.level != "pass",
        )
        .limit(1)
    )


@cache
def _latest_act_query() -> Select[Any]:
    verdict = GradeVerdict.__table__.c  # type: ignore[attr-defined]
    return (
        select(verdict.created_at)
        .where(verdict.property_id == bindparam("property_id"), verdict.created_at < bindparam("before"))
        .order_by(verdict.created_at.desc())
        .limit(1)
    )


class WindowsRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def _all(self, query: Select[Any]) -> list[Any]:
        return list(self._session.connection().execute(query).all())

    # --- grades and the acts on them ------------------------------------------------------------------

    def window_counts(
        self, property_ids: Iterable[str] | None, start: datetime, end: datetime, *, by_settled: bool = False
    ) -> dict[str, WindowCounts]:
        """Per property: conversations graded in [start, end) at their latest grade, and the standing
        acts (of any time) on those conversations. `None` means every property. One statement, built
        once per shape (the tally tick runs it for every property)."""
        values: dict[str, Any] = {"start": start, "end": end}
        if property_ids is not None:
            # Bounded by the number of properties (a channel's, or the whole list): never by conversations.
            values["properties"] = sorted(set(property_ids))
        query = _window_counts_query(property_ids is not None, by_settled)
        rows = self._session.connection().execute(query, values)
        counts: dict[str, WindowCounts] = {}
        for prop, total, passed, reacted, acts, agreeing in rows:
            total, passed = int(total), int(passed)
            counts[prop] = WindowCounts(total, passed, total - passed, int(reacted), int(acts), int(agreeing))
        return counts

    def any_flagged(self, property_id: str, start: datetime, end: datetime) -> bool:
        """Did any conversation grade of the property in [start, end) fall below pass?"""
        values = {"property_id": property_id, "start": start, "end": end}
        return self._session.connection().execute(_any_flagged_query(), values).first() is not None

    def latest_act_at(self, property_id: str, *, before: datetime) -> datetime | None:
        """When the property's most recent act before `before` was made (one index probe)."""
        values = {"property_id": property_id, "before": before}
        found: datetime | None = self._session.connection().execute(_latest_act_query(), values).scalar()
        return found

    # --- standing acts of a time window -----------------------------------------------------------

    def _standing_in(self, start: datetime, end: datetime, *columns: Any) -> Any:
        """The acts made in [start, end) that stand, judged as of `end` (a retraction after it is unseen)."""
        verdict = GradeVerdict.__table__.c  # type: ignore[attr-defined]
        retraction = aliased(GradeVerdict.__table__)  # type: ignore[attr-defined]
        retracted = exists().where(
            retraction.c.retracts_id == verdict.id,
            retraction.c.signal == "retraction",
            retraction.c.created_at >= start,
            retraction.c.created_at < end,
        )
        ranked = (
            select(*(column(verdict) for column in columns), _standing_rank(verdict).label("rank"))
            .where(verdict.created_at >= start, verdict.created_at < end)
            .where(verdict.signal != "retraction", ~retracted)
            .subquery("standing")
        )
        return ranked

    def standing_signals(self, start: datetime, end: datetime) -> StandingSignals:
        """How many standing acts of [start, end) are 👎, and how many blame the grader."""
        standing = self._standing_in(
            start, end, lambda v: v.signal.label("signal"), lambda v: v.error_class.label("error_class")
        )
        query = select(_count_if(standing.c.signal == "down"), _count_if(standing.c.error_class == "grader"))
        downs, grader_errors = self._session.connection().execute(query.where(standing.c.rank == 1)).one()
        return StandingSignals(int(downs), int(grader_errors))

    def agreement_counts(
        self, start: datetime, end: datetime, by: str
    ) -> list[tuple[str, str | None, str, int]]:
        """(group, expected level, machine level, acts) over the standing acts of [start, end) that judge
        the grade: those naming a level, and the 👎s (expected level None: they name none, and count as
        disagreeing, docs/verdicts.md). `by` is `grader` (the user id, as text), `check` (the frozen
        headline) or `property`."""
        keys = {
            "grader": lambda v: cast(v.grader_user_id, String).label("key"),
            "check": lambda v: func.coalesce(
                func.nullif(coerce(v.machine_grade_at_time, JSON)["headline"].as_string(), ""), NO_CHECK
            ).label("key"),
            "property": lambda v: v.property_id.label("key"),
        }
        standing = self._standing_in(
            start,
            end,
            keys[by],
            lambda v: v.signal.label("signal"),
            lambda v: v.expected_level.label("expected"),
            lambda v: _machine_level(v).label("machine"),
        )
        query = (
            select(standing.c.key, standing.c.expected, standing.c.machine, func.count())
            .where(
                standing.c.rank == 1,
                _judges(standing.c.signal, standing.c.expected),
                standing.c.machine.is_not(None),
            )
            .group_by(standing.c.key, standing.c.expected, standing.c.machine)
        )
        return [(str(k), None if e is None else str(e), str(m), int(n)) for k, e, m, n in self._all(query)]

    # --- what the dimensions say ------------------------------------------------------------------

    def failed_checks(self, start: datetime, end: datetime) -> set[str]:
        """The checks with a failing dimension in any grade made in [start, end)."""
        grade = MachineGrade.__table__.c  # type: ignore[attr-defined]
        postgres = self._session.get_bind().dialect.name == "postgresql"
        elements = (func.json_array_elements if postgres else func.json_each)(grade.dimensions)
        element = elements.table_valued("value").alias("dimension")
        value = coerce(element.c.value, JSON)
        query = (
            select(value["check"].as_string())
            .select_from(MachineGrade.__table__)  # type: ignore[attr-defined]
            .join(element, literal(True))
            .where(
                grade.created_at >= start,
                grade.created_at < end,
                # Only a grade whose JSON text says "fail" somewhere is parsed (the serialiser never
                # escapes plain ASCII, so a failing dimension always contains it): a partial index.
                text(FAILING_DIMENSIONS),
                value["outcome"].as_string() == "fail",
            )
            .distinct()
        )
        return {str(check) for (check,) in self._all(query) if check is not None}

    def recovered_tool_error_dimensions(self, start: datetime, end: datetime) -> list[list[dict[str, Any]]]:
        """The dimensions of the turn grades made in [start, end) that mention a recovered tool error: the
        few a reader must look into (a partial index), never the whole window."""
        grade = MachineGrade.__table__.c  # type: ignore[attr-defined]
        query = select(grade.dimensions).where(
            text(RECOVERED_TOOL_ERRORS), grade.created_at >= start, grade.created_at < end
        )
        return [row[0] for row in self._all(query)]
