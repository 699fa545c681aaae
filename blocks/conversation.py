"""The parent post: one per flagged conversation, in the property's channel (docs/slack-surface.md).

It says how bad, why, whose part failed, what was not checked, and how to answer. Per-turn detail goes
in the thread replies, so the parent stays the same size however many turns were flagged.
"""

from __future__ import annotations

from collections.abc import Mapping

from slack_sdk.models.blocks import Block

from blocks.common import (
    PostContent,
    access_codes,
    context,
    conversation_link,
    correct_grade_actions,
    escape,
    grade_metadata,
    header,
    listed_section,
    mask_codes,
    other_party_roles,
    section,
)
from blocks.copydeck import deck_for
from blocks.dimensions import (
    advisory_failures,
    advisory_line,
    colouring_failures,
    failure_line,
    receipts_for,
)
from blocks.limits import MAX_FALLBACK_TEXT, clip
from blocks.reviewed import reviewed_block
from gradecore.contract import Conversation
from gradecore.grades import ConversationGrade

MAX_LISTED_DIMENSIONS = 8  # more than this is summarised: "…and 12 more"


def build_conversation_blocks(
    grade: ConversationGrade,
    conversation: Conversation,
    *,
    machine_grade_id: str | None,
    conversation_url: str | None,
    idempotency_key: str,
    locale: str | None = None,
    reviewed: str | None = None,
    tickets: Mapping[str, str] | None = None,
) -> PostContent:
    """The parent post for one flagged conversation, in `locale` (by default the conversation's),
    with its reviewed-by line when someone has reviewed it."""
    texts = deck_for(locale or conversation.property.locale)
    codes = access_codes(conversation)
    # Masked even though they come from the grader and the ledger: no code reaches Slack by any route.
    headline = mask_codes(texts.headline(grade.headline.level.value, grade.headline.reason.slug), codes)
    where = mask_codes(
        texts.conversation_where(
            conversation.property.name, conversation.channel, other_party_roles(conversation)
        ),
        codes,
    )
    flagged_line = texts.turns_flagged(len(grade.flagged_turns), len(grade.turns))
    # The level's plain meaning sits under the headline: "HOLD" alone reads as "we held the message".
    legend = texts.level_meaning(grade.headline.level.value)
    blocks: list[Block] = [header(headline), context(escape(where), escape(legend))]

    failures = colouring_failures(grade.dimensions)
    if failures:
        # Conversation checks have no thread reply of their own, so their receipts show here.
        receipts = receipts_for(
            conversation, draft_message_id=None, tool_errors=False, deck=texts, tickets=tickets
        )
        lines = [failure_line(d, receipts) for d in failures[:MAX_LISTED_DIMENSIONS]]
        blocks.append(
            listed_section(texts.CONVERSATION_HEADING, lines, MAX_LISTED_DIMENSIONS, len(failures), texts)
        )
    advisory = advisory_failures(grade.dimensions)
    if advisory:
        lines = [advisory_line(d, codes, texts) for d in advisory[:MAX_LISTED_DIMENSIONS]]
        blocks.append(
            listed_section(texts.ADVISORY_HEADING, lines, MAX_LISTED_DIMENSIONS, len(advisory), texts)
        )

    blocks.append(section(escape(flagged_line)))
    split = texts.ownership_split(
        [layer.value for layer in grade.split.clara], [layer.value for layer in grade.split.ours]
    )
    blocks.append(section(escape(split)))
    scope = texts.scope_statement(
        len(grade.scope.checks_run), [(item.check, item.why.value) for item in grade.scope.not_checked]
    )
    blocks.append(context(escape(mask_codes(scope, codes))))
    link = conversation_link(conversation_url, texts.OPEN_CONVERSATION)
    blocks.append(context(*link, escape(texts.how_to_respond())))
    if reviewed is not None and reviewed.strip():
        blocks.append(reviewed_block(reviewed))
    blocks.append(correct_grade_actions(grade.conversation_id, None, machine_grade_id, texts))

    fallback = texts.conversation_fallback(headline, where, flagged_line)
    return PostContent(
        blocks=blocks,
        text=clip(escape(fallback), MAX_FALLBACK_TEXT),
        metadata=grade_metadata(grade.conversation_id, None, machine_grade_id, idempotency_key),
    )
