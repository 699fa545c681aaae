"""Validated construction of the models a grade is made of, minus `BaseModel.__init__`'s Python frame.

`Model(**fields)` hands its keyword arguments as a dict to pydantic-core's validator from a
Python-level `__init__`; calling that validator on the same dict runs the very same validation (so
the model is equal, with the same fields set, and a typo still cannot slip into a grade) about a
third faster. That adds up over the few models built per turn. `model_construct` is no shortcut:
on this pydantic version it copies the fields in Python and is slower than validating them.

Two kinds of model are assembled without validating again what is already valid: a result with
receipts (`with_receipts`: its check's validated template, the receipts checked to be validated
models), and the turn and conversation grades (`turn_grade`, `conversation_grade`: every part is a
value the engine built, typed field by field, so mypy stands where a typo check would). Validating
them would only copy those parts in; tests hold each equal to its validated twin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from gradecore.model.grades import ConversationGrade, Headline, OwnershipSplit, ScopeStatement, TurnGrade
from gradecore.model.vocabulary import DimensionResult, Evidence, Level, Reason, Span

M = TypeVar("M", bound=BaseModel)

Builder = Callable[[dict[str, Any]], M]
"""Builds a model from a dict of its fields, validating them exactly as `Model(**fields)` would."""


def builder(model: type[M]) -> Builder[M]:
    """The model's own validator as a function of a field dict (bound once; no wrapper frame)."""
    return cast("Builder[M]", model.__pydantic_validator__.validate_python)


new_span: Builder[Span] = builder(Span)
new_evidence: Builder[Evidence] = builder(Evidence)
new_dimension: Builder[DimensionResult] = builder(DimensionResult)
new_headline: Builder[Headline] = builder(Headline)
new_turn_grade: Builder[TurnGrade] = builder(TurnGrade)
new_conversation_grade: Builder[ConversationGrade] = builder(ConversationGrade)


_new = object.__new__
_set = object.__setattr__


def _assembled(model: type[M], fields: dict[str, Any], given: frozenset[str]) -> M:
    """A model of `model` holding `fields` (every field, in declaration order; `given` those set
    explicitly), as validation leaves one of a model without extra fields or private attributes."""
    built = _new(model)
    _set(built, "__dict__", fields)
    _set(built, "__pydantic_fields_set__", set(given))
    _set(built, "__pydantic_extra__", None)
    _set(built, "__pydantic_private__", None)
    return built


def with_receipts(
    template: DimensionResult, reason: Reason, evidence: tuple[Evidence, ...]
) -> DimensionResult | None:
    """`template` (a validated result, every field set) with another reason and these receipts, as
    validating that dict would build it; None unless that is certain, and the caller validates.

    Validation keeps a Reason or an Evidence as it is (pydantic does not revalidate an instance), so
    for a tuple of exactly those models it would only copy them in: copying the template's fields
    builds the equal result without validating again the check's identity, which never changes."""
    if type(reason) is not Reason or type(evidence) is not tuple:
        return None
    for receipt in evidence:
        if type(receipt) is not Evidence:
            return None
    fields = template.__dict__.copy()
    fields["reason"] = reason
    fields["evidence"] = evidence
    return _assembled(DimensionResult, fields, _DIMENSION_FIELDS)


_DIMENSION_FIELDS = frozenset(DimensionResult.model_fields)
_TURN_GIVEN = frozenset(TurnGrade.model_fields) - {"judge_usage"}
_CONVERSATION_FIELDS = frozenset(ConversationGrade.model_fields)


def turn_grade(
    *,
    turn_id: str,
    message_id: str,
    number: int,
    level: Level,
    headline: Headline,
    dimensions: tuple[DimensionResult, ...],
) -> TurnGrade:
    """A turn's grade as `new_turn_grade` builds it from these fields (`number` counts from 1)."""
    fields = {
        "turn_id": turn_id,
        "message_id": message_id,
        "number": number,
        "level": level,
        "headline": headline,
        "dimensions": dimensions,
        "judge_usage": None,
    }
    return _assembled(TurnGrade, fields, _TURN_GIVEN)


def conversation_grade(
    *,
    conversation_id: str,
    property_id: str,
    rubric_version: str,
    engine_version: str,
    level: Level,
    headline: Headline,
    dimensions: tuple[DimensionResult, ...],
    turns: tuple[TurnGrade, ...],
    split: OwnershipSplit,
    scope: ScopeStatement,
) -> ConversationGrade:
    """A conversation's grade as `new_conversation_grade` builds it from these fields."""
    fields = {
        "conversation_id": conversation_id,
        "property_id": property_id,
        "rubric_version": rubric_version,
        "engine_version": engine_version,
        "level": level,
        "headline": headline,
        "dimensions": dimensions,
        "turns": turns,
        "split": split,
        "scope": scope,
    }
    return _assembled(ConversationGrade, fields, _CONVERSATION_FIELDS)
