"""The inbox: Slack events recorded durably before they are acked, processed after.

Keyed by Slack's `event_id`, so a retried delivery (`X-Slack-Retry-Num`) finds its first copy and is
not processed twice. Rows left unprocessed by a crash are picked up at start-up and periodically.

An event whose processing fails is tried again later, backing off; after too many failures it is
parked with its error (counted in /readyz) so it never crowds out the events behind it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, literal, or_, text, update
from sqlalchemy import select as sql_select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from gradecore.persistence.entities import PendingAct, SlackEvent, UTCDateTime, utcnow

# One statement text whatever the batch size, so neither SQLAlchemy nor psycopg parses it again:
# a multi-row VALUES list is compiled afresh for each size and is too long for psycopg's cache.
_RECORD_ON_POSTGRESQL = text(
    f"INSERT INTO {SlackEvent.__tablename__} (event_id, kind, payload, received_at, attempts) "
    "SELECT e, k, CAST(p AS json), :received_at, 0 "
    "FROM unnest(CAST(:ids AS text[]), CAST(:kinds AS text[]), CAST(:payloads AS text[])) AS t(e, k, p) "
    "ON CONFLICT DO NOTHING RETURNING event_id"
).bindparams(bindparam("received_at", type_=UTCDateTime()))


_MAX_BACK_OFF = timedelta(hours=1)


class InboxRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, event_id: str, kind: str, payload: dict[str, Any]) -> bool:
        """Insert the raw event; False when it was already recorded (a retry or a replica's copy)."""
        return event_id in self.add_many([(event_id, kind, payload)])

    def add_many(self, events: Sequence[tuple[str, str, dict[str, Any]]]) -> set[str]:
        """Insert several raw events in one statement; returns the ids to process: the new ones, and
        those recorded before but still waiting (neither processed nor parked).

        `INSERT … ON CONFLICT DO NOTHING RETURNING`: it runs before acks, so one statement settles
        retries and replicas' races without an error, and a burst of events shares one commit.
        """
        if not events:
            return set()
        new = self._insert_new(events)
        earlier = {event_id for event_id, _, _ in events} - new
        # An earlier copy recorded but never processed was answered with an error (a deadline, a
        # stalled database): its retry is the copy Slack now waits on, so it is processed now.
        return new | self._waiting_among(earlier) if earlier else new

    def _waiting_among(self, event_ids: set[str]) -> set[str]:
        query = sql_select(col(SlackEvent.event_id)).where(
            col(SlackEvent.event_id).in_(sorted(event_ids)),
            col(SlackEvent.processed_at).is_(None),
            col(SlackEvent.parked_at).is_(None),
        )
        return {str(event_id) for event_id in self._session.connection().execute(query).scalars()}

    def _insert_new(self, events: Sequence[tuple[str, str, dict[str, Any]]]) -> set[str]:
        dialect = self._session.get_bind().dialect.name
        if dialect not in ("postgresql", "sqlite"):
            return {e for e, kind, payload in events if self._record_portably(e, kind, payload)}
        now = utcnow()
        unique = list({e[0]: e for e in events}.values())
        if dialect == "postgresql":
            ids, kinds, payloads = zip(*unique, strict=True)
            parameters = {
                "ids": list(ids),
                "kinds": list(kinds),
                "payloads": [json.dumps(payload) for payload in payloads],
                "received_at": now,
            }
            found = self._session.connection().execute(_RECORD_ON_POSTGRESQL, parameters).scalars()
            return {str(event_id) for event_id in found}
        rows = [
            {"event_id": e, "kind": kind, "payload": payload, "received_at": now, "attempts": 0}
            for e, kind, payload in unique
        ]
        upsert: Any = (postgresql_insert if dialect == "postgresql" else sqlite_insert)(SlackEvent)
        statement = upsert.values(rows).on_conflict_do_nothing().returning(col(SlackEvent.event_id))
        return {str(event_id) for event_id in self._session.connection().execute(statement).scalars()}

    def _record_portably(self, event_id: str, kind: str, payload: dict[str, Any]) -> bool:
        if self._session.get(SlackEvent, event_id) is not None:
            return False
        try:
            with self._session.begin_nested():
                self._session.add(SlackEvent(event_id=event_id, kind=kind, payload=payload))
        except IntegrityError:  # another replica inserted it between our read and our write
            return False
        return True

    def get(self, event_id: str) -> SlackEvent | None:
        return self._session.get(SlackEvent, event_id)

    def unprocessed_among(
        self, event_ids: Sequence[str], *, with_payload: bool, lock: bool = False
    ) -> dict[str, tuple[str, dict[str, Any] | None]]:
        """Which of these events still wait for processing: their kind, and their payload if asked.

        With `lock` on PostgreSQL the rows stay locked until the transaction ends, and rows another
        replica holds are skipped: one batch of events is processed by one transaction only.
        """
        if not event_ids:
            return {}
        payload = col(SlackEvent.payload) if with_payload else literal(None)
        query = sql_select(col(SlackEvent.event_id), col(SlackEvent.kind), payload).where(
            col(SlackEvent.event_id).in_(list(event_ids)),
            col(SlackEvent.processed_at).is_(None),
            col(SlackEvent.parked_at).is_(None),
        )
        if lock and self._session.get_bind().dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        rows = self._session.connection().execute(query)
        return {str(event_id): (str(kind), body) for event_id, kind, body in rows}

    def unprocessed(self, *, older_than: datetime, limit: int = 200) -> Sequence[str]:
        """Events the inbox's retry pass should try now: fewest failures first, so events that keep
        failing never take every place of a pass; an event that failed waits out its back-off first."""
        now = utcnow()
        query = (
            select(SlackEvent.event_id)
            .where(
                col(SlackEvent.processed_at).is_(None),
                col(SlackEvent.parked_at).is_(None),
                col(SlackEvent.received_at) < older_than,
                or_(col(SlackEvent.next_attempt_at).is_(None), col(SlackEvent.next_attempt_at) <= now),
            )
            .order_by(col(SlackEvent.attempts), col(SlackEvent.received_at))
            .limit(limit)
        )
        return self._session.exec(query).all()

    def finish_many(self, outcomes: Sequence[tuple[str, str]]) -> None:
        """Mark a batch of events processed in one round trip (one UPDATE, executed many times).

        An event already marked keeps its first outcome (a second copy found its act a duplicate).
        """
        if not outcomes:
            return
        statement = (
            update(SlackEvent)
            .where(col(SlackEvent.event_id) == bindparam("done_id"), col(SlackEvent.processed_at).is_(None))
            .values(
                processed_at=utcnow(),
                outcome=bindparam("done_outcome"),
                attempts=col(SlackEvent.attempts) + 1,
            )
        )
        rows = [{"done_id": event_id, "done_outcome": outcome[:256]} for event_id, outcome in outcomes]
        self._session.connection().execute(statement, rows)

    def count_attempt(
        self, event_id: str, error: str, *, park_after: int | None, back_off: timedelta
    ) -> bool:
        """One more failed attempt at an event; True when it is parked by it.

        The next try waits `back_off`, doubled for every earlier failure (capped at an hour).
        `park_after=None` never parks: failures that are nobody's payload's fault (Slack unreachable).
        """
        row = self._session.get(SlackEvent, event_id)
        if row is None or row.processed_at is not None:
            return False
        now = utcnow()
        row.attempts += 1
        row.outcome = f"error: {error}"[:256]
        row.next_attempt_at = now + min(back_off * 2 ** (row.attempts - 1), _MAX_BACK_OFF)
        if park_after is not None and row.attempts >= park_after:
            row.parked_at = now
        self._session.add(row)
        self._session.flush()
        return row.parked_at is not None

    def parked_count(self) -> int:
        """Events given up on after too many failures (each keeps its last error as its outcome)."""
        query = sql_select(func.count()).select_from(SlackEvent).where(col(SlackEvent.parked_at).isnot(None))
        return int(self._session.connection().execute(query).scalar_one())


class PendingActsRepo:
    """Acts by Slack users who map to no User yet. No User, no verdict: these wait for a link."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, pending: PendingAct) -> tuple[PendingAct, bool]:
        existing = self._session.exec(select(PendingAct).where(PendingAct.act_key == pending.act_key)).first()
        if existing is not None:
            return existing, False
        self._session.add(pending)
        self._session.flush()
        return pending, True

    def waiting_per_person(self) -> list[tuple[str, int]]:
        """(Slack user, acts) for each person with acts still waiting for a link, in no set order."""
        query = (
            select(PendingAct.slack_user_id, func.count())
            .where(col(PendingAct.resolved_at).is_(None))
            .group_by(col(PendingAct.slack_user_id))
        )
        return [(str(user), int(count)) for user, count in self._session.exec(query).all()]

    def open_for(self, slack_user_id: str) -> Sequence[PendingAct]:
        query = (
            select(PendingAct)
            .where(PendingAct.slack_user_id == slack_user_id, col(PendingAct.resolved_at).is_(None))
            .order_by(col(PendingAct.created_at), col(PendingAct.id))
        )
        return self._session.exec(query).all()

    def resolve(self, pending: PendingAct, verdict_id: int | None) -> None:
        pending.resolved_at, pending.verdict_id = utcnow(), verdict_id
        self._session.add(pending)
        self._session.flush()
