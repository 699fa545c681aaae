"""ConversationRecords: the last accepted document per conversation (needed to rebuild a fixture)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import and_, or_
from sqlalchemy import select as sql_select
from sqlmodel import Session, col, select

from gradecore.model.contract import Conversation, canonical_json, validate_conversation
from gradecore.persistence.entities import ConversationRecord, utcnow
from gradecore.persistence.store.errors import PropertyChanged
from gradecore.persistence.store.inserts import insert_if_absent


class PutOutcome(StrEnum):
    NEW = "new"
    UNCHANGED = "unchanged"
    REPLACED = "replaced"


def content_hash(conversation: Conversation) -> str:
    return hashlib.sha256(canonical_json(conversation).encode()).hexdigest()


def _document(conversation: Conversation) -> dict[str, object]:
    return conversation.model_dump(mode="json", by_alias=True)


class ConversationsRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, conversation_id: str) -> ConversationRecord | None:
        return self._session.get(ConversationRecord, conversation_id)

    def document(self, conversation_id: str) -> Conversation | None:
        record = self.get(conversation_id)
        return None if record is None else validate_conversation(record.document)

    def put(self, conversation: Conversation) -> tuple[PutOutcome, ConversationRecord]:
        """Store the document; an identical re-send is a no-op, a changed one replaces the record; one
        sent with another property than the stored one raises PropertyChanged (the caller's
        transaction rolls back: nothing is stored).

        Most documents are new: the insert comes first, and a new one costs that one statement. When
        the row exists (or another replica is inserting it right now: whichever inserts second inserts
        nothing and waits for the first), it is read and locked, as with any re-send.
        """
        digest = content_hash(conversation)
        fresh = ConversationRecord(
            conversation_id=conversation.conversation_id,
            property_id=conversation.property.id,
            content_hash=digest,
            document=_document(conversation),
            settled_at=conversation.settled_at,
        )
        if insert_if_absent(self._session, fresh):
            return PutOutcome.NEW, fresh
        record = self._locked(conversation.conversation_id)
        assert record is not None, "a row the insert found is there to lock"
        if record.property_id != conversation.property.id:
            raise PropertyChanged(conversation.conversation_id, record.property_id, conversation.property.id)
        if record.content_hash == digest:
            return PutOutcome.UNCHANGED, record
        record.property_id, record.content_hash = conversation.property.id, digest
        record.document = fresh.document
        record.received_at, record.settled_at = utcnow(), conversation.settled_at
        self._session.add(record)
        self._session.flush()
        return PutOutcome.REPLACED, record

    def _locked(self, conversation_id: str) -> ConversationRecord | None:
        return self._session.get(
            ConversationRecord, conversation_id, with_for_update=True, populate_existing=True
        )

    def settled_between(
        self, property_id: str, start: datetime, end: datetime
    ) -> Sequence[ConversationRecord]:
        query = (
            select(ConversationRecord)
            .where(ConversationRecord.property_id == property_id)
            .where(col(ConversationRecord.settled_at) >= start, col(ConversationRecord.settled_at) < end)
        )
        return self._session.exec(query).all()

    def settled_page(
        self,
        start: datetime,
        end: datetime,
        *,
        after: tuple[datetime, str] | None,
        limit: int,
        property_id: str | None = None,
    ) -> list[tuple[datetime, str, str, dict[str, Any]]]:
        """One page of (settled_at, conversation id, content hash, document) settled in [start, end),
        in settled order after the keyset position `after`: walking a whole archive page by page
        holds one page in memory at a time."""
        settled, conversation_id = col(ConversationRecord.settled_at), col(ConversationRecord.conversation_id)
        query = sql_select(
            settled, conversation_id, col(ConversationRecord.content_hash), col(ConversationRecord.document)
        ).where(settled >= start, settled < end)
        if property_id is not None:
            query = query.where(col(ConversationRecord.property_id) == property_id)
        if after is not None:
            at, last_id = after
            query = query.where(or_(settled > at, and_(settled == at, conversation_id > last_id)))
        rows = self._session.execute(query.order_by(settled, conversation_id).limit(limit)).all()
        return [(_aware(r[0]), str(r[1]), str(r[2]), dict(r[3])) for r in rows]


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
