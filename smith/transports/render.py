"""Renders a Slack payload as plain terminal text: what staff would see, for dry runs and the demo."""

from __future__ import annotations

import re
from typing import Any

_LINK = re.compile(r"<([^|>]+)\|([^>]+)>")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}


def _unescape(text: str) -> str:
    text = _LINK.sub(r"\2 (\1)", text)
    for entity, char in _ENTITIES.items():
        text = text.replace(entity, char)
    return text


def _text_of(obj: Any) -> str:
    return _unescape(str(obj.get("text", ""))) if isinstance(obj, dict) else ""


def render_payload(payload: dict[str, Any], *, indent: str = "") -> list[str]:
    """One line per visual row of the message; falls back to the plain `text` without blocks."""
    blocks = payload.get("blocks") or []
    if not blocks:
        return [indent + line for line in _unescape(str(payload.get("text", ""))).splitlines()]
    lines: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "header":
            lines.append(_text_of(block.get("text")).upper())
        elif kind == "section":
            if block.get("text"):
                lines.extend(_text_of(block["text"]).splitlines())
            for field in block.get("fields") or []:
                lines.extend(_text_of(field).splitlines())
        elif kind == "context":
            lines.append("  ".join(_text_of(element) for element in block.get("elements", [])))
        elif kind == "actions":
            buttons = [f"[ {_text_of(element.get('text'))} ]" for element in block.get("elements", [])]
            lines.append(" ".join(buttons))
        elif kind == "divider":
            lines.append("─" * 40)
        elif kind == "rich_text":
            lines.append(_text_of(block))
    return [indent + line for line in lines]
