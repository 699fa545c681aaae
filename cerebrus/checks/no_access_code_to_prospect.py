"""Turn check: a door or buzz code never goes to a prospect (matched by the code's identity)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text import mask_code
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope, Span

# The finding most turns get, built once at import (a shared finding costs nothing per call).
NO_CODE = passed("no_access_code", "The draft contains no access code.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_access_code_to_prospect(view: TurnView) -> Finding:
    """The person the turn answers is a prospect and the draft contains one of facts.access_codes as a
    whole token."""
    if not view.parent.code_matcher:
        return not_applicable("The property has no access codes on file.")
    if view.answered is None:
        return not_applicable("The turn answers no inbound message, so nobody is known to receive it.")
    if view.answered.role != "prospect":
        return not_applicable(f"The turn answers a {view.answered.role}, not a prospect.")
    # The quote is left out on purpose: a receipt may never hold the code in clear.
    evidence = [
        Evidence(
            message_id=view.message.id,
            turn_id=view.turn.id,
            span=Span(start=start, end=end),
            fact_key="access_codes",
            detail=f"access code {mask_code(view.draft[start:end])} sent to a prospect",
        )
        for start, end in view.parent.code_matcher.spans(view.draft, whole_tokens_only=True)
    ]
    if evidence:
        return failed("access_code_to_prospect", "The draft gives a prospect an access code.", *evidence)
    return NO_CODE
