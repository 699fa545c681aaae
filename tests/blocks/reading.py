"""Reading a built post the way a person in Slack would: only the text that is shown."""

from __future__ import annotations

import json
from typing import Any

from blocks import PostContent


def visible_text(content: PostContent) -> str:
    """Every shown string (block texts and the notification fallback), one per line."""
    shown: list[str] = [content.text]
    for block in content.blocks:
        _collect(block.to_dict(), shown)
    return "\n".join(shown)


def _collect(node: Any, shown: list[str]) -> None:
    if isinstance(node, dict):
        if node.get("type") in ("mrkdwn", "plain_text") and isinstance(node.get("text"), str):
            shown.append(node["text"])
            return
        for key, value in node.items():
            if key not in ("value", "action_id", "block_id", "url"):
                _collect(value, shown)
    elif isinstance(node, list):
        for item in node:
            _collect(item, shown)


def block_texts(content: PostContent) -> list[str]:
    """The shown text of each block, in order (empty for blocks that show none)."""
    texts: list[str] = []
    for block in content.blocks:
        found: list[str] = []
        _collect(block.to_dict(), found)
        texts.append("\n".join(found))
    return texts


def button_value(content: PostContent) -> dict[str, Any]:
    """The decoded value of the post's "Correct grade" button."""
    for block in content.blocks:
        rendered = block.to_dict()
        for element in rendered.get("elements", []):
            if element.get("action_id") == "smith_correct_grade":
                decoded: dict[str, Any] = json.loads(element["value"])
                return decoded
    raise AssertionError("no Correct grade button in the post")
