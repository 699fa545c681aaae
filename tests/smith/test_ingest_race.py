"""Two replicas ingesting at the same moment on PostgreSQL: both succeed, each row is written once.

The race is forced, not hoped for: replica A stores its rows and keeps its transaction open until
PostgreSQL shows replica B waiting on A's row lock (B found nothing and is inserting the same key),
then commits. Before `INSERT … ON CONFLICT DO NOTHING`, B's insert then failed on the unique key and
the platform got a 503.
"""

from __future__ import annotations

import copy
import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, func, text
from sqlmodel import Session, select

from gradecore.model.contract import validate_conversation
from gradecore.persistence.db import create_db_engine
from gradecore.persistence.entities import ConversationRecord, Property
from gradecore.persistence.store import PutOutcome, Store
from smith.ingest import Ingestor, IngestResult
from tests.conftest import load_demo

pytestmark = pytest.mark.parametrize("empty_engine", ["postgres"], indirect=True)

LAMPLITER: dict[str, Any] = json.loads(load_demo("lampliter-unbacked-promise.json"))
WAIT_SECONDS = 60.0  # generous: only a broken test ever waits this long


@pytest.fixture
def replica_b(engine: Engine) -> Iterator[tuple[Store, str]]:
    """A second engine on the same schema, named so the test can see its lock waits."""
    name = f"h10a_race_{uuid.uuid4().hex[:10]}"
    url = engine.url.update_query_dict({"application_name": name})
    second = create_db_engine(url.render_as_string(hide_password=False))
    yield Store(second), name
    second.dispose()


def _waiting_on_a_lock(engine: Engine, application_name: str) -> bool:
    with engine.connect() as connection:
        waiting = connection.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE application_name = :name AND wait_event_type = 'Lock'"
            ),
            {"name": application_name},
        ).scalar_one()
    return bool(waiting)


def _race(
    store: Store, replica_b: tuple[Store, str], first: dict[str, Any], second: dict[str, Any]
) -> tuple[PutOutcome, IngestResult]:
    """A stores `first` and holds its transaction until B, ingesting `second`, waits on it."""
    b_store, b_name = replica_b
    results: dict[str, IngestResult | BaseException] = {}

    def replica_b_ingests() -> None:
        try:
            results["b"] = Ingestor(b_store).ingest(validate_conversation(second))
        except BaseException as exc:  # reported by the assertion below
            results["b"] = exc

    conversation = validate_conversation(first)
    b = threading.Thread(target=replica_b_ingests)
    with store.unit() as unit:
        prop = conversation.property
        unit.properties.ensure(prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale)
        outcome, _ = unit.conversations.put(conversation)
        b.start()
        deadline = time.monotonic() + WAIT_SECONDS
        while not _waiting_on_a_lock(store.engine, b_name):
            assert b.is_alive(), f"B finished without waiting on A's lock: {results.get('b')!r}"
            assert time.monotonic() < deadline, "B never waited on A's lock"
            time.sleep(0.05)
    b.join(WAIT_SECONDS)
    found = results["b"]
    assert isinstance(found, IngestResult), f"replica B failed: {found!r}"
    return outcome, found


def _count(engine: Engine, table: type[ConversationRecord] | type[Property]) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(table)).one())


def test_two_replicas_storing_the_same_document_at_once_both_succeed(
    engine: Engine, store: Store, replica_b: tuple[Store, str]
) -> None:
    with store.unit() as unit:  # the property is known: the race is on the conversation's row
        unit.properties.ensure("lampliter", name="Lampliter", timezone="America/Chicago", locale="en")

    a_outcome, b_result = _race(store, replica_b, LAMPLITER, LAMPLITER)

    assert a_outcome is PutOutcome.NEW
    assert b_result.outcome is PutOutcome.UNCHANGED
    assert _count(engine, ConversationRecord) == 1


def test_the_first_two_documents_of_a_new_property_at_once_both_succeed(
    engine: Engine, store: Store, replica_b: tuple[Store, str]
) -> None:
    other = copy.deepcopy(LAMPLITER)
    other["conversation_id"] = "c0a80101-lampliter-0002"

    a_outcome, b_result = _race(store, replica_b, LAMPLITER, other)

    assert a_outcome is PutOutcome.NEW
    assert b_result.outcome is PutOutcome.NEW and b_result.grades_written == 2
    assert (_count(engine, Property), _count(engine, ConversationRecord)) == (1, 2)
