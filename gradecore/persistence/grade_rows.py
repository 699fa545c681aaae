"""Turns a ConversationGrade into MachineGrade rows: one per graded item (the conversation, each turn).

The rows are plain typed dicts, inserted as they are (`GradesRepo.add_all`): building an ORM object
per row cost more than validating the document it grades.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypedDict

from gradecore.model.grades import ConversationGrade, JudgeUsage, TurnGrade
from gradecore.model.keys import item_ref
from gradecore.model.vocabulary import DimensionResult, Kind, Outcome
from gradecore.persistence.entities import MachineGrade, utcnow
from gradecore.persistence.store.grades import FROZEN_FIELDS

SOURCE_DETERMINISTIC = "cerebrus.deterministic"
SOURCE_JUDGE = "cerebrus.judge"


class MachineGradeRow(TypedDict):
    """One `machine_grades` row, every column."""

    id: str
    item_type: str
    item_ref: str
    conversation_id: str
    turn_id: str | None
    property_id: str
    source: str
    rubric_version: str
    content_hash: str
    level: str
    headline: str
    reason: str
    owner: str | None
    dimensions: list[dict[str, Any]]
    citations: list[dict[str, Any]]
    usage: dict[str, Any] | None
    created_at: datetime


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _source(dimensions: Sequence[DimensionResult]) -> str:
    judged = any(d.kind is Kind.JUDGED and d.outcome is not Outcome.NOT_CHECKED for d in dimensions)
    return SOURCE_JUDGE if judged else SOURCE_DETERMINISTIC


def _citations(dimensions: Sequence[DimensionResult]) -> list[dict[str, Any]]:
    """The verified quotes the grade rests on (every quote is a substring of its draft, by the engine)."""
    return [
        {"check": d.check, **e.model_dump(mode="json", exclude_none=True)}
        for d in dimensions
        for e in d.evidence
        if e.quote is not None
    ]


def turn_content_hash(grade: ConversationGrade, turn: TurnGrade) -> str:
    """Equal when a re-sent conversation left this turn's grade as it was (under the same rubric)."""
    return _turn_hash(grade, _dumped(turn))


def _dumped(turn: TurnGrade) -> dict[str, Any]:
    return turn.model_dump(mode="json", exclude={"judge_usage"})


def _turn_hash(grade: ConversationGrade, dumped: dict[str, Any]) -> str:
    return _digest([grade.rubric_version, dumped])


def conversation_machine_grade(grade: ConversationGrade, document_hash: str) -> MachineGradeRow:
    dimensions = grade.dimensions
    return MachineGradeRow(
        id=str(uuid.uuid4()),
        item_type="conversation",
        item_ref=item_ref(grade.conversation_id),
        turn_id=None,
        conversation_id=grade.conversation_id,
        property_id=grade.property_id,
        source=_source(grade.all_dimensions()),
        rubric_version=grade.rubric_version,
        content_hash=_digest([grade.rubric_version, document_hash]),
        level=grade.level.value,
        headline=grade.headline.reason.slug,
        reason=grade.headline.reason.sentence,
        owner=owner.value if (owner := grade.worst_owner()) else None,
        dimensions=[d.model_dump(mode="json") for d in dimensions],
        citations=_citations(grade.all_dimensions()),
        usage=None,
        created_at=utcnow(),
    )


def turn_machine_grade(grade: ConversationGrade, turn: TurnGrade) -> MachineGradeRow:
    usage: JudgeUsage | None = turn.judge_usage
    failing = [d for d in turn.dimensions if d.failed and d.colouring_level is turn.level]
    dumped = _dumped(turn)  # once: the content hash and the stored dimensions are both made of it
    return MachineGradeRow(
        id=str(uuid.uuid4()),
        item_type="turn",
        item_ref=item_ref(grade.conversation_id, turn.turn_id),
        conversation_id=grade.conversation_id,
        turn_id=turn.turn_id,
        property_id=grade.property_id,
        source=_source(turn.dimensions),
        rubric_version=grade.rubric_version,
        content_hash=_turn_hash(grade, dumped),
        level=turn.level.value,
        headline=turn.headline.reason.slug,
        reason=turn.headline.reason.sentence,
        owner=failing[0].owner.value if failing and turn.flagged else None,
        dimensions=dumped["dimensions"],
        citations=_citations(turn.dimensions),
        usage=None if usage is None else usage.model_dump(mode="json"),
        created_at=utcnow(),
    )


def frozen_copy(grade: MachineGrade) -> dict[str, Any]:
    """What a GradeVerdict keeps of the machine grade it judged, as it was at that moment."""
    return {name: getattr(grade, name) for name in FROZEN_FIELDS}
