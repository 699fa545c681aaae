"""Turn check: Clara promises nothing whose precondition is not on file (the unbacked promise)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text_rules import applies
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope

from ._common import draft_evidence, is_empty, succeeded_so_far

# The finding most turns get, built once at import (a shared finding costs nothing per call).
NO_PROMISE = not_applicable("The draft makes no promise a rule covers.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_ungrounded_policy_claim(view: TurnView) -> Finding:
    """A promise pattern matches the draft and its precondition is not on file: its requires_fact is
    empty, or its requires_tool succeeded neither in this turn nor in an earlier turn."""
    text = view.compiled.text
    tokens = view.tokens
    hits = text.promises.scan(tokens)
    if view.turn.intent in text.maintenance_intents:
        hits.extend(text.maintenance_promises.scan(tokens))
    if not hits:
        return NO_PROMISE
    unbacked: list[Evidence] = []
    backed: list[Evidence] = []
    for _, (promise, pattern), start, stop in hits:
        if pattern.language is not None and not applies(pattern, view.draft_language):
            continue
        if promise.requires_fact is not None:
            grounded = not is_empty(view.parent.fact(promise.requires_fact))
            missing = f"no {promise.requires_fact} on file"
        else:
            grounded = promise.requires_tool in succeeded_so_far(view)
            missing = f"no successful {promise.requires_tool} call in this turn or before"
        receipt = draft_evidence(
            view,
            tokens.folded.span(start, stop),
            fact_key=promise.requires_fact,
            tool_name=promise.requires_tool,
            detail=f"promise {promise.id}" + ("" if grounded else f": {missing}"),
            rule_entry=pattern.id,
        )
        (backed if grounded else unbacked).append(receipt)
    if unbacked:
        unbacked.sort(key=_place)
        return failed("unbacked_promise", "The draft promises something nothing on file backs.", *unbacked)
    if backed:
        backed.sort(key=_place)
        return passed("promise_backed", "Every promise in the draft is backed.", *backed)
    return NO_PROMISE


def _place(evidence: Evidence) -> int:
    return evidence.span.start if evidence.span else 0
