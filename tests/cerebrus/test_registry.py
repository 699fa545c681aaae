"""The registry, and the contract every registered check keeps."""

from __future__ import annotations

import pytest

from cerebrus import CHECK_IDS, CheckRegistry, Rules, check, default_registry, grade
from cerebrus.findings import Finding, failed, passed
from cerebrus.registry import CheckDeclarationError
from cerebrus.views import TurnView
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Kind, Layer, Level, NotCheckedWhy, Outcome, Owner, Scope
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import assert_receipts_exact

CHECK_TABLE = {  # the table in docs/grading.md
    "followup_exists": (Scope.CONVERSATION, Layer.PACING, Owner.CLARA, Level.HOLD),
    "escalation_closed": (Scope.CONVERSATION, Layer.HANDOFF, Owner.OURS, Level.HOLD),
    "one_message_per_trigger": (Scope.CONVERSATION, Layer.OUTPUT, Owner.OURS, Level.HOLD),
    "required_facts_present": (Scope.TURN, Layer.TRUTH, Owner.OURS, Level.HOLD),
    "required_facts_in_context": (Scope.TURN, Layer.CONTEXT, Owner.OURS, Level.HOLD),
    "mandated_tools_called": (Scope.TURN, Layer.LOOP, Owner.CLARA, Level.HOLD),
    "tools_succeeded": (Scope.TURN, Layer.TOOLS, Owner.OURS, Level.HOLD),
    "no_internal_narration": (Scope.TURN, Layer.OUTPUT, Owner.CLARA, Level.BLOCK),
    "loop_progress": (Scope.TURN, Layer.LOOP, Owner.CLARA, Level.REPAIR),
    "not_truncated": (Scope.TURN, Layer.SHAPE, Owner.OURS, Level.BLOCK),
    "token_budget": (Scope.TURN, Layer.SHAPE, Owner.OURS, Level.REPAIR),
    "amounts_match_ledger": (Scope.TURN, Layer.OUTPUT, Owner.CLARA, Level.REPAIR),
    "no_ungrounded_policy_claim": (Scope.TURN, Layer.OUTPUT, Owner.CLARA, Level.BLOCK),
    "no_access_code_to_prospect": (Scope.TURN, Layer.OUTPUT, Owner.CLARA, Level.BLOCK),
    "reply_language_matches": (Scope.TURN, Layer.OUTPUT, Owner.CLARA, Level.HOLD),
}


# Rules under which one turn can fail both fact checks: arrival_instructions is missing from the
# ledger, office_hours is on file but never reaches Clara's context.
WRONG_RULES = Rules.model_validate(
    {"required_facts": {"tour_request": ["office_hours", "arrival_instructions"]}}
)


def _everything_wrong() -> Conversation:
    """One conversation on which every shipped check fails (under WRONG_RULES)."""
    steps = [claude(stop_reason="tool_use", input_tokens=40_000, iteration=i) for i in range(7)] + [
        tool("lookup", input={"a": 1}, result={}),
        tool("lookup", input={"a": 1}, result={}),
        tool("dispatch_vendor", status="error", error="vendor api exploded badly"),
        claude("x", system_prompt="Nothing useful.", stop_reason="max_tokens"),
    ]
    draft = (
        "Our system says the vendor api exploded badly; rent is $9,999 and we'll text you access "
        "instructions; a technician will be there; code 4821."
    )
    builder = ConversationBuilder(facts={"arrival_instructions": None}).participant("tmpl", "system")
    builder.inbound("¿Cuánto cuesta la renta del departamento de dos habitaciones?", language="es")
    builder.outbound("Template", author="tmpl").reply(
        draft, intent="tour_request", steps=steps, language="en"
    )
    return builder.escalation().inbound("Is anyone there at all?").settled(days=2).build()


def test_the_shipped_registry_matches_the_spec_table() -> None:
    registry = default_registry()
    assert set(registry.ids) == set(CHECK_TABLE) == set(CHECK_IDS)
    for spec in registry:
        assert (spec.scope, spec.layer, spec.owner, spec.level) == CHECK_TABLE[spec.id]
        assert spec.kind is Kind.DETERMINISTIC


@pytest.mark.parametrize("check_id", sorted(CHECK_TABLE))
def test_every_check_keeps_the_contract(check_id: str) -> None:
    spec = default_registry().get(check_id)
    assert spec.id == spec.function.__name__ == check_id
    assert spec.function.__module__ == f"cerebrus.checks.{check_id}"
    assert spec.doc and spec.function.__doc__
    registry = CheckRegistry([spec])

    wrong = _everything_wrong()
    graded = grade(wrong, rules=WRONG_RULES, registry=registry)
    (result,) = [d for d in graded.all_dimensions() if d.check == check_id]
    assert result.outcome is Outcome.FAIL, result.reason
    assert result.level is spec.level
    assert result.evidence
    assert_receipts_exact(wrong, result)

    # A conversation with no trace, no intent, no inbound, no escalation, no codes: nothing applies.
    empty = ConversationBuilder(facts={"access_codes": []}).reply("", intent=None, steps=[]).build()
    (result,) = [d for d in grade(empty, registry=registry).all_dimensions() if d.check == check_id]
    assert result.outcome is Outcome.NOT_CHECKED
    assert result.not_checked_why in (NotCheckedWhy.NOT_APPLICABLE, NotCheckedWhy.DATA_MISSING)
    assert result.level is Level.PASS


def test_default_registry_is_fresh_each_time() -> None:
    first, second = default_registry(), default_registry()
    assert first is not second
    spec = first.get("token_budget")
    trimmed = first.without("token_budget")
    assert "token_budget" not in trimmed and "token_budget" in first and "token_budget" in second
    with pytest.raises(CheckDeclarationError, match="duplicate"):
        first.register(spec)


def test_a_new_check_is_declared_in_one_place_and_graded_through_a_registry() -> None:
    @check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.REPAIR)
    def no_exclamations(view: TurnView) -> Finding:
        """The draft shouts."""
        if "!" in view.draft:
            return failed("shouting", "The draft shouts.", *[])  # no evidence: refused below
        return passed("calm", "The draft is calm.")

    assert (no_exclamations.id, no_exclamations.owner) == ("no_exclamations", Owner.CLARA)
    calm = ConversationBuilder().inbound("Hi").reply("Hello.").build()
    graded = grade(calm, registry=CheckRegistry([no_exclamations]))
    assert graded.turns[0].dimensions[0].check == "no_exclamations"
    loud = ConversationBuilder().inbound("Hi").reply("Hello!").build()
    with pytest.raises(CheckDeclarationError, match="without evidence"):
        grade(loud, registry=CheckRegistry([no_exclamations]))


def test_owner_can_be_overridden_and_a_docstring_is_required() -> None:
    @check(layer=Layer.OUTPUT, scope=Scope.CONVERSATION, level=Level.HOLD, owner=Owner.OURS)
    def platform_thing(view: object) -> Finding:
        """Documented."""
        return passed("ok", "Ok.")

    assert platform_thing.owner is Owner.OURS
    with pytest.raises(CheckDeclarationError, match="docstring"):

        @check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.HOLD)
        def undocumented(view: TurnView) -> Finding:
            return passed("ok", "Ok.")
