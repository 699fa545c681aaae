"""The grading engine's second round of shortcuts gives exactly what the plain computation gives.

Validated construction without `__init__`, placements found again by the results' identities,
folding a text by replacing its few distinct accented characters, and facts looked up once per
conversation: each is checked against the straightforward formulation.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from cerebrus import Rules, grade
from cerebrus.assemble import GradeAssembly
from cerebrus.construct import builder
from cerebrus.text.folding import _FOLD, FoldedText
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade, Headline, TurnGrade
from gradecore.model.vocabulary import DimensionResult, Evidence, Span
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check
from tests.cerebrus.strategies import conversations
from tests.profiles import examples


def _fields(model: BaseModel) -> dict[str, Any]:
    """The fields a model was built with, as the engine hands them to a builder."""
    return {name: getattr(model, name) for name in model.model_fields_set}


@settings(max_examples=examples(60))
@given(conversations())
def test_a_builder_builds_what_the_constructor_builds(conversation: Conversation) -> None:
    graded = grade(conversation)
    models: list[BaseModel] = [graded, graded.headline, *graded.turns]
    for dimension in graded.all_dimensions():
        models.append(dimension)
        for evidence in dimension.evidence:
            models.append(evidence)
            if evidence.span is not None:
                models.append(evidence.span)
    for model in models:
        fields = _fields(model)
        built = builder(type(model))(fields)
        assert type(built) is type(model)
        assert built == type(model)(**fields) == model
        assert built.model_fields_set == model.model_fields_set


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (Span, {"start": -1, "end": 2}),
        (Evidence, {"detail": "x", "typo": 1}),
        (Headline, {"level": "bad"}),
        (TurnGrade, {"turn_id": "t1"}),
        (ConversationGrade, {}),
        (DimensionResult, {"check": "x"}),
    ],
)
def test_a_builder_validates_like_the_constructor(model: type[BaseModel], fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)
    with pytest.raises(ValidationError):
        builder(model)(fields)


def _state(tally: GradeAssembly) -> tuple[object, object]:
    return tally.split(), tally.scope(("a", "b", *(f"c{i}" for i in range(40))), judge_on=False)


@settings(max_examples=examples(80))
@given(st.lists(conversations(), min_size=1, max_size=3))
def test_a_shared_placement_is_the_placement(graded_conversations: list[Conversation]) -> None:
    # Every turn of every grade placed plainly and through the shared path (twice: the second time
    # it comes from the cache), into separate tallies that must end up alike.
    plain, shared, again = GradeAssembly(), GradeAssembly(), GradeAssembly()
    for conversation in graded_conversations:
        for turn in grade(conversation).turns:
            expected = plain.place(turn.dimensions, turn.turn_id)
            assert shared.place_shared(turn.dimensions, turn.turn_id) == expected
            assert again.place_shared(tuple(turn.dimensions), turn.turn_id) == expected
    assert _state(shared) == _state(plain) == _state(again)


@settings(max_examples=examples(80))
@given(st.lists(conversations(), min_size=1, max_size=3))
def test_a_mixed_placement_is_the_placement(graded_conversations: list[Conversation]) -> None:
    # Every turn placed plainly and through the mixed path, its results with receipts as its own ones
    # (twice: the second time the shared part comes from the cache): the tallies must end up alike.
    plain, mixed, again = GradeAssembly(), GradeAssembly(), GradeAssembly()
    for conversation in graded_conversations:
        for turn in grade(conversation).turns:
            expected = plain.place(turn.dimensions, turn.turn_id)
            dims = tuple(turn.dimensions)
            own = [position for position, d in enumerate(dims) if d.evidence]
            assert mixed.place_mixed(dims, own, turn.turn_id) == expected
            assert again.place_mixed(dims, own, turn.turn_id) == expected
    assert _state(mixed) == _state(plain) == _state(again)


def test_a_mixed_placement_with_a_check_twice_is_the_placement() -> None:
    # One check's result both shared and own (never so in a turn, but a caller may): the plain
    # computation decides, so the first reason seen still stays.
    first = run_check(ConversationBuilder().inbound("Hi?").reply("Hello").build(), "mandated_tools_called")
    second = first.model_copy(update={"not_checked_why": "data_missing"})
    plain, mixed = GradeAssembly(), GradeAssembly()
    dims = (first, second)
    assert mixed.place_mixed(dims, [1], None) == plain.place(dims, None)
    assert _state(mixed) == _state(plain)


def test_a_placement_keeps_the_first_reason_a_check_was_not_checked_for() -> None:
    # The same check not checked for two different reasons: the first one seen stays, whether the
    # turns are placed plainly or through the shared path.
    first = run_check(ConversationBuilder().inbound("Hi?").reply("Hello").build(), "mandated_tools_called")
    second = first.model_copy(update={"not_checked_why": "data_missing"})
    plain, shared = GradeAssembly(), GradeAssembly()
    for dims in ((first,), (second,)):
        plain.place(dims, None)
        shared.place_shared(dims, None)
    assert _state(shared) == _state(plain)
    assert (
        shared.scope(("mandated_tools_called",), judge_on=False).not_checked[0].why == first.not_checked_why
    )


# Accented and irregular characters, a capital sigma (whose lower case depends on its neighbours),
# typographic apostrophes and a backtick: what the replace-then-lower-case folding must get right.
_MIXED = st.lists(
    st.sampled_from(
        ["a", "B", " ", "é", "É", "ñ", "¿", "Σ", "ΑΣ", "σ", "İ", "ß", "ẞ", "ﬁ", "\u0301", "’", "`", "K"]
    ),
    max_size=20,
).map("".join)


@settings(max_examples=examples(500))
@given(_MIXED)
def test_mixed_text_folds_as_character_by_character(text: str) -> None:
    assert FoldedText(text).folded == text.translate(_FOLD)


def test_facts_looked_up_once_per_conversation_answer_each_intent() -> None:
    # Two intents asking for different facts in one conversation: each turn gets its own answer.
    rules = Rules.model_validate(
        {"required_facts": {"tour_request": ["office_hours"], "pets": ["pet_policy"]}}
    )
    conversation = (
        ConversationBuilder(facts={"office_hours": "Mon-Fri 9:00-17:00", "pet_policy": None})
        .inbound("Tour?")
        .reply("Sure", intent="tour_request")
        .inbound("Pets?")
        .reply("Let me check", intent="pets")
        .inbound("And tours on Saturday?")
        .reply("No", intent="tour_request")
        .build()
    )
    outcomes = [
        run_check(conversation, "required_facts_present", rules, turn=t).reason.slug for t in range(3)
    ]
    assert outcomes == ["facts_on_file", "fact_missing", "facts_on_file"]
