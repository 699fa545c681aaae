"""Turn check: Clara promises nothing whose precondition is not on file (the unbacked promise)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text.hits import promise_hits
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import draft_evidence, is_empty, succeeded_so_far

NO_PROMISE = not_applicable("The draft makes no promise a rule covers.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_ungrounded_policy_claim(view: TurnView) -> Finding:
    """A promise pattern matches the draft and its precondition is not on file: its requires_fact is
    empty, or its requires_tool succeeded neither in this turn nor in an earlier turn."""
    tokens = view.tokens
    hits = promise_hits(view.compiled.text, tokens, view.turn.intent, lambda: view.draft_language)
    if not hits:
        return NO_PROMISE
    unbacked: list[Evidence] = []
    backed: list[Evidence] = []
    for entry, start, stop in hits:
        pattern_id, _, fact, tool, backed_detail, unbacked_detail = entry
        if fact is not None:
            grounded = not is_empty(view.conversation.property.facts.value(fact))
        else:
            grounded = tool is not None and succeeded_so_far(view, tool)
        receipt = draft_evidence(
            view,
            tokens.folded.span(start, stop),
            fact_key=fact,
            tool_name=tool,
            detail=backed_detail if grounded else unbacked_detail,
            rule_entry=pattern_id,
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
