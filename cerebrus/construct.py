"""Validated construction of the models a grade is made of, minus `BaseModel.__init__`'s Python frame.

`Model(**fields)` hands its keyword arguments as a dict to pydantic-core's validator from a
Python-level `__init__`; calling that validator on the same dict runs the very same validation (so
the model is equal, with the same fields set, and a typo still cannot slip into a grade) about a
third faster. That adds up over the few models built per turn. `model_construct` is no shortcut:
on this pydantic version it copies the fields in Python and is slower than validating them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from gradecore.grades import ConversationGrade, Headline, TurnGrade
from gradecore.vocabulary import DimensionResult, Evidence, Reason, Span

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
    result = _new(DimensionResult)
    _set(result, "__dict__", fields)
    _set(result, "__pydantic_fields_set__", set(template.__pydantic_fields_set__))
    _set(result, "__pydantic_extra__", None)
    _set(result, "__pydantic_private__", None)
    return result
