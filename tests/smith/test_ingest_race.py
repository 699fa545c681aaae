"""Two replicas ingesting at the same moment on PostgreSQL: both succeed, each row is written once.

The race is forced, not hoped for: replica A stores its rows and keeps its transaction open until
PostgreSQL shows replica B waiting on A's row lock (B found nothing and is inserting the same key),
then commits. Before `INSERT … ON CONFLICT DO NOTHING`, B's insert then failed on the unique key and
the platform got a 503.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from gradecore.model.contract import validate_conversation
from gradecore.persistence.entities import ConversationRecord, Property
from gradecore.persistence.store import PutOutcome, Store
from smith.ingest import Ingestor, IngestResult
from tests.conftest import load_demo
from tests.races import Replica

pytestmark = pytest.mark.backends("postgres")

LAMPLITER: dict[str, Any] = json.loads(load_demo("lampliter-unbacked-promise.json"))


def _race(
    store: Store, replica_b: Replica, first: dict[str, Any], second: dict[str, Any]
) -> tuple[PutOutcome, IngestResult]:
    """A stores `first` and holds its transaction until B, ingesting `second`, waits on it."""
    conversation = validate_conversation(first)
    with store.unit() as unit:
        prop = conversation.property
        unit.properties.ensure(prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale)
        outcome, _ = unit.conversations.put(conversation)
        b = replica_b.run_blocked(lambda b_store: Ingestor(b_store).ingest(validate_conversation(second)))
    return outcome, b.result()


def _count(engine: Engine, table: type[ConversationRecord] | type[Property]) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(table)).one())


def test_two_replicas_storing_the_same_document_at_once_both_succeed(
    engine: Engine, store: Store, replica_b: Replica
) -> None:
    with store.unit() as unit:  # the property is known: the race is on the conversation's row
        unit.properties.ensure("lampliter", name="Lampliter", timezone="America/Chicago", locale="en")

    a_outcome, b_result = _race(store, replica_b, LAMPLITER, LAMPLITER)

    assert a_outcome is PutOutcome.NEW
    assert b_result.outcome is PutOutcome.UNCHANGED
    assert _count(engine, ConversationRecord) == 1


def test_the_first_two_documents_of_a_new_property_at_once_both_succeed(
    engine: Engine, store: Store, replica_b: Replica
) -> None:
    other = copy.deepcopy(LAMPLITER)
    other["conversation_id"] = "c0a80101-lampliter-0002"

    a_outcome, b_result = _race(store, replica_b, LAMPLITER, other)

    assert a_outcome is PutOutcome.NEW
    assert b_result.outcome is PutOutcome.NEW and b_result.grades_written == 2
    assert (_count(engine, Property), _count(engine, ConversationRecord)) == (1, 2)
