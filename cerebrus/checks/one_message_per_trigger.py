"""Conversation check: one inbound message is answered by one automated writer, not by two systems at
once. Staff stepping in is a human taking over, never a double send."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import ConversationView
from gradecore.model.vocabulary import Evidence, Layer, Level, Owner, Scope

ONE_WRITER = passed("one_writer", "Each inbound message was answered by at most one automated writer.")

# The roles that write on their own; a staff reply is a person's choice.
AUTOMATED_ROLES = frozenset({"clara", "system"})
RULE_ENTRY = "double_send.automated_authors"


# Owner `ours`: two writers answering one message is a platform orchestration fault, not Clara's prompt.
@check(layer=Layer.OUTPUT, scope=Scope.CONVERSATION, level=Level.HOLD, owner=Owner.OURS)
def one_message_per_trigger(view: ConversationView) -> Finding:
    """An inbound message is answered by outbound messages from two or more different automated authors
    (clara, system) before the next inbound message and within burst_window of the inbound message."""
    messages = view.conversation.messages
    window = view.rules.thresholds.burst_window
    evidence: list[Evidence] = []
    triggers = 0
    for index, inbound in enumerate(messages):
        if inbound.direction != "inbound":
            continue
        triggers += 1
        # Two writers need two replies: most inbound messages get one, so the window is looked at
        # only when two outbound messages follow before the next inbound one.
        if index + 2 >= len(messages) or messages[index + 2].direction == "inbound":
            continue
        if messages[index + 1].direction == "inbound":
            continue
        # The replies: outbound messages up to the next inbound one, within the burst window.
        end = index + 1
        while end < len(messages):
            reply = messages[end]
            if reply.direction == "inbound" or reply.at - inbound.at > window:
                break
            end += 1
        if end - index < 3:
            continue  # fewer than two replies: one writer at most
        answers = [reply for reply in messages[index + 1 : end] if view.role_of(reply) in AUTOMATED_ROLES]
        authors = dict.fromkeys(reply.author for reply in answers)
        if len(authors) >= 2:
            evidence.append(
                Evidence(
                    message_id=inbound.id,
                    detail=f"answered by {len(authors)} automated writers",
                    rule_entry=RULE_ENTRY,
                )
            )
            evidence.extend(
                Evidence(
                    message_id=reply.id,
                    detail=f"reply by {reply.author} ({view.role_of(reply)})",
                    rule_entry=RULE_ENTRY,
                )
                for reply in answers
            )
    if not triggers:
        return not_applicable("Nobody wrote in, so nothing could be answered twice.")
    if evidence:
        return failed(
            "double_send", "One message was answered by two different automated writers.", *evidence
        )
    return ONE_WRITER
