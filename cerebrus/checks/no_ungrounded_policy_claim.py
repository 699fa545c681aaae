"""Turn check: Clara promises nothing whose precondition is not on file (the unbacked promise)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.literals import may_match
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope, Span

from ._common import draft_evidence, is_empty

# The finding most turns get, built once at import (a shared finding costs nothing per call).
NO_PROMISE = not_applicable("The draft makes no promise a rule covers.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_ungrounded_policy_claim(view: TurnView) -> Finding:
    """A promise rule matches the draft and its requires_fact is empty or its requires_tool did not
    succeed in this turn."""
    unbacked: list[Evidence] = []
    backed: list[Evidence] = []
    text = view.folded
    folded = text.folded
    for promise, keys, patterns in view.compiled.promise_scans:
        if not may_match(folded, keys):
            continue
        # Matches as offsets first, then one span per distinct place in the original draft (two
        # folded ranges can cover the same original characters), in draft order.
        matched: dict[tuple[int, int], None] = {}
        for pattern, literals in patterns:
            if may_match(folded, literals):
                for match in pattern.finditer(folded):
                    start, end = match.span()
                    if end > start:
                        matched[(start, end)] = None
        if not matched:
            continue
        spans: dict[tuple[int, int], Span] = {}
        for start, end in matched:
            span = text.span(start, end)
            spans[(span.start, span.end)] = span
        if promise.requires_fact is not None:
            grounded = not is_empty(view.parent.fact(promise.requires_fact))
            missing = f"no {promise.requires_fact} on file"
        else:
            grounded = promise.requires_tool in view.succeeded_tools
            missing = f"no successful {promise.requires_tool} call"
        for place in sorted(spans):
            span = spans[place]
            receipt = draft_evidence(
                view,
                span,
                fact_key=promise.requires_fact,
                tool_name=promise.requires_tool,
                detail=f"promise {promise.id}" + ("" if grounded else f": {missing}"),
            )
            (backed if grounded else unbacked).append(receipt)
    if unbacked:
        return failed("unbacked_promise", "The draft promises something nothing on file backs.", *unbacked)
    if backed:
        return passed("promise_backed", "Every promise in the draft is backed.", *backed)
    return NO_PROMISE
