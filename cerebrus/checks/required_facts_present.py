"""Turn check: the facts the turn's intent needs are on file in the property's ledger."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import facts_on_file, intent_table

ON_FILE = passed("facts_on_file", "Every fact this intent needs is on file.")


@check(layer=Layer.TRUTH, scope=Scope.TURN, level=Level.HOLD)
def required_facts_present(view: TurnView) -> Finding:
    """A fact the turn's intent requires (required_facts[intent]) is missing or empty in property.facts."""
    required = intent_table(view, view.rules.required_facts, "required facts")
    if isinstance(required, Finding):
        return required
    missing, _ = facts_on_file(view, required)
    if missing:
        return failed(
            "fact_missing",
            f"The property has no {', '.join(missing)} on file, which a {view.turn.intent} needs.",
            *(
                Evidence(turn_id=view.turn.id, fact_key=key, detail="missing or empty in property.facts")
                for key in missing
            ),
        )
    return ON_FILE
