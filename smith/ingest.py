"""Ingest: validate, store and (from the grading layer on) grade one conversation in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from gradecore.contract import Conversation
from gradecore.store import PutOutcome, Store


@dataclass(frozen=True)
class IngestResult:
    conversation_id: str
    outcome: PutOutcome


class Ingestor:
    def __init__(self, store: Store) -> None:
        self._store = store

    def ingest(self, conversation: Conversation) -> IngestResult:
        with self._store.unit() as unit:
            prop = conversation.property
            unit.properties.ensure(prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale)
            outcome, _record = unit.conversations.put(conversation)
        return IngestResult(conversation.conversation_id, outcome)
