"""Ticket signatures, their occurrences and confirmations (docs/tickets.md).

Occurrences and confirmations are inserted with ON CONFLICT DO NOTHING on their natural keys, so the
sweep can read the same grades or verdicts again after a crash without counting anything twice.
Every count is an aggregate query: nothing here loads rows just to count them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Insert, and_, case, func, or_
from sqlalchemy import select as sql_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

# The module, not the name: gradecore.persistence.grade_rows imports this package, so whichever of the two is
# imported first finds the other half-built; the constant is read when a query runs, long after.
from gradecore.persistence import grade_rows
from gradecore.persistence.entities import (
    ConversationRecord,
    MachineGrade,
    TicketConfirmation,
    TicketOccurrence,
    TicketScan,
    TicketSignature,
)

WEEK = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class SignatureCounts:
    """What a ticket says about how often and where: occurrences and the acts that confirmed them."""

    total: int
    last_7_days: int
    previous_7_days: int
    by_property: dict[str, int]
    first_seen: datetime | None
    last_seen: datetime | None
    last_recorded: datetime | None
    ups: int
    corrections: int

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "last_7_days": self.last_7_days,
            "by_property": dict(sorted(self.by_property.items())),
            "ups": self.ups,
            "corrections": self.corrections,
        }


@dataclass(frozen=True, slots=True)
class GradeForScan:
    id: str
    conversation_id: str
    turn_id: str | None
    property_id: str
    dimensions: list[dict[str, Any]]
    created_at: datetime
    settled_at: datetime


class TicketsRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    # --- signatures ------------------------------------------------------------------------------

    def ensure(self, signature_id: str, check_id: str, layer: str, cause: str, *, now: datetime) -> None:
        """Create the signature row if it is new (a concurrent sweep creating it too is harmless)."""
        row = {
            "id": signature_id,
            "check_id": check_id,
            "layer": layer,
            "cause": cause[:512],
            "status": "watching",
            "status_changed_at": now,
            "times_reopened": 0,
            "history": [],
            "created_at": now,
            "updated_at": now,
        }
        self._session.execute(self._insert_ignoring_conflicts(TicketSignature, [row], ["id"]))

    def get(self, signature_id: str) -> TicketSignature | None:
        return self._session.get(TicketSignature, signature_id)

    def save(self, signature: TicketSignature, *, now: datetime) -> None:
        signature.updated_at = now
        self._session.add(signature)
        self._session.flush()

    def confirmed(self) -> Sequence[TicketSignature]:
        """Signatures a grader has confirmed at least once: the ones that get a ticket."""
        confirmed = select(TicketConfirmation.signature_id).distinct()
        query = (
            select(TicketSignature)
            .where(col(TicketSignature.id).in_(confirmed))
            .order_by(col(TicketSignature.id))
        )
        return self._session.exec(query).all()

    def all(self) -> Sequence[TicketSignature]:
        return self._session.exec(select(TicketSignature).order_by(col(TicketSignature.id))).all()

    # --- occurrences and confirmations -----------------------------------------------------------

    def add_occurrences(self, rows: Iterable[dict[str, Any]]) -> None:
        batch = list(rows)
        if batch:
            self._session.execute(
                self._insert_ignoring_conflicts(
                    TicketOccurrence, batch, ["signature_id", "conversation_id", "turn_key"]
                )
            )

    def add_confirmations(self, rows: Iterable[dict[str, Any]]) -> None:
        batch = list(rows)
        if batch:
            self._session.execute(
                self._insert_ignoring_conflicts(TicketConfirmation, batch, ["signature_id", "verdict_id"])
            )

    def counts(self, signature_id: str, *, now: datetime) -> SignatureCounts:
        """Occurrence and confirmation counts for one signature, in three aggregate queries."""
        week_ago, two_weeks_ago = now - WEEK, now - 2 * WEEK
        seen = col(TicketOccurrence.seen_at)
        totals = self._session.execute(
            sql_select(
                func.count(),
                func.sum(_between(seen, week_ago, None)),
                func.sum(_between(seen, two_weeks_ago, week_ago)),
                func.min(seen),
                func.max(seen),
                func.max(col(TicketOccurrence.recorded_at)),
            ).where(col(TicketOccurrence.signature_id) == signature_id)
        ).one()
        by_property = self._session.execute(
            sql_select(col(TicketOccurrence.property_id), func.count())
            .where(col(TicketOccurrence.signature_id) == signature_id)
            .group_by(col(TicketOccurrence.property_id))
        ).all()
        signals = self._session.execute(
            sql_select(col(TicketConfirmation.signal), func.count())
            .where(col(TicketConfirmation.signature_id) == signature_id)
            .group_by(col(TicketConfirmation.signal))
        ).all()
        by_signal = {str(signal): int(n) for signal, n in signals}
        return SignatureCounts(
            total=int(totals[0] or 0),
            last_7_days=int(totals[1] or 0),
            previous_7_days=int(totals[2] or 0),
            by_property={str(p): int(n) for p, n in by_property},
            first_seen=_aware(totals[3]),
            last_seen=_aware(totals[4]),
            last_recorded=_aware(totals[5]),
            ups=int(by_signal.get("up", 0)),
            corrections=int(by_signal.get("correction", 0)),
        )

    def examples(self, signature_id: str, *, limit: int = 3) -> list[TicketConfirmation]:
        """The first confirmations with an anonymized example: stable, so the body does not churn."""
        query = (
            select(TicketConfirmation)
            .where(
                TicketConfirmation.signature_id == signature_id,
                col(TicketConfirmation.example).is_not(None),
            )
            .order_by(col(TicketConfirmation.verdict_id))
            .limit(limit)
        )
        return list(self._session.exec(query).all())

    def weekly_ranking(self, *, now: datetime, limit: int = 5) -> list[tuple[TicketSignature, int, int]]:
        """The signatures with the most occurrences in the last 7 days, with the 7 days before."""
        week_ago, two_weeks_ago = now - WEEK, now - 2 * WEEK
        seen = col(TicketOccurrence.seen_at)
        this_week = func.sum(_between(seen, week_ago, now))
        rows = self._session.exec(
            select(
                TicketOccurrence.signature_id, this_week, func.sum(_between(seen, two_weeks_ago, week_ago))
            )
            .where(seen >= two_weeks_ago, seen < now)
            .group_by(col(TicketOccurrence.signature_id))
            .having(this_week > 0)
            .order_by(this_week.desc(), col(TicketOccurrence.signature_id))
            .limit(limit)
        ).all()
        ranked = []
        for signature_id, current, previous in rows:
            signature = self.get(signature_id)
            if signature is not None:
                ranked.append((signature, int(current or 0), int(previous or 0)))
        return ranked

    # --- the scan of machine grades --------------------------------------------------------------

    def scanned_through(self) -> datetime | None:
        row = self._session.get(TicketScan, 1)
        return None if row is None else _aware(row.scanned_through)

    def mark_scanned(self, through: datetime) -> None:
        row = self._session.get(TicketScan, 1)
        if row is None:
            self._session.add(TicketScan(id=1, scanned_through=through))
        elif _aware(row.scanned_through) is None or through > row.scanned_through:
            row.scanned_through = through
            self._session.add(row)
        self._session.flush()

    def failing_grades_after(
        self, after: tuple[datetime, str] | None, until: datetime, *, limit: int
    ) -> list[GradeForScan]:
        """Deterministic grades that failed something, created after the `(created_at, id)` keyset
        position and no later than `until`, oldest first, with their conversation's settled_at."""
        created, grade_id = col(MachineGrade.created_at), col(MachineGrade.id)
        query = (
            sql_select(
                col(MachineGrade.id),
                col(MachineGrade.conversation_id),
                col(MachineGrade.turn_id),
                col(MachineGrade.property_id),
                col(MachineGrade.dimensions),
                col(MachineGrade.created_at),
                col(ConversationRecord.settled_at),
            )
            .join(
                ConversationRecord,
                col(ConversationRecord.conversation_id) == col(MachineGrade.conversation_id),
                isouter=True,
            )
            .where(
                col(MachineGrade.source) == grade_rows.SOURCE_DETERMINISTIC,
                col(MachineGrade.level) != "pass",
                created <= until,
            )
        )
        if after is not None:
            at, last_id = after
            query = query.where(or_(created > at, and_(created == at, grade_id > last_id)))
        rows = self._session.execute(query.order_by(created, grade_id).limit(limit)).all()
        return [
            GradeForScan(
                id=r[0],
                conversation_id=r[1],
                turn_id=r[2],
                property_id=r[3],
                dimensions=list(r[4] or []),
                created_at=_aware(r[5]) or until,
                settled_at=_aware(r[6]) or _aware(r[5]) or until,
            )
            for r in rows
        ]

    # --- helpers ---------------------------------------------------------------------------------

    def _insert_ignoring_conflicts(
        self, table: type[Any], rows: list[dict[str, Any]], keys: list[str]
    ) -> Insert:
        dialect = self._session.get_bind().dialect.name
        if dialect == "postgresql":
            return postgresql.insert(table).values(rows).on_conflict_do_nothing(index_elements=keys)
        return sqlite.insert(table).values(rows).on_conflict_do_nothing(index_elements=keys)


def _between(column: Any, start: datetime, end: datetime | None) -> Any:
    condition = column >= start if end is None else (column >= start) & (column < end)
    return case((condition, 1), else_=0)


def _aware(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)
