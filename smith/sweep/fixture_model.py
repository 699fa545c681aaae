"""The versioned fixture document, `smith.fixture/v1` (docs/fixtures.md), as a strict pydantic model."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue, field_validator

from gradecore.contract import ContractViolation, validate_conversation
from gradecore.vocabulary import Level

FORMAT_V1 = "smith.fixture/v1"
FixtureKind = Literal["grader", "clara", "ours"]


class FixtureV1(BaseModel):
    """One human verdict with a known expected level, made into a reusable case."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["smith.fixture/v1"]
    kind: FixtureKind
    verdict_id: int = Field(ge=1)
    created_at: AwareDatetime
    conversation_id: str = Field(min_length=1, max_length=128)
    # The graded turn; None when the verdict was on the whole conversation.
    turn_id: str | None = Field(default=None, min_length=1, max_length=128)
    expected_level: Level
    reason: str | None = Field(default=None, max_length=4000)
    machine_grade_at_time: dict[str, JsonValue]
    grader_user_id: int
    principles: list[str]
    # The anonymized conversation, cut after the graded turn: a valid smith.conversation/v1 document.
    input: dict[str, Any]

    @field_validator("input")
    @classmethod
    def _input_is_a_conversation(cls, document: dict[str, Any]) -> dict[str, Any]:
        try:
            validate_conversation(document)
        except ContractViolation as exc:
            raise ValueError(f"not a smith.conversation/v1 document: {exc}") from None
        return document

    @field_validator("principles")
    @classmethod
    def _principles_are_distinct(cls, principles: list[str]) -> list[str]:
        if len(set(principles)) != len(principles):
            raise ValueError("principles must be folded: each tag once")
        return principles
