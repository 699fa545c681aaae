"""`grade(conversation)`: run every check of a registry over one conversation and assemble the grade.

Pure and deterministic: the same document, rules and registry always give an equal grade; nothing
here reads a clock, the environment or the network. Judged dimensions come in from the judge lane
(`judged`, keyed by turn id) and never change a deterministic outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from cerebrus.assemble import Placed, headline, ownership_split, scope_statement, verdict
from cerebrus.judged import JUDGED_LAYERS, place_judged
from cerebrus.redact import redact
from cerebrus.registry import CheckRegistry, default_registry
from cerebrus.rules import Rules
from cerebrus.version import ENGINE_VERSION
from cerebrus.views import ConversationView, TurnView
from gradecore.contract import Conversation
from gradecore.grades import ConversationGrade, TurnGrade
from gradecore.vocabulary import DimensionResult


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
) -> ConversationGrade:
    """Grade one settled conversation, layer by layer; the verdict is the worst colouring level."""
    rules = rules if rules is not None else _default_rules()
    registry = registry if registry is not None else _shared_default_registry()
    view = ConversationView(conversation, rules)
    codes = view.access_codes

    conversation_dims = tuple(redact(spec.run(view), codes) for spec in registry.conversation_checks())
    turn_checks = registry.turn_checks()
    turns: list[TurnGrade] = []
    for number, turn in enumerate(conversation.turns, start=1):
        turn_view = TurnView(view, turn, number)
        dims = tuple(redact(spec.run(turn_view), codes) for spec in turn_checks)
        dims += place_judged(None if judged is None else judged.get(turn.id), rules.calibrated_judged)
        level = verdict(dims)
        turns.append(
            TurnGrade(
                turn_id=turn.id,
                message_id=turn.message_id,
                number=number,
                level=level,
                headline=headline([(number, turn.id, d) for d in dims], level),
                dimensions=dims,
            )
        )

    placed: list[Placed] = [(0, None, d) for d in conversation_dims]
    placed.extend((t.number, t.turn_id, d) for t in turns for d in t.dimensions)
    everything = [d for _, _, d in placed]
    level = verdict(everything)
    return ConversationGrade(
        conversation_id=conversation.conversation_id,
        property_id=conversation.property.id,
        rubric_version=rules.rubric_version,
        engine_version=ENGINE_VERSION,
        level=level,
        headline=headline(placed, level),
        dimensions=conversation_dims,
        turns=tuple(turns),
        split=ownership_split(everything),
        scope=scope_statement((*registry.ids, *JUDGED_LAYERS), everything, judge_on=judged is not None),
    )
