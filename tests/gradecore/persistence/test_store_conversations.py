"""ConversationRecords: put is NEW, then UNCHANGED for an identical re-send, REPLACED when it grew."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from gradecore.model.contract import parse_conversation, validate_conversation
from gradecore.persistence.store import PutOutcome, Store, content_hash
from tests.gradecore.docs import DEMO_NAMES, demo_doc, with_message


def test_new_then_unchanged_then_replaced(store: Store) -> None:
    doc = demo_doc()
    first = validate_conversation(doc)
    with store.unit() as unit:
        outcome, record = unit.conversations.put(first)
        assert outcome is PutOutcome.NEW
        received = record.received_at
    with store.unit() as unit:
        outcome, record = unit.conversations.put(validate_conversation(demo_doc()))
        assert outcome is PutOutcome.UNCHANGED
        assert record.received_at == received
    grown = validate_conversation(with_message(doc, "m4", "p1", "inbound", "Thanks!"))
    with store.unit() as unit:
        outcome, record = unit.conversations.put(grown)
        assert outcome is PutOutcome.REPLACED
        assert record.content_hash == content_hash(grown) != content_hash(first)
        assert record.received_at >= received
    with store.unit() as unit:
        assert unit.conversations.document(first.conversation_id) == grown


def test_reformatted_json_of_the_same_document_is_unchanged(store: Store) -> None:
    raw = json.dumps(demo_doc())
    pretty = json.dumps(dict(reversed(list(demo_doc().items()))), indent=4)
    with store.unit() as unit:
        assert unit.conversations.put(parse_conversation(raw))[0] is PutOutcome.NEW
        assert unit.conversations.put(parse_conversation(pretty))[0] is PutOutcome.UNCHANGED


def test_datetimes_come_back_timezone_aware_and_equal(store: Store) -> None:
    doc = demo_doc()
    doc["settled_at"] = "2026-07-17T11:00:00-07:00"  # an offset other than UTC: same instant as 18:00Z
    conversation = validate_conversation(doc)
    with store.unit() as unit:
        unit.conversations.put(conversation)
    with store.unit() as unit:
        record = unit.conversations.get(conversation.conversation_id)
        assert record is not None
        assert record.settled_at.tzinfo is not None and record.received_at.tzinfo is not None
        assert record.settled_at == datetime(2026, 7, 17, 18, 0, tzinfo=UTC)
        assert abs(record.received_at - datetime.now(UTC)) < timedelta(minutes=5)
        assert record.property_id == "camellia"


def test_every_demo_document_is_stored_and_read_back_equal(store: Store) -> None:
    conversations = [validate_conversation(demo_doc(name)) for name in DEMO_NAMES]
    with store.unit() as unit:
        for conversation in conversations:
            assert unit.conversations.put(conversation)[0] is PutOutcome.NEW
    with store.unit() as unit:
        for conversation in conversations:
            assert unit.conversations.document(conversation.conversation_id) == conversation
        assert unit.conversations.document("missing") is None


def test_settled_between_is_a_half_open_window_per_property(store: Store) -> None:
    settled = ["2026-07-17T06:59:59Z", "2026-07-17T07:00:00Z", "2026-07-18T06:59:59Z", "2026-07-18T07:00:00Z"]
    with store.unit() as unit:
        for index, when in enumerate(settled):
            doc = demo_doc()
            doc["conversation_id"], doc["settled_at"] = f"c{index}", when
            doc["messages"] = doc["messages"][:1]
            doc["turns"] = []
            unit.conversations.put(validate_conversation(doc))
        other = demo_doc("birchwood-dead-thread.json")
        other["settled_at"] = "2026-07-17T12:00:00Z"
        unit.conversations.put(validate_conversation(other))
    start = datetime(2026, 7, 17, 7, tzinfo=UTC)  # a Los Angeles day, in UTC
    with store.unit() as unit:
        found = unit.conversations.settled_between("camellia", start, start + timedelta(days=1))
        assert sorted(record.conversation_id for record in found) == ["c1", "c2"]


def test_a_failed_unit_stores_nothing(store: Store) -> None:
    conversation = validate_conversation(demo_doc())
    try:
        with store.unit() as unit:
            unit.conversations.put(conversation)
            raise RuntimeError("grading failed")
    except RuntimeError:
        pass
    with store.unit() as unit:
        assert unit.conversations.get(conversation.conversation_id) is None
