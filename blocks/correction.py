"""The "Correct this grade" modal: expected level (required, each with its meaning), principle chips,
"+ new", and a reason, in the property's locale (docs/slack-surface.md).

Pure, like every builder here: the item and the grade in, a slack_sdk `View` out. The names below
(callback id, block ids, metadata keys) are what Smith reads back from the submission
(`smith/listening/modal.py`): they are declared once, here, where the modal is made.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.models.blocks import (
    ContextBlock,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    PlainTextObject,
    StaticMultiSelectElement,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from blocks.common import escape, listed_section
from blocks.copydeck import deck_for
from blocks.detail import detail_lines
from gradecore.model.vocabulary import Level
from gradecore.persistence.entities import MachineGrade, Principle

CALLBACK_ID = "smith_correction"
# Each input's block id, which is also its action id (Slack's `state.values[block][action]`).
LEVEL_BLOCK = "level"
PRINCIPLES_BLOCK = "principles"
NEW_PRINCIPLE_BLOCK = "new_principle"
REASON_BLOCK = "reason"
_MAX_OPTIONS = 100  # Slack's limit for a static select
_MAX_OPTION_TEXT = 75
_MAX_DETAIL_LINES = 20


@dataclass(frozen=True)
class CorrectedItem:
    """What the modal corrects: a conversation, or one of its turns, and where its post is."""

    conversation_id: str
    turn_id: str | None  # None for the conversation itself
    property_id: str
    channel: str
    message_ts: str


def correction_metadata(item: CorrectedItem, machine_grade_id: str | None, locale: str) -> str:
    """The modal's `private_metadata`: short keys, raw characters (not \\u escapes), so the contract's
    longest ids fit Slack's 3,000."""
    metadata = {
        "c": item.conversation_id,
        "t": item.turn_id,
        "p": item.property_id,
        "g": machine_grade_id,
        "ch": item.channel,
        "ts": item.message_ts,
        "l": locale,
    }
    return json.dumps(metadata, separators=(",", ":"), ensure_ascii=False)


def build_correction_view(
    item: CorrectedItem,
    machine: MachineGrade,
    vocabulary: Sequence[Principle],
    *,
    locale: str | None = None,
) -> View:
    texts = deck_for(locale)
    # Each level with its meaning: "HOLD" alone reads as "we held the message" as easily as "follow up".
    levels = [
        Option(value=level.value, text=texts.modal_level_option(level.value)[:_MAX_OPTION_TEXT])
        for level in Level
    ]
    blocks: list[Any] = [
        ContextBlock(
            elements=[MarkdownTextObject(text=texts.modal_machine_said(machine.level, machine.headline))]
        ),
        InputBlock(
            block_id=LEVEL_BLOCK,
            label=texts.MODAL_LEVEL_LABEL,
            element=StaticSelectElement(
                action_id=LEVEL_BLOCK, options=levels, placeholder=texts.MODAL_LEVEL_PLACEHOLDER
            ),
        ),
    ]
    chips = [Option(value=p.id, text=p.id[:75]) for p in vocabulary[:_MAX_OPTIONS]]
    if chips:
        blocks.append(
            InputBlock(
                block_id=PRINCIPLES_BLOCK,
                label=texts.MODAL_PRINCIPLES_LABEL,
                optional=True,
                element=StaticMultiSelectElement(action_id=PRINCIPLES_BLOCK, options=chips),
            )
        )
    blocks += [
        InputBlock(
            block_id=NEW_PRINCIPLE_BLOCK,
            label=texts.MODAL_NEW_PRINCIPLE_LABEL,
            optional=True,
            element=PlainTextInputElement(action_id=NEW_PRINCIPLE_BLOCK, max_length=64),
        ),
        InputBlock(
            block_id=REASON_BLOCK,
            label=texts.MODAL_REASON_LABEL,
            element=PlainTextInputElement(action_id=REASON_BLOCK, multiline=True, max_length=2000),
        ),
    ]
    # What the posts leave out, for the engineers and calibrators who open this form: which checks
    # failed, in which layer, whose, which rule entry, tool or fact, and the rubric (docs/slack-surface.md).
    engineering = detail_lines(machine.dimensions, machine.rubric_version)
    if engineering:
        blocks.append(
            listed_section(
                texts.DETAIL_HEADING, [f"• {escape(line)}" for line in engineering], _MAX_DETAIL_LINES
            )
        )
    return View(
        type="modal",
        callback_id=CALLBACK_ID,
        title=PlainTextObject(text=texts.MODAL_TITLE),
        submit=PlainTextObject(text=texts.MODAL_SUBMIT),
        close=PlainTextObject(text=texts.MODAL_CLOSE),
        private_metadata=correction_metadata(item, machine.id, texts.LOCALE),
        blocks=blocks,
    )
