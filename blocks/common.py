"""What every Smith post is made of: `PostContent`, mrkdwn escaping, masking and small block helpers.

Anything that came from a conversation (a tenant's words, a property name, a tool's error) is escaped
before it reaches mrkdwn, so `<@U123>` or `<!channel>` in a draft can never ping anyone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    HeaderBlock,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)
from slack_sdk.models.metadata import Metadata

from blocks import locales, texts
from blocks.copydeck import CopyDeck
from blocks.limits import (
    MAX_BUTTON_TEXT,
    MAX_CONTEXT_ELEMENTS,
    MAX_CONTEXT_TEXT,
    MAX_HEADER_TEXT,
    MAX_SECTION_TEXT,
    MAX_URL,
    clip,
    slack_length,
)
from gradecore.model.access_codes import code_matcher
from gradecore.model.contract import Conversation

GRADE_EVENT_TYPE = "smith_grade"
CORRECT_GRADE_ACTION_ID = "smith_correct_grade"


@dataclass(frozen=True)
class PostContent:
    """One Slack message, ready to validate and queue: blocks, plain-text fallback and metadata."""

    blocks: list[Block]
    text: str
    metadata: Metadata | None = None

    def as_message(self) -> dict[str, Any]:
        """The `chat.postMessage`/`chat.update` arguments this post stands for (channel and ts aside)."""
        return self.message_of([block.to_dict() for block in self.blocks])

    def message_of(self, rendered_blocks: list[dict[str, Any]]) -> dict[str, Any]:
        """`as_message`, given this post's blocks already rendered (`to_dict`)."""
        message: dict[str, Any] = {"text": self.text, "blocks": rendered_blocks}
        if self.metadata is not None:
            message["metadata"] = {
                "event_type": self.metadata.event_type,
                "event_payload": self.metadata.event_payload,
            }
        return message


def grade_metadata(
    conversation_id: str,
    turn_id: str | None,
    machine_grade_id: str | None,
    idempotency_key: str,
    detail: dict[str, Any] | None = None,
) -> Metadata:
    """Metadata that traces a post back to its grade from Slack alone, and lets the relay find it again;
    `detail` is the engineering detail the visible text leaves out (blocks/detail.py)."""
    payload: dict[str, Any] = {
        "conversation_id": conversation_id,
        "turn_id": turn_id,
        "machine_grade_id": machine_grade_id,
        "idempotency_key": idempotency_key,
    }
    if detail is not None:
        payload["detail"] = detail
    return Metadata(event_type=GRADE_EVENT_TYPE, event_payload=payload)


def plain_metadata(event_type: str, idempotency_key: str | None) -> Metadata | None:
    """Metadata for posts that show no grade (tally, digest, notice): only the relay's idempotency key."""
    if idempotency_key is None:
        return None
    return Metadata(event_type=event_type, event_payload={"idempotency_key": idempotency_key})


def escape(text: str) -> str:
    """Escape the three characters Slack's mrkdwn treats as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_CHANNEL_ID = re.compile(r"[CG][A-Z0-9]{2,}")


@dataclass(frozen=True)
class ChannelLink:
    """A Slack channel shown as a link (`<#C123>`, which Slack renders as #its-name), not as text."""

    channel_id: str

    def mrkdwn(self) -> str:
        # Only a well-formed id becomes markup; anything else stays visible, escaped text.
        return f"<#{self.channel_id}>" if _CHANNEL_ID.fullmatch(self.channel_id) else escape(self.channel_id)


def inline_mrkdwn(parts: str | Sequence[str | ChannelLink]) -> str:
    """Plain text escaped, channel links kept as links."""
    if isinstance(parts, str):
        return escape(parts)
    return "".join(part.mrkdwn() if isinstance(part, ChannelLink) else escape(part) for part in parts)


def mask_codes(text: str, codes: Iterable[str]) -> str:
    """Replace each access code by a same-length mask such as `••21`.

    Same length on purpose: character spans computed on the original text stay valid on the masked one.
    Codes of four or more characters are masked wherever they occur (`04821` would still show the code);
    shorter ones only as whole tokens, or every `12` in a draft would vanish.
    """
    return code_matcher(codes).mask(text, keep_length=True)


def access_codes(conversation: Conversation) -> list[str]:
    return list(conversation.property.facts.access_codes)


@dataclass(frozen=True)
class OtherParty:
    """Who wrote in: their first name (staff see it in their own channel) and role, when known."""

    first_name: str | None
    role: str | None


def other_party(conversation: Conversation) -> OtherParty:
    """The first person who wrote in, by first name; their role alone when the record has no name."""
    people = {p.id: p for p in conversation.participants}
    inbound = [m.author for m in conversation.messages if m.direction == "inbound"]
    writers = [people[author] for author in inbound if author in people]
    if not writers:
        writers = [p for p in conversation.participants if p.role not in ("clara", "system")]
    if not writers:
        return OtherParty(None, None)
    first = writers[0]
    words = (first.name or "").split()
    return OtherParty(words[0] if words else None, first.role)


def when_line(conversation: Conversation, message_id: str | None, locale: str) -> str | None:
    """The local date and time of a message (the flagged turn's draft), else of the last message."""
    moment = next((m.at for m in conversation.messages if m.id == message_id), None)
    if moment is None and conversation.messages:
        moment = conversation.messages[-1].at
    if moment is None:
        return None
    return locales.local_moment(moment, conversation.property.timezone, locale)


def fit_lines(
    lines: Sequence[str],
    budget: int,
    max_lines: int | None = None,
    total: int | None = None,
    deck: CopyDeck = texts,
) -> str:
    """Join as many lines as fit in `budget`, then say how many were left out (`…and 12 more`).

    `total` is how many lines there are in all, when the caller rendered only the first few.
    """
    total = len(lines) if total is None else max(total, len(lines))
    kept: list[str] = []
    for index, line in enumerate(lines):
        left_after = total - index - 1
        reserve = slack_length("\n" + deck.and_more(total)) if left_after else 0
        if max_lines is not None and len(kept) >= max_lines:
            break
        candidate = "\n".join([*kept, line])
        if slack_length(candidate) + reserve > budget:
            if not kept:  # always show something: the first line, cut to what is left
                kept.append(clip(line, budget - reserve - 1))
            break
        kept.append(line)
    if len(kept) < total:
        kept.append(deck.and_more(total - len(kept)))
    return "\n".join(kept)


def section(mrkdwn: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=clip(mrkdwn, MAX_SECTION_TEXT)))


def header(plain: str) -> HeaderBlock:
    return HeaderBlock(text=PlainTextObject(text=clip(plain, MAX_HEADER_TEXT), emoji=True))


def context(*mrkdwn: str) -> ContextBlock:
    elements = [MarkdownTextObject(text=clip(t, MAX_CONTEXT_TEXT)) for t in mrkdwn if t.strip()]
    return ContextBlock(elements=elements[:MAX_CONTEXT_ELEMENTS])


def correct_grade_actions(
    conversation_id: str, turn_id: str | None, machine_grade_id: str | None, deck: CopyDeck
) -> ActionsBlock:
    """The "Correct this grade" button; its value tells the modal which item is corrected."""
    # Raw characters, not \u escapes: a 128-character id of emoji would otherwise pass Slack's limit.
    value = json.dumps(
        {"c": conversation_id, "t": turn_id, "g": machine_grade_id}, separators=(",", ":"), ensure_ascii=False
    )
    button = ButtonElement(
        text=clip(deck.CORRECT_GRADE_BUTTON, MAX_BUTTON_TEXT),
        action_id=CORRECT_GRADE_ACTION_ID,
        value=value,
    )
    return ActionsBlock(elements=[button])


def bold(mrkdwn: str) -> str:
    return f"*{mrkdwn}*" if mrkdwn.strip() else mrkdwn


def listed_section(
    heading: str, lines: Sequence[str], max_lines: int, total: int | None = None, deck: CopyDeck = texts
) -> SectionBlock:
    """A bold heading over bullet lines, summarised (`…and 12 more`) past `max_lines` or the size limit."""
    head = bold(escape(heading))
    budget = MAX_SECTION_TEXT - slack_length(head) - 1
    body = fit_lines(lines, budget, max_lines=max_lines, total=total, deck=deck)
    return section(f"{head}\n{body}")


def conversation_link(url: str | None, label: str) -> list[str]:
    """A mrkdwn link, or nothing when there is no usable URL (a broken link is worse than none)."""
    if not url or not url.startswith(("https://", "http://")):
        return []
    # `<`, `>` and `|` would end the link early; spaces would break it.
    safe = quote(url, safe=":/?#[]@!$&'()*+,;=%~-._")
    if len(safe) > MAX_URL:
        return []
    return [f"<{safe.replace('&', '&amp;')}|{escape(label)}>"]
