"""Slack's Block Kit limits, clipping to them, and `validate_post`, which refuses a post Slack would reject.

Slack rejects a whole message (`invalid_blocks`) when one element is over a limit, so every builder clips
to these numbers and every post is validated before it is queued (docs/slack-surface.md). Lengths are
counted in
UTF-16 code units, the stricter of the ways the limit can be read: an emoji counts as two.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackObjectFormationError

if TYPE_CHECKING:
    from blocks.common import PostContent

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_SECTION_FIELDS = 10
MAX_FIELD_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10
MAX_CONTEXT_TEXT = 3000
MAX_ACTIONS_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_URL = 3000
MAX_ID = 255
# Slack truncates `text` at 40,000 characters, but the fallback is what notifications show: keep it short.
MAX_FALLBACK_TEXT = 3000

ELLIPSIS = "…"
_EVENT_TYPE = re.compile(r"^[A-Za-z0-9_]{1,255}$")


class PostLimitError(ValueError):
    """A post that Slack would reject; the message says which block and which limit."""


def slack_length(text: str) -> int:
    """Length as Slack may count it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-16 units, ending in an ellipsis when cut.

    A cut never leaves half of an `&amp;`-style entity behind, which Slack would show as debris.
    """
    if slack_length(text) <= limit:
        return text
    budget = limit - slack_length(ELLIPSIS)
    kept: list[str] = []
    used = 0
    for char in text[:budget]:  # every character is at least one unit, so no more can fit
        used += 2 if ord(char) > 0xFFFF else 1
        if used > budget:
            break
        kept.append(char)
    head = "".join(kept)
    amp = head.rfind("&")
    if amp != -1 and ";" not in head[amp:]:
        head = head[:amp]
    return head + ELLIPSIS


def validate_post(content: PostContent) -> None:
    """Raise PostLimitError when Slack would reject `content`; return quietly otherwise."""
    render_post(content)


def render_post(content: PostContent) -> dict[str, Any]:
    """`content.as_message()`, validated as `validate_post` does: each block is rendered once, for both."""
    if not content.text.strip():
        raise PostLimitError("the plain-text fallback is empty")
    if slack_length(content.text) > MAX_FALLBACK_TEXT:
        raise PostLimitError(f"the plain-text fallback is over {MAX_FALLBACK_TEXT} characters")
    if not content.blocks:
        raise PostLimitError("a post needs at least one block")
    if len(content.blocks) > MAX_BLOCKS:
        raise PostLimitError(f"{len(content.blocks)} blocks; Slack allows {MAX_BLOCKS}")
    rendered_blocks = []
    for index, block in enumerate(content.blocks):
        try:
            rendered = block.to_dict()  # the block models' own validators run here
        except SlackObjectFormationError as exc:
            raise PostLimitError(f"block {index} ({block.type}): {exc}") from None
        _check_block(index, rendered)
        rendered_blocks.append(rendered)
    if content.metadata is not None:
        if not _EVENT_TYPE.match(content.metadata.event_type):
            raise PostLimitError(f"metadata event type {content.metadata.event_type!r} is not allowed")
        if not content.metadata.event_payload.get("idempotency_key"):
            raise PostLimitError("metadata carries no idempotency key")
    return content.message_of(rendered_blocks)


def _check_block(index: int, block: Mapping[str, Any]) -> None:
    kind = block.get("type", "?")
    where = f"block {index} ({kind})"
    _at_most(where, "block_id", block.get("block_id") or "", MAX_ID)
    if kind == "section":
        text = block.get("text")
        fields: Sequence[Mapping[str, Any]] = block.get("fields") or []
        if text is None and not fields:
            raise PostLimitError(f"{where}: needs text or fields")
        if text is not None:
            _text_object(where, "text", text, MAX_SECTION_TEXT)
        if len(fields) > MAX_SECTION_FIELDS:
            raise PostLimitError(f"{where}: {len(fields)} fields; Slack allows {MAX_SECTION_FIELDS}")
        for field in fields:
            _text_object(where, "field", field, MAX_FIELD_TEXT)
        if "accessory" in block:
            _check_element(where, block["accessory"])
    elif kind == "header":
        _text_object(where, "text", block["text"], MAX_HEADER_TEXT)
    elif kind == "context":
        elements: Sequence[Mapping[str, Any]] = block.get("elements") or []
        if not elements or len(elements) > MAX_CONTEXT_ELEMENTS:
            raise PostLimitError(f"{where}: {len(elements)} elements; Slack allows 1–{MAX_CONTEXT_ELEMENTS}")
        for element in elements:
            if element.get("type") in ("mrkdwn", "plain_text"):
                _text_object(where, "element", element, MAX_CONTEXT_TEXT)
    elif kind == "actions":
        actions: Sequence[Mapping[str, Any]] = block.get("elements") or []
        if not actions or len(actions) > MAX_ACTIONS_ELEMENTS:
            raise PostLimitError(f"{where}: {len(actions)} elements; Slack allows 1–{MAX_ACTIONS_ELEMENTS}")
        for element in actions:
            _check_element(where, element)


def _check_element(where: str, element: Mapping[str, Any]) -> None:
    if element.get("type") != "button":
        return
    _text_object(where, "button text", element["text"], MAX_BUTTON_TEXT)
    _at_most(where, "button value", element.get("value") or "", MAX_BUTTON_VALUE)
    _at_most(where, "button url", element.get("url") or "", MAX_URL)
    _at_most(where, "action_id", element.get("action_id") or "", MAX_ID)


def _text_object(where: str, name: str, text: Mapping[str, Any], limit: int) -> None:
    value = str(text.get("text") or "")
    if not value.strip():
        raise PostLimitError(f"{where}: {name} is empty")
    _at_most(where, name, value, limit)


def _at_most(where: str, name: str, value: str, limit: int) -> None:
    length = slack_length(value)
    if length > limit:
        raise PostLimitError(f"{where}: {name} is {length} characters; Slack allows {limit}")
