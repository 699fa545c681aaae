"""Generic posts: an ops notice or ephemeral message, and a digest of headed lists (weekly digest, sweep).

Titles, bodies and lines are plain text, escaped here: a notice that quotes a channel name or a Slack
error can never turn into a mention or a broken link. The one markup a notice body may carry is a
`ChannelLink`, so the ops channel can click through to the channel it is about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from slack_sdk.models.blocks import Block

from blocks import texts
from blocks.common import (
    ChannelLink,
    PostContent,
    bold,
    escape,
    header,
    inline_mrkdwn,
    listed_section,
    plain_metadata,
    section,
)
from blocks.limits import MAX_BLOCKS, MAX_FALLBACK_TEXT, MAX_SECTION_TEXT, clip, slack_length

NOTICE_EVENT_TYPE = "smith_notice"
DIGEST_EVENT_TYPE = "smith_digest"
MAX_DIGEST_LINES = 40


@dataclass(frozen=True, slots=True)
class LinkLine:
    """A digest line that links somewhere: the text is escaped, the URL is Smith's own (never tenant text)."""

    url: str
    text: str

    def mrkdwn(self) -> str:
        # `|` and `>` would end the link early; the URL comes from a tracker, not from a conversation.
        return f"<{self.url.replace('|', '%7C').replace('>', '%3E')}|{escape(self.text)}>"


DigestLine = str | LinkLine


def build_notice_blocks(
    title: str, body: str | Sequence[str | ChannelLink], *, idempotency_key: str | None = None
) -> PostContent:
    """A short message: a bold title over a plain body, which may link channels (long bodies are cut)."""
    head = bold(escape(title)) if title.strip() else ""
    text = inline_mrkdwn(body).strip()
    budget = MAX_SECTION_TEXT - slack_length(head) - 1
    mrkdwn = "\n".join(part for part in (head, clip(text, budget)) if part) or escape(texts.empty_notice())
    return PostContent(
        blocks=[section(mrkdwn)],
        text=clip(mrkdwn, MAX_FALLBACK_TEXT),
        metadata=plain_metadata(NOTICE_EVENT_TYPE, idempotency_key),
    )


def build_digest_blocks(
    sections: Sequence[tuple[str, Sequence[DigestLine]]],
    *,
    title: str | None = None,
    idempotency_key: str | None = None,
) -> PostContent:
    """A titled post of headed lists; too many sections or lines are summarised, never dropped silently."""
    blocks: list[Block] = [header(title)] if title and title.strip() else []
    room = MAX_BLOCKS - len(blocks)
    shown = sections if len(sections) <= room else sections[: room - 1]
    for heading, lines in shown:
        items = [f"• {_line(line)}" for line in lines] or [escape(texts.nothing_to_report())]
        blocks.append(listed_section(heading or texts.untitled_section(), items, MAX_DIGEST_LINES))
    if len(shown) < len(sections):
        blocks.append(section(escape(texts.and_more_sections(len(sections) - len(shown)))))
    if not blocks:
        blocks.append(section(escape(texts.nothing_to_report())))
    summary = title if title and title.strip() else texts.digest_fallback(len(sections))
    return PostContent(
        blocks=blocks,
        text=clip(escape(summary), MAX_FALLBACK_TEXT),
        metadata=plain_metadata(DIGEST_EVENT_TYPE, idempotency_key),
    )


def _line(line: DigestLine) -> str:
    return line.mrkdwn() if isinstance(line, LinkLine) else escape(line)
