"""`grade(conversation)`: run every check of a registry over one conversation and assemble the grade.

Pure and deterministic: the same document, rules and registry always give an equal grade; nothing
here reads a clock, the environment or the network. Judged dimensions come in from the judge lane
(`judged`, keyed by turn id) and never change a deterministic outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from cerebrus.assemble import GradeAssembly
from cerebrus.construct import conversation_grade, turn_grade
from cerebrus.judged_dimensions import JUDGED_DIMENSIONS, place_judged
from cerebrus.redact import redact
from cerebrus.registry import CheckRegistry, default_registry
from cerebrus.rules import Rules
from cerebrus.version import ENGINE_VERSION
from cerebrus.views import ConversationView, TurnView
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade, Headline, TurnGrade
from gradecore.model.vocabulary import DimensionResult, Level

# Bound once: compared with every turn's level.
_PASS = Level.PASS


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

    conversation_dims, receipted = _conversation_results(registry, view)
    # The conversation headline sits with the first place (conversation scope, then the lowest turn
    # number) whose headline level is the conversation's: that place's own headline, by the stated order.
    level, lead = _place(assembly, conversation_dims, receipted, None)

    plan = registry.turn_plan()
    # Without judged results, the judged dimensions are owed (`judge_pending`: the lane is on and
    # scores after ingest) or simply not checked (the lane is off).
    judge_off = place_judged(None, calibrated, pending=judge_pending)
    turns: list[TurnGrade] = []
    for number, turn in enumerate(conversation.turns, start=1):
        turn_view = TurnView(view, turn, number)
        dims: list[DimensionResult] = []
        # Where the results with receipts (built for this turn) stand; every other result is a shared
        # one (built once): then the turn's placement is found again by their identities instead of
        # being worked out (see GradeAssembly.place_shared and GradeAssembly.place_mixed).
        own: list[int] = []
        shared = True
        for spec, function, shared_result in plan:
            # spec.run(turn_view), with the shared-result look-up inlined: the hot loop of grading.
            # A finding with receipts is never a shared one (see CheckSpec.shared), so the look-up
            # comes first: most findings are shared.
            finding = function(turn_view)
            hit = shared_result(id(finding))
            if hit is not None:
                dims.append(hit)
            elif finding.evidence:
                # Only receipts can hold an access code; shared results have none.
                own.append(len(dims))
                dims.append(redact(spec.receipted(finding), codes))
            else:
                dims.append(spec.result(finding))
                shared = False
        supplied = None if judged is None else judged.get(turn.id)
        if supplied:
            dims.extend(place_judged(supplied, calibrated))
            shared = False
        else:
            dims.extend(judge_off)
        dimensions = tuple(dims)
        if shared:
            turn_level, turn_headline = _place(assembly, dimensions, own, turn.id)
        else:
            turn_level, turn_headline = assembly.place(dimensions, turn.id)
        if turn_level is not _PASS and (level is _PASS or turn_level > level):
            level, lead = turn_level, turn_headline
        turns.append(
            turn_grade(
                turn_id=turn.id,
                message_id=turn.message_id,
                number=number,
                level=turn_level,
                headline=turn_headline,
                dimensions=dimensions,
            )
        )

    return conversation_grade(
        conversation_id=conversation.conversation_id,
        property_id=conversation.property.id,
        rubric_version=rules.rubric_version,
        engine_version=ENGINE_VERSION,
        level=level,
        headline=lead,
        dimensions=conversation_dims,
        turns=tuple(turns),
        split=assembly.split(),
        scope=assembly.scope(_scope_ids(registry.ids), judge_on=judged is not None or judge_pending),
    )


def _conversation_results(
    registry: CheckRegistry, view: ConversationView
) -> tuple[tuple[DimensionResult, ...], list[int]]:
    """The conversation checks' results (those with receipts redacted), and where the receipted ones stand."""
    found: list[DimensionResult] = []
    receipted: list[int] = []
    for spec in registry.conversation_checks():
        result = spec.run(view)
        if result.evidence:
            # Only receipts can hold an access code; shared results have none.
            result = redact(result, view.code_matcher)
            receipted.append(len(found))
        found.append(result)
    return tuple(found), receipted


def _place(
    assembly: GradeAssembly,
    dimensions: tuple[DimensionResult, ...],
    own: list[int],
    where: str | None,
) -> tuple[Level, Headline]:
    """Place results that are all shared ones (built once) but for those at the positions `own`."""
    if not own:
        return assembly.place_shared(dimensions, where)
    return assembly.place_mixed(dimensions, own, where)


@lru_cache(maxsize=64)
def _scope_ids(check_ids: tuple[str, ...]) -> tuple[str, ...]:
    """Every dimension id in scope order: the registry's checks, then the judged dimensions."""
    return (*check_ids, *JUDGED_DIMENSIONS)
