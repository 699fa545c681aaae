"""The "Correct this grade" modal: expected level (required, each with its meaning), principle chips,
"+ new", and a reason, in the property's locale.

Built with slack_sdk's view and block models; validated on submission so errors show in the modal
(a disagreement needs a principle), then recorded as a correction GradeVerdict.
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

from gradecore.entities import MachineGrade, Principle
from gradecore.principles import normalise_tag
from gradecore.vocabulary import Level
from smith.acts import HumanAct, Target
from smith.copydeck import deck_for
from smith.listening.events import storable

CALLBACK_ID = "smith_correction"
_MAX_OPTIONS = 100  # Slack's limit for a static select
_MAX_OPTION_TEXT = 75
_MAX_VIEW_ID = 100  # the inbox keys a submission `view:<id>` in 128 characters


def build_correction_view(
    target: Target,
    machine: MachineGrade,
    vocabulary: Sequence[Principle],
    *,
    channel: str,
    message_ts: str,
    locale: str | None = None,
) -> View:
    texts = deck_for(locale)
    metadata = {
        "c": target.conversation_id,
        "t": target.turn_id if target.item_type == "turn" else None,
        "p": target.property_id,
        "g": machine.id,
        "ch": channel,
        "ts": message_ts,
        "l": texts.LOCALE,
    }
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
            block_id="level",
            label=texts.MODAL_LEVEL_LABEL,
            element=StaticSelectElement(
                action_id="level", options=levels, placeholder=texts.MODAL_LEVEL_PLACEHOLDER
            ),
        ),
    ]
    chips = [Option(value=p.id, text=p.id[:75]) for p in vocabulary[:_MAX_OPTIONS]]
    if chips:
        blocks.append(
            InputBlock(
                block_id="principles",
                label=texts.MODAL_PRINCIPLES_LABEL,
                optional=True,
                element=StaticMultiSelectElement(action_id="principles", options=chips),
            )
        )
    blocks += [
        InputBlock(
            block_id="new_principle",
            label=texts.MODAL_NEW_PRINCIPLE_LABEL,
            optional=True,
            element=PlainTextInputElement(action_id="new_principle", max_length=64),
        ),
        InputBlock(
            block_id="reason",
            label=texts.MODAL_REASON_LABEL,
            element=PlainTextInputElement(action_id="reason", multiline=True, max_length=2000),
        ),
    ]
    return View(
        type="modal",
        callback_id=CALLBACK_ID,
        title=PlainTextObject(text=texts.MODAL_TITLE),
        submit=PlainTextObject(text=texts.MODAL_SUBMIT),
        close=PlainTextObject(text=texts.MODAL_CLOSE),
        # Raw characters, not \u escapes: the contract's longest ids must fit Slack's 3,000.
        private_metadata=json.dumps(metadata, separators=(",", ":"), ensure_ascii=False),
        blocks=blocks,
    )


class UnreadableSubmission(ValueError):
    """A view submission that is not one of Smith's correction modals as Smith built it."""


@dataclass(frozen=True)
class ModalSubmission:
    view_id: str
    user: str
    team_id: str
    target: Target
    machine_grade_id: str
    machine_level: Level | None
    locale: str
    channel: str
    message_ts: str
    expected_level: Level | None
    principles: tuple[str, ...]
    new_principle: str | None
    reason: str | None

    @classmethod
    def from_payload(cls, payload: dict[str, Any], machine_level: Level | None = None) -> ModalSubmission:
        """The submission of Smith's modal; `UnreadableSubmission` for a payload of another shape."""
        try:
            return cls._read(payload, machine_level)
        except (KeyError, TypeError, AttributeError, ValueError, RecursionError) as exc:
            raise UnreadableSubmission(f"not a submission of Smith's modal ({type(exc).__name__})") from None

    @classmethod
    def _read(cls, payload: dict[str, Any], machine_level: Level | None) -> ModalSubmission:
        view = payload["view"]
        meta = json.loads(view.get("private_metadata") or "{}")
        values = (view.get("state") or {}).get("values") or {}
        level = ((values.get("level") or {}).get("level") or {}).get("selected_option")
        chips = ((values.get("principles") or {}).get("principles") or {}).get("selected_options") or []
        new = ((values.get("new_principle") or {}).get("new_principle") or {}).get("value")
        reason = ((values.get("reason") or {}).get("reason") or {}).get("value")
        turn_id = meta.get("t")
        # Smith wrote the metadata, but a payload of another shape must fail here, not in the database.
        texts_only = (meta["c"], meta.get("p", ""), meta.get("g", ""), meta.get("ch", ""), meta.get("ts", ""))
        if not all(isinstance(value, str) for value in texts_only) or not isinstance(turn_id, str | None):
            raise TypeError("private_metadata holds a value that is not a string")
        principles = tuple(chip["value"] for chip in chips)
        if not all(isinstance(value, str) for value in (*principles, new or "", reason or "", view["id"])):
            raise TypeError("a submitted value is not a string")
        if not 0 < len(view["id"]) <= _MAX_VIEW_ID:
            raise ValueError("the view id is empty or too long to key the inbox row")
        return cls(
            view_id=view["id"],
            user=str((payload.get("user") or {}).get("id", "")),
            team_id=str((payload.get("team") or {}).get("id", "") if payload.get("team") else ""),
            target=Target("turn" if turn_id else "conversation", meta["c"], turn_id, meta.get("p", "")),
            machine_grade_id=meta.get("g", ""),
            machine_level=machine_level,
            locale=str(meta.get("l") or "en"),
            channel=str(meta.get("ch", "")),
            message_ts=str(meta.get("ts", "")),
            expected_level=Level(level["value"]) if level else None,
            principles=tuple(storable(principle) for principle in principles),
            new_principle=storable(new or "").strip() or None,
            reason=storable(reason or "").strip() or None,
        )

    def errors(self) -> dict[str, str]:
        """Validation shown in the modal (`response_action: errors`), keyed by block id."""
        texts = deck_for(self.locale)
        problems: dict[str, str] = {}
        if self.expected_level is None:
            problems["level"] = texts.MODAL_ERROR_LEVEL
        disagrees = self.machine_level is not None and self.expected_level not in (None, self.machine_level)
        if disagrees and not self.principles and not self.new_principle:
            problems["new_principle"] = texts.MODAL_ERROR_PRINCIPLE
        if self.new_principle is not None and not normalise_tag(self.new_principle):
            problems["new_principle"] = texts.MODAL_ERROR_PRINCIPLE_NAME
        return problems

    def as_act(self) -> HumanAct:
        tags = self.principles + ((self.new_principle,) if self.new_principle else ())
        return HumanAct(
            slack_user_id=self.user,
            team_id=self.team_id,
            signal="correction",
            target=self.target,
            origin="slack_modal",
            act_key=f"view:{self.view_id}",
            expected_level=self.expected_level,
            note=self.reason,
            tags=tags,
            slack_channel=self.channel or None,
            slack_ts=self.message_ts or None,
        )
