"""Turn check: Clara promises nothing whose precondition is not on file (the unbacked promise)."""

from __future__ import annotations

from cerebrus.exclusions import excluded
from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text_rules import language_applies
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
    # An offer ("would you like me to send someone?") or a package on the way promises no visit.
    taken_back = excluded(
        text.promise_exclusions, tokens, [(start, stop) for _, _, start, stop in hits], view.draft_language
    )
    for _, entry, start, stop in hits:
        pattern_id, language, fact, tool, backed_detail, unbacked_detail = entry
        if language is not None and not language_applies(language, view.draft_language):
            continue
        if (start, stop) in taken_back:
            continue
        if fact is not None:
            grounded = not is_empty(view.parent.fact(fact))
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
