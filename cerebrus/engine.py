"""`grade(conversation)`: run every check of a registry over one conversation and assemble the grade.

Pure and deterministic: the same document, rules and registry always give an equal grade; nothing
here reads a clock, the environment or the network. Judged dimensions come in from the judge lane
(`judged`, keyed by turn id) and never change a deterministic outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from cerebrus.assemble import GradeAssembly
from cerebrus.judged_dimensions import JUDGED_DIMENSIONS, place_judged
from cerebrus.redact import redact
from cerebrus.registry import CheckRegistry, default_registry
from cerebrus.rules import Rules
from cerebrus.version import ENGINE_VERSION
from cerebrus.views import ConversationView, TurnView
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade, TurnGrade
from gradecore.model.vocabulary import DimensionResult


@lru_cache(maxsize=1)
def _default_rules() -> Rules:
    return Rules()


@lru_cache(maxsize=1)
def _shared_default_registry() -> CheckRegistry:
    # Private to the engine and never handed out, so nobody can mutate it.
    return default_registry()


def grade(
    conversation: Conversation,
    rules: Rules | None = None,
    registry: CheckRegistry | None = None,
    judged: Mapping[str, Sequence[DimensionResult]] | None = None,
    *,
    judge_pending: bool = False,
) -> ConversationGrade:
    """Grade one settled conversation, layer by layer; the headline level is the worst colouring level."""
    rules = rules if rules is not None else _default_rules()
    registry = registry if registry is not None else _shared_default_registry()
    view = ConversationView(conversation, rules)
    codes = view.code_matcher
    calibrated = rules.calibrated_judged
    assembly = GradeAssembly()

    conversation_dims = tuple(redact(spec.run(view), codes) for spec in registry.conversation_checks())
    # The conversation headline sits with the first place (conversation scope, then the lowest turn
    # number) whose headline level is the conversation's: that place's own headline, by the stated order.
    level, lead = assembly.place(conversation_dims, None)

    # Without judged results, the judged dimensions are owed (`judge_pending`: the lane is on and
    # scores after ingest) or simply not checked (the lane is off).
    judge_off = place_judged(None, calibrated, pending=judge_pending)
    turns: list[TurnGrade] = []
    for number, turn in enumerate(conversation.turns, start=1):
        turn_view = TurnView(view, turn, number)
        # Only receipts can hold an access code: `redact` hands a result without any back as it is.
        dims = [redact(spec.run(turn_view), codes) for spec in registry.turn_checks()]
        supplied = None if judged is None else judged.get(turn.id)
        dims.extend(place_judged(supplied, calibrated) if supplied else judge_off)
        dimensions = tuple(dims)
        turn_level, turn_headline = assembly.place(dimensions, turn.id)
        if turn_level > level:
            level, lead = turn_level, turn_headline
        turns.append(
            TurnGrade(
                turn_id=turn.id,
                message_id=turn.message_id,
                number=number,
                level=turn_level,
                headline=turn_headline,
                dimensions=dimensions,
            )
        )

    return ConversationGrade(
        conversation_id=conversation.conversation_id,
        property_id=conversation.property.id,
        rubric_version=rules.rubric_version,
        engine_version=ENGINE_VERSION,
        level=level,
        headline=lead,
        dimensions=conversation_dims,
        turns=tuple(turns),
        split=assembly.split(),
        scope=assembly.scope(
            (*registry.ids, *JUDGED_DIMENSIONS), judge_on=judged is not None or judge_pending
        ),
    )
