"""MachineGrades: one immutable row per machine judgement of one item. Add and read; nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session, col, func, select

from gradecore.persistence.entities import MachineGrade

# What a GradeVerdict keeps of the machine grade it judged (its frozen copy), and nothing else.
FROZEN_FIELDS = ("id", "level", "source", "rubric_version", "headline", "owner")


_FROZEN_COLUMNS: tuple[Any, ...] = tuple(col(getattr(MachineGrade, name)) for name in FROZEN_FIELDS)


class GradesRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, grade: MachineGrade) -> MachineGrade:
        self._session.add(grade)
        self._session.flush()
        return grade

    def add_all(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Append grades, given as rows of every column, in one statement (no ORM objects)."""
        if rows:
            self._session.execute(insert(MachineGrade.__table__), list(rows))  # type: ignore[attr-defined]

    def latest_turn_hashes(self, conversation_id: str) -> dict[str, tuple[str, str]]:
        """(id, content hash) of the latest grade of each of a conversation's turns, by item ref, in
        one query: a re-sent conversation keeps the grades of the turns it did not change."""
        query = (
            select(col(MachineGrade.item_ref), col(MachineGrade.id), col(MachineGrade.content_hash))
            .where(
                col(MachineGrade.conversation_id) == conversation_id, col(MachineGrade.item_type) == "turn"
            )
            .order_by(col(MachineGrade.created_at), col(MachineGrade.id))
        )
        # Oldest first: each item's latest grade is the last one written into the dict.
        return {
            str(ref): (str(grade_id), str(digest)) for ref, grade_id, digest in self._session.execute(query)
        }

    def get(self, grade_id: str) -> MachineGrade | None:
        return self._session.get(MachineGrade, grade_id)

    def latest(self, item_type: str, ref: str, *, source: str | None = None) -> MachineGrade | None:
        query = select(MachineGrade).where(MachineGrade.item_type == item_type, MachineGrade.item_ref == ref)
        if source is not None:
            query = query.where(MachineGrade.source == source)
        query = query.order_by(col(MachineGrade.created_at).desc(), col(MachineGrade.id).desc())
        return self._session.exec(query.limit(1)).first()

    def latest_frozen(self, item_type: str, ref: str) -> dict[str, Any] | None:
        """`latest`, read as its frozen copy only: the dimensions are large JSON acting never needs."""
        query = (
            select(*_FROZEN_COLUMNS)
            .where(col(MachineGrade.item_type) == item_type, col(MachineGrade.item_ref) == ref)
            .order_by(col(MachineGrade.created_at).desc(), col(MachineGrade.id).desc())
            .limit(1)
        )
        row = self._session.connection().execute(query).first()
        return None if row is None else dict(row._mapping)

    def frozen(self, grade_id: str) -> dict[str, Any] | None:
        """One grade by id, as its frozen copy."""
        query = select(*_FROZEN_COLUMNS).where(col(MachineGrade.id) == grade_id)
        row = self._session.connection().execute(query).first()
        return None if row is None else dict(row._mapping)

    def history(self, item_type: str, ref: str) -> Sequence[MachineGrade]:
        query = (
            select(MachineGrade)
            .where(MachineGrade.item_type == item_type, MachineGrade.item_ref == ref)
            .order_by(col(MachineGrade.created_at))
        )
        return self._session.exec(query).all()

    def for_conversation(self, conversation_id: str) -> Sequence[MachineGrade]:
        query = (
            select(MachineGrade)
            .where(MachineGrade.conversation_id == conversation_id)
            .order_by(col(MachineGrade.created_at))
        )
        return self._session.exec(query).all()

    def created_between(
        self, property_id: str, start: datetime, end: datetime, *, item_type: str | None = None
    ) -> Sequence[MachineGrade]:
        """Grades by property and time window: an index range, never a scan of the archive."""
        query = select(MachineGrade).where(
            MachineGrade.property_id == property_id,
            col(MachineGrade.created_at) >= start,
            col(MachineGrade.created_at) < end,
        )
        if item_type is not None:
            query = query.where(MachineGrade.item_type == item_type)
        return self._session.exec(query).all()

    def judged_sample(self, limit: int) -> Sequence[MachineGrade]:
        """The earliest turn grades the judge lane scored: a frozen sample, the same week to week."""
        query = (
            select(MachineGrade)
            .where(MachineGrade.item_type == "turn", MachineGrade.source == "cerebrus.judge")
            .order_by(col(MachineGrade.created_at), col(MachineGrade.id))
            .limit(limit)
        )
        return self._session.exec(query).all()

    def first_graded_at(self) -> datetime | None:
        """When Smith graded its first conversation (one probe of `ix_machine_grades_type_created`): the
        digest says nothing about a week or a month Smith has not yet been running for."""
        query = select(func.min(col(MachineGrade.created_at))).where(MachineGrade.item_type == "conversation")
        found: datetime | None = self._session.exec(query).one()
        return found
