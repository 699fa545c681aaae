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
from gradecore.vocabulary import DimensionResult, Evidence, Span

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
