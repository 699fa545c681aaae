"""The parent post: one per flagged conversation, in the property's channel (docs/slack-surface.md).

It says who and when (the other party's first name, the channel, the local time), how bad, what
happened in one plain sentence per failure and what to do, whose mistake it was, and how to answer.
Engineering detail (check ids, layers, rubric) goes in the message metadata, never in the text.
Per-turn detail goes in the thread replies, so the parent stays the same size however many turns
were flagged.
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
    other_party,
    section,
    when_line,
)
from blocks.copydeck import deck_for
from blocks.detail import engineering_detail
from blocks.dimensions import (
    advisory_failures,
    advisory_line,
    colouring_failures,
    failure_line,
    receipts_for,
)
from blocks.limits import MAX_FALLBACK_TEXT, clip
from blocks.reviewed import reviewed_block
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade

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
    turns_in_thread: int | None = None,
    property_name: str | None = None,
    tickets: Mapping[str, str] | None = None,
) -> PostContent:
    """The parent post for one flagged conversation, in `locale` (by default the conversation's),
    with its reviewed-by line when someone has reviewed it.

    `turns_in_thread` is how many flagged turns have a reply of their own (the rest are listed in one
    last reply); `property_name` the stored name, which wins over the document's."""
    texts = deck_for(locale or conversation.property.locale)
    codes = access_codes(conversation)
    # Masked even though they come from the grader and the ledger: no code reaches Slack by any route.
    headline = mask_codes(texts.headline(grade.headline.level.value, grade.headline.reason.slug), codes)
    party = other_party(conversation)
    first_flagged = grade.flagged_turns[0].message_id if grade.flagged_turns else None
    where = mask_codes(
        texts.who_and_when(
            property_name or conversation.property.name,
            conversation.channel,
            party.first_name,
            party.role,
            when_line(conversation, first_flagged, texts.LOCALE),
        ),
        codes,
    )
    flagged_line = texts.turns_flagged(len(grade.flagged_turns), len(grade.turns), turns_in_thread)
    # The level's plain meaning sits under the headline: "HOLD" alone reads as "we held the message".
    legend = texts.level_meaning(grade.headline.level.value)
    blocks: list[Block] = [header(headline), context(escape(where), escape(legend))]

    # What happened, so the post can be acted on without opening the thread: the conversation's own
    # failures, then each kind of failure found in its turns (once per check, worst first).
    failures = colouring_failures(grade.dimensions)
    listed_checks = {d.check for d in failures}
    for turn in grade.flagged_turns:
        for dimension in colouring_failures(turn.dimensions):
            if dimension.check not in listed_checks:
                listed_checks.add(dimension.check)
                failures.append(dimension)
    failures.sort(key=lambda d: -d.level.rank)
    if failures:
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

    split = texts.ownership_split(
        [layer.value for layer in grade.split.clara], [layer.value for layer in grade.split.ours]
    )
    blocks.append(section(escape("\n".join(line for line in (flagged_line, split) if line))))
    not_checked = [(item.check, item.why.value) for item in grade.scope.not_checked]
    scope = texts.scope_statement(len(grade.scope.checks_run), not_checked)
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
        metadata=grade_metadata(
            grade.conversation_id,
            None,
            machine_grade_id,
            idempotency_key,
            detail=engineering_detail(
                [*grade.dimensions, *(d for turn in grade.flagged_turns for d in turn.dimensions)],
                codes=codes,
                rubric_version=grade.rubric_version,
                checks_run=len(grade.scope.checks_run),
                not_checked=not_checked,
            ),
        ),
    )
