"""Rows for store tests: a machine grade and a human act with every required field filled plausibly."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from gradecore.persistence.entities import GradeVerdict, MachineGrade, User
from gradecore.persistence.store import Unit, item_ref

BASE_TIME = datetime(2026, 7, 17, 18, 0, tzinfo=UTC)


def machine_grade(
    conversation_id: str = "conv-1",
    turn_id: str | None = "t1",
    *,
    level: str = "hold",
    source: str = "cerebrus.deterministic",
    property_id: str = "camellia",
    minutes: int = 0,
) -> MachineGrade:
    return MachineGrade(
        id=str(uuid.uuid4()),
        item_type="conversation" if turn_id is None else "turn",
        item_ref=item_ref(conversation_id, turn_id),
        conversation_id=conversation_id,
        turn_id=turn_id,
        property_id=property_id,
        source=source,
        rubric_version="r1",
        content_hash="0" * 64,
        level=level,
        headline=f"{level.upper()} · something",
        reason="a reason",
        owner="clara",
        dimensions=[{"check": "tools_succeeded", "level": level}],
        citations=[],
        usage=None,
        created_at=BASE_TIME + timedelta(minutes=minutes),
    )


def verdict(
    grader: User,
    grade: MachineGrade,
    *,
    signal: str = "up",
    expected_level: str | None = None,
    principles: list[str] | None = None,
    act_key: str | None = None,
    minutes: int = 0,
) -> GradeVerdict:
    assert grader.id is not None
    frozen: dict[str, Any] = {
        "id": grade.id,
        "level": grade.level,
        "source": grade.source,
        "rubric_version": grade.rubric_version,
    }
    return GradeVerdict(
        grader_user_id=grader.id,
        item_type=grade.item_type,
        item_ref=grade.item_ref,
        conversation_id=grade.conversation_id,
        turn_id=grade.turn_id,
        property_id=grade.property_id,
        signal=signal,
        expected_level=expected_level or (grade.level if signal == "up" else None),
        principles=principles or [],
        error_class="clara" if signal == "up" else "grader",
        machine_grade_id=grade.id,
        machine_grade_at_time=frozen,
        origin="slack_reaction",
        act_key=act_key,
        created_at=BASE_TIME + timedelta(minutes=minutes),
    )


def graded_item(unit: Unit, email: str = "pat@example.test") -> tuple[User, MachineGrade]:
    """A staff user and one stored machine grade for them to act on."""
    user = unit.users.by_email(email) or unit.users.add(email, "Pat Doe")
    return user, unit.grades.add(machine_grade())
