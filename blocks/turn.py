"""The thread reply: one per flagged turn, under its conversation's parent post (docs/slack-surface.md).

It shows when, what Clara wrote with the failing part marked, then each failure in a plain sentence
with its receipt and what to do, Clara's mistakes apart from problems on our side, because the two go
to different people (a prompt fixture vs an integration ticket). Which checks, layers and rule
entries fired is engineering detail: in the message metadata, never in the text.
"""

from __future__ import annotations

from collections.abc import Mapping

from slack_sdk.models.blocks import Block

from blocks.common import (
    PostContent,
    access_codes,
    bold,
    correct_grade_actions,
    escape,
    grade_metadata,
    listed_section,
    mask_codes,
    section,
    when_line,
)
from blocks.copydeck import CopyDeck, deck_for
from blocks.detail import engineering_detail
from blocks.dimensions import (
    advisory_failures,
    advisory_line,
    colouring_failures,
    failure_line,
    receipts_for,
)
from blocks.draft import excerpt_draft
from blocks.limits import MAX_FALLBACK_TEXT, clip
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade, TurnGrade
from gradecore.model.vocabulary import DimensionResult, Owner, Span

MAX_LISTED_DIMENSIONS = 8  # more than this is summarised: "…and 12 more"


def build_turn_blocks(
    turn_grade: TurnGrade,
    grade: ConversationGrade,
    conversation: Conversation,
    *,
    machine_grade_id: str | None,
    idempotency_key: str,
    locale: str | None = None,
    tickets: Mapping[str, str] | None = None,
) -> PostContent:
    """The thread reply for one flagged turn, in `locale` (by default the conversation's)."""
    texts = deck_for(locale or conversation.property.locale)
    codes = access_codes(conversation)
    draft = _draft_of(conversation, turn_grade.message_id)
    level, slug = turn_grade.headline.level.value, turn_grade.headline.reason.slug
    # Cut before the bold marks go on, so a long reason cannot push the closing `*` past the limit.
    headline = texts.turn_headline(turn_grade.number, texts.headline(level, slug))
    headline = clip(mask_codes(headline, codes), 200)
    # When Clara sent it, under the headline: the local time staff can find it by in their inbox.
    when = when_line(conversation, turn_grade.message_id, texts.LOCALE)
    top = bold(escape(headline)) + (f"\n{escape(when)}" if when else "")
    blocks: list[Block] = [section(top), _draft_section(draft, turn_grade, codes, texts)]

    failures = colouring_failures(turn_grade.dimensions)
    receipts = receipts_for(
        conversation, draft_message_id=turn_grade.message_id, tool_errors=True, deck=texts, tickets=tickets
    )
    for owner, heading in ((Owner.CLARA, texts.CLARAS_HEADING), (Owner.OURS, texts.OURS_HEADING)):
        mine = [d for d in failures if d.owner is owner]
        if mine:
            lines = [failure_line(d, receipts) for d in mine[:MAX_LISTED_DIMENSIONS]]
            blocks.append(listed_section(heading, lines, MAX_LISTED_DIMENSIONS, len(mine), texts))
    advisory = advisory_failures(turn_grade.dimensions)
    if advisory:
        lines = [advisory_line(d, codes, texts) for d in advisory[:MAX_LISTED_DIMENSIONS]]
        blocks.append(
            listed_section(texts.ADVISORY_HEADING, lines, MAX_LISTED_DIMENSIONS, len(advisory), texts)
        )
    blocks.append(correct_grade_actions(grade.conversation_id, turn_grade.turn_id, machine_grade_id, texts))

    return PostContent(
        blocks=blocks,
        text=clip(escape(headline), MAX_FALLBACK_TEXT),
        metadata=grade_metadata(
            grade.conversation_id,
            turn_grade.turn_id,
            machine_grade_id,
            idempotency_key,
            detail=engineering_detail(
                turn_grade.dimensions, codes=codes, rubric_version=grade.rubric_version
            ),
        ),
    )


def _draft_of(conversation: Conversation, message_id: str) -> str | None:
    return next((m.text for m in conversation.messages if m.id == message_id), None)


def _draft_section(draft: str | None, turn_grade: TurnGrade, codes: list[str], texts: CopyDeck) -> Block:
    if draft is None:
        return section(escape(texts.no_draft()))
    if not draft.strip():
        return section(escape(texts.empty_draft()))
    spans = _failing_spans(turn_grade.dimensions, mask_codes(draft, codes))
    excerpt = excerpt_draft(draft, spans, codes)
    more = f"\n{escape(texts.more_marks(excerpt.unshown_marks))}" if excerpt.unshown_marks else ""
    return section(f"{escape(texts.draft_label(excerpt.excerpted))}\n{excerpt.mrkdwn}{more}")


def _failing_spans(dimensions: tuple[DimensionResult, ...], masked_draft: str) -> list[Span]:
    """Where each failure points into the draft: its span, else where its quote is found.

    Quotes are searched in the masked draft because the grader masks access codes in its evidence;
    masking keeps lengths, so the positions hold for the original draft too.
    """
    spans: list[Span] = []
    for evidence in (e for d in dimensions if d.failed for e in d.evidence):
        if evidence.span is not None:
            spans.append(evidence.span)
        elif evidence.quote and (start := masked_draft.find(evidence.quote)) != -1:
            spans.append(Span(start=start, end=start + len(evidence.quote)))
    return spans
