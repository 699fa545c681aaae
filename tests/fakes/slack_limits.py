"""Slack's documented limits on message text, Block Kit and message metadata, as the fake enforces them.

Each validator returns a list of problems (empty when valid), worded like Slack's
``response_metadata.messages`` with a JSON pointer, so a failing test says which block broke which limit.
"""

from __future__ import annotations

import re
from typing import Any

MAX_MESSAGE_TEXT = 40_000
MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_SECTION_TEXT = 3_000
MAX_HEADER_TEXT = 150
MAX_FIELDS = 10
MAX_FIELD_TEXT = 2_000
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTIONS_ELEMENTS = 25
MAX_BLOCK_ID = 255
MAX_ACTION_ID = 255
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2_000
MAX_BUTTON_URL = 3_000
MAX_INPUT_LABEL = 2_000
MAX_MODAL_TITLE = 24

TEXT_TYPES = frozenset({"plain_text", "mrkdwn"})
KNOWN_BLOCK_TYPES = frozenset(
    {"section", "header", "context", "actions", "divider", "image", "input", "rich_text", "video", "file"}
)
_EVENT_TYPE = re.compile(r"^[A-Za-z0-9_]+$")


def _error(pointer: str, what: str) -> str:
    return f"[ERROR] {what} [json-pointer:{pointer}]"


def _text_object(value: Any, pointer: str, *, max_len: int, plain_only: bool = False) -> list[str]:
    if not isinstance(value, dict):
        return [_error(pointer, "must be a text object")]
    kind = value.get("type")
    if kind not in TEXT_TYPES:
        return [_error(f"{pointer}/type", "must be one of plain_text, mrkdwn")]
    if plain_only and kind != "plain_text":
        return [_error(f"{pointer}/type", "must be plain_text")]
    text = value.get("text")
    if not isinstance(text, str) or not text:
        return [_error(f"{pointer}/text", "must be more than 0 characters")]
    if len(text) > max_len:
        return [_error(f"{pointer}/text", f"must be less than {max_len + 1} characters")]
    return []


def _too_long(value: Any, limit: int, pointer: str) -> list[str]:
    if isinstance(value, str) and len(value) > limit:
        return [_error(pointer, f"must be less than {limit + 1} characters")]
    return []


def _element(element: Any, pointer: str) -> list[str]:
    """An interactive element (button, select, input...): only buttons have well-known text limits."""
    if not isinstance(element, dict) or not isinstance(element.get("type"), str):
        return [_error(pointer, "must be an element object")]
    problems = _too_long(element.get("action_id"), MAX_ACTION_ID, f"{pointer}/action_id")
    if element["type"] == "button":
        problems += _text_object(
            element.get("text"), f"{pointer}/text", max_len=MAX_BUTTON_TEXT, plain_only=True
        )
        problems += _too_long(element.get("value"), MAX_BUTTON_VALUE, f"{pointer}/value")
        problems += _too_long(element.get("url"), MAX_BUTTON_URL, f"{pointer}/url")
    return problems


def _section(block: dict[str, Any], pointer: str) -> list[str]:
    problems: list[str] = []
    fields = block.get("fields")
    if "text" not in block and not fields:
        return [_error(pointer, "must provide text or fields")]
    if "text" in block:
        problems += _text_object(block["text"], f"{pointer}/text", max_len=MAX_SECTION_TEXT)
    if fields is not None:
        if not isinstance(fields, list) or len(fields) > MAX_FIELDS:
            problems.append(_error(f"{pointer}/fields", f"must be a list of at most {MAX_FIELDS} items"))
        else:
            for i, item in enumerate(fields):
                problems += _text_object(item, f"{pointer}/fields/{i}", max_len=MAX_FIELD_TEXT)
    if "accessory" in block:
        problems += _element(block["accessory"], f"{pointer}/accessory")
    return problems


def _elements(block: dict[str, Any], pointer: str, limit: int) -> list[str] | None:
    elements = block.get("elements")
    if not isinstance(elements, list) or not 1 <= len(elements) <= limit:
        return None
    return [f"{pointer}/elements/{i}" for i in range(len(elements))]


def _block(block: Any, pointer: str) -> list[str]:
    if not isinstance(block, dict) or block.get("type") not in KNOWN_BLOCK_TYPES:
        return [_error(f"{pointer}/type", "must be a known block type")]
    problems = _too_long(block.get("block_id"), MAX_BLOCK_ID, f"{pointer}/block_id")
    kind = block["type"]
    if kind == "section":
        problems += _section(block, pointer)
    elif kind == "header":
        problems += _text_object(
            block.get("text"), f"{pointer}/text", max_len=MAX_HEADER_TEXT, plain_only=True
        )
    elif kind in ("context", "actions"):
        limit = MAX_CONTEXT_ELEMENTS if kind == "context" else MAX_ACTIONS_ELEMENTS
        pointers = _elements(block, pointer, limit)
        if pointers is None:
            return [*problems, _error(f"{pointer}/elements", f"must have between 1 and {limit} items")]
        for item, item_pointer in zip(block["elements"], pointers, strict=True):
            if kind == "actions":
                problems += _element(item, item_pointer)
            elif not (isinstance(item, dict) and item.get("type") == "image"):
                problems += _text_object(item, item_pointer, max_len=MAX_SECTION_TEXT)
    elif kind == "input":
        problems += _text_object(
            block.get("label"), f"{pointer}/label", max_len=MAX_INPUT_LABEL, plain_only=True
        )
        problems += _element(block.get("element"), f"{pointer}/element")
    return problems


def validate_blocks(blocks: Any, *, max_blocks: int = MAX_MESSAGE_BLOCKS) -> list[str]:
    if not isinstance(blocks, list):
        return [_error("/blocks", "must be an array")]
    if len(blocks) > max_blocks:
        return [_error("/blocks", f"no more than {max_blocks} items allowed")]
    return [problem for i, block in enumerate(blocks) for problem in _block(block, f"/blocks/{i}")]


def validate_metadata(metadata: Any) -> list[str]:
    if not isinstance(metadata, dict):
        return [_error("/metadata", "must be an object")]
    event_type = metadata.get("event_type")
    if not isinstance(event_type, str) or not _EVENT_TYPE.match(event_type):
        return [_error("/metadata/event_type", "must be a non-empty word")]
    if not isinstance(metadata.get("event_payload"), dict):
        return [_error("/metadata/event_payload", "must be an object")]
    return []


def validate_view(view: Any) -> list[str]:
    if not isinstance(view, dict) or view.get("type") not in ("modal", "home"):
        return [_error("/view/type", "must be modal or home")]
    problems: list[str] = []
    if view["type"] == "modal":
        problems += _text_object(view.get("title"), "/view/title", max_len=MAX_MODAL_TITLE, plain_only=True)
    return problems + validate_blocks(view.get("blocks"), max_blocks=MAX_VIEW_BLOCKS)
