"""Conversation check: the last question someone asked got an answer within the follow-up SLA."""

from __future__ import annotations

import re

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text.phrase_rules import applies
from cerebrus.text.tokens import TokenizedText
from cerebrus.views import ConversationView
from gradecore.model.contract import Message
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import humanize

# Who can answer: Clara or a person. A system broadcast or template answers nobody.
ANSWERING_ROLES = frozenset({"clara", "staff"})
QUESTION_MARK_ENTRY = "ask.question_mark"
# Sentences end at `.`, `!`, `?` or a line break; the mark (if any) says whether it was a statement.
_SENTENCE_END = re.compile(r"[.!?]+|\n+")
# Where a sentence's first token begins: its first letter or digit.
_TOKEN_CHAR = re.compile(r"[^\W_]")


@check(layer=Layer.PACING, scope=Scope.CONVERSATION, level=Level.HOLD)
def followup_exists(view: ConversationView) -> Finding:
    """The last inbound message asks something, no later clara or staff outbound message followed it,
    and it is older than followup_sla at settled_at."""
    messages = view.conversation.messages
    # Plain loops, not generators: this runs once per conversation graded.
    last = len(messages) - 1
    while last >= 0 and messages[last].direction != "inbound":
        last -= 1
    if last < 0:
        return not_applicable("Nobody wrote in, so there is nothing to follow up.")
    inbound = messages[last]
    asked = asks(view, inbound)
    if asked is None:
        return not_applicable("The last inbound message asks nothing.")
    participants = view.participants
    for position in range(last + 1, len(messages)):
        answer = messages[position]
        author = participants.get(answer.author)
        if answer.direction == "outbound" and author is not None and author.role in ANSWERING_ROLES:
            return passed(
                "answered",
                "The last question was answered.",
                Evidence(message_id=answer.id, detail=f"answers {inbound.id}"),
            )
    waited = view.conversation.settled_at - inbound.at
    if waited <= view.rules.thresholds.followup_sla:
        return passed("within_sla", "The last question is unanswered but still within the follow-up time.")
    return failed(
        "unanswered_question",
        f"The last question went unanswered for {humanize(waited)}.",
        Evidence(
            message_id=inbound.id,
            detail=f"unanswered for {humanize(waited)} at settled_at",
            rule_entry=asked,
        ),
    )


def asks(view: ConversationView, message: Message) -> str | None:
    """Why a message asks something (the rule entry: the question mark or an interrogative pattern),
    or None when it does not: a `?`/`¿`, or a sentence not ending in `.`/`!` that begins with an
    interrogative of the message's language."""
    text = message.text
    if "?" in text or "¿" in text:
        return QUESTION_MARK_ENTRY
    interrogatives = view.compiled.text.interrogatives
    tokens = TokenizedText(text)
    if not interrogatives.may_match(tokens):
        return None
    folded = tokens.folded.folded
    language: list[str | None] = []  # worked out at most once, and only if a pattern needs it
    start = 0
    for end in [*(m for m in _SENTENCE_END.finditer(folded)), None]:
        stop = end.start() if end is not None else len(folded)
        statement = end is not None and end.group()[-1] in ".!"
        first = _TOKEN_CHAR.search(folded, start, stop) if not statement else None
        if first is not None and tokens.starts_token(first.start()):
            for _, pattern, end_offset in interrogatives.starting_at(tokens, first.start()):
                if end_offset > stop:
                    continue  # a match must stay inside its sentence
                if pattern.language is not None and not language:
                    language.append(view.language_of(message)[0])
                if pattern.language is None or applies(pattern, language[0]):
                    return pattern.id
        start = end.end() if end is not None else len(folded)
    return None
