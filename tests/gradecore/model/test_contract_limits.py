"""The contract's limits against the columns: whatever the contract accepts, the store can hold.

A value the contract lets through and a column refuses was a 503 for ever (the platform retries a
valid document that can never be stored). Each contract field stored in a column is listed with the
columns it lands in; the contract's limit must be no larger than any of them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import BaseModel
from sqlmodel import SQLModel

from gradecore.model import contract
from gradecore.model.vocabulary import MAX_REASON_CHARS, Reason
from gradecore.persistence.entities import ConversationRecord, GradeVerdict, MachineGrade, Property, SlackPost
from tests.gradecore.docs import demo_doc, only_error

STORED: list[tuple[type[BaseModel], str, list[tuple[type[SQLModel], str]]]] = [
    (
        contract.Conversation,
        "conversation_id",
        [
            (ConversationRecord, "conversation_id"),
            (MachineGrade, "conversation_id"),
            (GradeVerdict, "conversation_id"),
            (SlackPost, "conversation_id"),
        ],
    ),
    (contract.Turn, "id", [(MachineGrade, "turn_id"), (GradeVerdict, "turn_id"), (SlackPost, "turn_id")]),
    (
        contract.Property,
        "id",
        [
            (Property, "id"),
            (ConversationRecord, "property_id"),
            (MachineGrade, "property_id"),
            (GradeVerdict, "property_id"),
            (SlackPost, "property_id"),
        ],
    ),
    (contract.Property, "name", [(Property, "name")]),
    (contract.Property, "timezone", [(Property, "timezone")]),
    (contract.Property, "locale", [(Property, "locale")]),
]


def _max_length(model: type[BaseModel], field: str) -> int | None:
    for constraint in model.model_fields[field].metadata:
        found = getattr(constraint, "max_length", None)
        if found is not None:
            return int(found)
    return None


@pytest.mark.parametrize(("model", "field", "columns"), STORED, ids=lambda v: getattr(v, "__name__", str(v)))
def test_every_stored_field_fits_every_column_it_lands_in(
    model: type[BaseModel], field: str, columns: list[tuple[type[SQLModel], str]]
) -> None:
    limit = _max_length(model, field)
    assert limit is not None, f"{model.__name__}.{field} has no length limit"
    for entity, column in columns:
        width = entity.__table__.c[column].type.length  # type: ignore[attr-defined]
        assert limit <= width, (
            f"{model.__name__}.{field} allows {limit}, {entity.__name__}.{column} holds {width}"
        )


def test_a_reason_is_cut_to_its_column_at_a_word() -> None:
    sentence = "The draft states " + ", ".join(f"${n}" for n in range(1000)) + "."

    cut = Reason(slug="amount_mismatch", sentence=sentence).sentence

    assert len(cut) <= MAX_REASON_CHARS <= MachineGrade.__table__.c["reason"].type.length  # type: ignore[attr-defined]
    assert cut.endswith("…") and sentence.startswith(cut[:-1])
    assert cut[-2] != " " and sentence[len(cut) - 1] in ", "  # cut after a whole amount


def test_a_short_reason_is_kept_as_is() -> None:
    assert Reason(slug="clean", sentence="Every check passed.").sentence == "Every check passed."


@pytest.mark.parametrize(
    ("moment", "accepted"),
    [
        (datetime(2000, 1, 1, tzinfo=UTC), True),
        (datetime(2100, 12, 31, 23, 59, 59, tzinfo=UTC), True),
        (datetime(2000, 1, 1, 5, tzinfo=timezone(timedelta(hours=6))), False),  # 1999 in UTC
        (datetime(2101, 1, 1, tzinfo=UTC), False),
    ],
)
def test_dates_are_bounded_after_conversion_to_utc(moment: datetime, accepted: bool) -> None:
    doc = demo_doc("lampliter-unbacked-promise.json")
    doc["settled_at"] = moment.isoformat()
    doc["messages"] = doc["messages"][:0]
    doc["turns"] = []
    if accepted:
        contract.validate_conversation(doc)
    else:
        path, message = only_error(doc)
        assert path == "settled_at" and "2000 to 2100" in message
