"""JudgeRequests: the durable queue of conversations whose judged dimensions are still owed.

Ingest writes a request in its own transaction, so the need survives a restart; a worker claims one
with a compare-and-set lease (skipping rows another replica has locked, on PostgreSQL) and removes it
once the judged grade is recorded. A request re-written by a newer document is not removed by a
worker that judged the older one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from gradecore.persistence.entities import JudgeRequest


class JudgeRequestsRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def request(self, conversation_id: str, content_hash: str, *, now: datetime) -> None:
        """Owe a judgement of this version of the conversation (replacing any for an older version)."""
        insert: Any = postgresql_insert if self._is_postgres() else sqlite_insert
        values = {
            "content_hash": content_hash,
            "requested_at": now,
            "attempts": 0,
            "lease_owner": None,
            "lease_until": None,
        }
        statement = (
            insert(JudgeRequest)
            .values(conversation_id=conversation_id, **values)
            .on_conflict_do_update(index_elements=["conversation_id"], set_=values)
        )
        self._session.exec(statement)

    def claim(self, owner: str, *, now: datetime, lease: timedelta, limit: int = 4) -> Sequence[JudgeRequest]:
        """Lease up to `limit` requests nobody holds, oldest first."""
        free = or_(col(JudgeRequest.lease_until).is_(None), col(JudgeRequest.lease_until) < now)
        candidates = (
            select(col(JudgeRequest.conversation_id))
            .where(free)
            .order_by(col(JudgeRequest.requested_at))
            .limit(limit)
        )
        if self._is_postgres():
            candidates = candidates.with_for_update(skip_locked=True)
        claimed: list[JudgeRequest] = []
        for conversation_id in self._session.exec(candidates).all():
            statement = (
                update(JudgeRequest)
                .where(col(JudgeRequest.conversation_id) == conversation_id, free)
                .values(lease_owner=owner, lease_until=now + lease, attempts=JudgeRequest.attempts + 1)
            )
            if self._session.exec(statement).rowcount == 1:
                request = self._session.get(JudgeRequest, conversation_id, populate_existing=True)
                assert request is not None
                claimed.append(request)
        return claimed

    def complete(self, conversation_id: str, owner: str, content_hash: str) -> bool:
        """Remove a request this worker judged; False when a newer version was requested meanwhile."""
        statement = delete(JudgeRequest).where(
            col(JudgeRequest.conversation_id) == conversation_id,
            col(JudgeRequest.lease_owner) == owner,
            col(JudgeRequest.content_hash) == content_hash,
        )
        return bool(self._session.exec(statement).rowcount == 1)

    def retry_later(self, conversation_id: str, owner: str, *, at: datetime) -> None:
        """Hand a request back, to be claimed again from `at` (the judgement could not be recorded)."""
        statement = (
            update(JudgeRequest)
            .where(
                col(JudgeRequest.conversation_id) == conversation_id, col(JudgeRequest.lease_owner) == owner
            )
            .values(lease_owner=None, lease_until=at)
        )
        self._session.exec(statement)

    def pending(self) -> int:
        return int(self._session.exec(select(func.count()).select_from(JudgeRequest)).one())

    def get(self, conversation_id: str) -> JudgeRequest | None:
        return self._session.get(JudgeRequest, conversation_id)

    def _is_postgres(self) -> bool:
        return self._session.get_bind().dialect.name == "postgresql"
