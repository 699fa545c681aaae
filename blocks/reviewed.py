"""The parent post's "Reviewed: 👍 María · correction by Sam → PASS" line, spliced into a queued post.

The line is its own context block (found again by its block id), just above the "Correct this grade"
button, so an edit replaces it rather than adding a second one.
"""

from __future__ import annotations

import copy
from typing import Any

from slack_sdk.models.blocks import ContextBlock, MarkdownTextObject

from blocks.common import escape
from blocks.limits import MAX_CONTEXT_TEXT, clip

REVIEWED_BLOCK_ID = "smith_reviewed"


def reviewed_block(line: str) -> ContextBlock:
    return ContextBlock(
        block_id=REVIEWED_BLOCK_ID, elements=[MarkdownTextObject(text=clip(escape(line), MAX_CONTEXT_TEXT))]
    )


def with_reviewed_line(message: dict[str, Any], line: str) -> dict[str, Any]:
    """A copy of `message` (a `chat.update` payload) showing `line` as its reviewed-by line."""
    updated = copy.deepcopy(message)
    blocks: list[dict[str, Any]] = [
        block for block in updated.get("blocks") or [] if block.get("block_id") != REVIEWED_BLOCK_ID
    ]
    if line.strip():  # an empty context element is refused by Slack: no line then
        at = next((i for i, block in enumerate(blocks) if block.get("type") == "actions"), len(blocks))
        blocks.insert(at, reviewed_block(line).to_dict())
    updated["blocks"] = blocks
    return updated
