"""Conversation check: the last question someone asked got an answer within the follow-up SLA."""

from __future__ import annotations

from cerebrus.construct import new_evidence
from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text import fold
from cerebrus.views import ConversationView
from gradecore.vocabulary import Evidence, Layer, Level, Scope

from ._common import humanize


@check(layer=Layer.PACING, scope=Scope.CONVERSATION, level=Level.HOLD)
def followup_exists(view: ConversationView) -> Finding:
    """The last inbound message asks something and nothing outbound followed it within followup_sla."""
    messages = view.conversation.messages
    # Plain loops, not generators: this runs once per conversation graded.
    last = len(messages) - 1
    while last >= 0 and messages[last].direction != "inbound":
        last -= 1
    if last < 0:
        return not_applicable("Nobody wrote in, so there is nothing to follow up.")
    inbound = messages[last]
    if not _asks(view, inbound.text):
        return not_applicable("The last inbound message asks nothing.")
    for position in range(last + 1, len(messages)):
        answer = messages[position]
        if answer.direction == "outbound":
            return passed(
                "answered",
                "The last question was answered.",
                new_evidence({"message_id": answer.id, "detail": f"answers {inbound.id}"}),
            )
    waited = view.conversation.settled_at - inbound.at
    if waited <= view.rules.thresholds.followup_sla:
        return passed("within_sla", "The last question is unanswered but still within the follow-up time.")
    return failed(
        "unanswered_question",
        f"The last question went unanswered for {humanize(waited)}.",
        Evidence(message_id=inbound.id, detail=f"unanswered for {humanize(waited)} at settled_at"),
    )


def _asks(view: ConversationView, text: str) -> bool:
    if "?" in text or "¿" in text:
        return True
    start = view.compiled.interrogative_start
    return start is not None and start.match(fold(text)) is not None
