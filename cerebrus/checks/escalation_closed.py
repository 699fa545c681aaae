"""Conversation check: every escalation to a human was closed within the escalation SLA."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import ConversationView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import humanize

NOTHING_ESCALATED = not_applicable("Nothing was escalated.")


@check(layer=Layer.HANDOFF, scope=Scope.CONVERSATION, level=Level.HOLD)
def escalation_closed(view: ConversationView) -> Finding:
    """An escalation has no closed_at and was opened more than escalation_sla before settled_at."""
    escalations = view.conversation.escalations
    if not escalations:
        return NOTHING_ESCALATED
    settled = view.conversation.settled_at
    stale = [
        Evidence(detail=f"escalation {e.id} to {e.to} open for {humanize(settled - e.opened_at)}")
        for e in escalations
        if e.closed_at is None and settled - e.opened_at > view.rules.thresholds.escalation_sla
    ]
    if stale:
        return failed("escalation_left_open", "An escalation was left open past its deadline.", *stale)
    return passed("escalations_handled", "Every escalation was closed or is still within its deadline.")
