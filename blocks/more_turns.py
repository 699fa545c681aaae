"""The reply that lists a conversation's flagged turns beyond the thread's bound.

One conversation with 80 flagged turns once queued 81 posts and held the channel for 80 seconds. Past
`SMITH_MAX_THREAD_REPLIES`, the remaining turns are listed here, one line each (number and headline),
with how to see them in full.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import Block

from blocks.common import (
    PostContent,
    access_codes,
    context,
    conversation_link,
    escape,
    listed_section,
    mask_codes,
    plain_metadata,
)
from blocks.copydeck import deck_for
from blocks.limits import MAX_FALLBACK_TEXT, clip
from gradecore.model.contract import Conversation
from gradecore.model.grades import TurnGrade

MORE_TURNS_EVENT_TYPE = "smith_more_turns"
MAX_LISTED_TURNS = 40  # more than this is summarised: "…and 12 more"


def build_more_turns_blocks(
    turns: Sequence[TurnGrade],
    conversation: Conversation,
    *,
    conversation_url: str | None,
    idempotency_key: str,
    locale: str | None = None,
) -> PostContent:
    """One thread reply listing `turns` (number and headline each), and how to see them in full."""
    texts = deck_for(locale or conversation.property.locale)
    codes = access_codes(conversation)
    lines = [
        "• "
        + escape(
            mask_codes(
                texts.turn_headline(
                    turn.number, texts.headline(turn.headline.level.value, turn.headline.reason.slug)
                ),
                codes,
            )
        )
        for turn in turns[:MAX_LISTED_TURNS]
    ]
    link = conversation_link(conversation_url, texts.OPEN_CONVERSATION)
    blocks: list[Block] = [
        listed_section(texts.more_turns_heading(len(turns)), lines, MAX_LISTED_TURNS, len(turns), texts),
        context(*link, escape(texts.more_turns_how_to_see(bool(link)))),
    ]
    return PostContent(
        blocks=blocks,
        text=clip(escape(texts.more_turns_fallback(len(turns))), MAX_FALLBACK_TEXT),
        metadata=plain_metadata(MORE_TURNS_EVENT_TYPE, idempotency_key),
    )
