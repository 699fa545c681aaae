"""The correction modal, Smith's side: which view the "Correct this grade" button opens, and what a
submission says — read once, checked before the ack (errors show in the modal), kept in the inbox.

The modal itself is built in `blocks/correction.py`, which also names the ids read back here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.models.views import View

from blocks.copydeck import deck_for
from blocks.correction import (
    LEVEL_BLOCK,
    NEW_PRINCIPLE_BLOCK,
    PRINCIPLES_BLOCK,
    REASON_BLOCK,
    CorrectedItem,
    build_correction_view,
)
from gradecore.errors import SmithError
from gradecore.model.principles import normalise_tag
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store, Unit
from smith.listening.acts import HumanAct, ItemType, Target
from smith.listening.events import ButtonValue, storable
from smith.listening.inbox_writer import InboxUnavailable, InboxWriter

log = logging.getLogger(__name__)
_MAX_VIEW_ID = 100  # the inbox keys a submission `view:<id>` in 128 characters


async def correction_view_for(store: Store, button_value: str, channel: str, message_ts: str) -> View | None:
    """The modal the button opens on the item its post shows; None when the item or its grade is gone."""
    value = ButtonValue.parse(button_value)
    if value is None:
        return None
    return await asyncio.to_thread(_view_for, store, value, channel, message_ts)


def _view_for(store: Store, value: ButtonValue, channel: str, message_ts: str) -> View | None:
    with store.unit() as unit:
        item_type: ItemType = "turn" if value.turn_id else "conversation"
        record = unit.conversations.get(value.conversation_id)
        if record is None:
            return None
        target = Target(item_type, value.conversation_id, value.turn_id, record.property_id)
        machine = unit.grades.latest(item_type, target.ref)
        if machine is None:
            return None
        prop = unit.properties.get(record.property_id)
        item = CorrectedItem(
            target.conversation_id,
            target.turn_id if item_type == "turn" else None,
            target.property_id,
            channel,
            message_ts,
        )
        return build_correction_view(
            item, machine, unit.principles.vocabulary(), locale=prop.locale if prop is not None else None
        )


class UnreadableSubmission(SmithError, ValueError):
    """A view submission that is not one of Smith's correction modals as Smith built it."""


@dataclass(frozen=True)
class ModalSubmission:
    view_id: str
    user: str
    team_id: str
    target: Target
    machine_grade_id: str
    locale: str
    channel: str
    message_ts: str
    expected_level: Level | None
    principles: tuple[str, ...]
    new_principle: str | None
    reason: str | None

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ModalSubmission:
        """The submission of Smith's modal; `UnreadableSubmission` for a payload of another shape."""
        try:
            return cls._read(payload)
        except (KeyError, TypeError, AttributeError, ValueError, RecursionError) as exc:
            raise UnreadableSubmission(f"not a submission of Smith's modal ({type(exc).__name__})") from None

    @classmethod
    def _read(cls, payload: dict[str, Any]) -> ModalSubmission:
        view = payload["view"]
        # Keys as `blocks/correction.py` writes them (`correction_metadata`).
        meta = json.loads(view.get("private_metadata") or "{}")
        values = (view.get("state") or {}).get("values") or {}
        level = _input(values, LEVEL_BLOCK).get("selected_option")
        chips = _input(values, PRINCIPLES_BLOCK).get("selected_options") or []
        new = _input(values, NEW_PRINCIPLE_BLOCK).get("value")
        reason = _input(values, REASON_BLOCK).get("value")
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
            locale=str(meta.get("l") or "en"),
            channel=str(meta.get("ch", "")),
            message_ts=str(meta.get("ts", "")),
            expected_level=Level(level["value"]) if level else None,
            principles=tuple(storable(principle) for principle in principles),
            new_principle=storable(new or "").strip() or None,
            reason=storable(reason or "").strip() or None,
        )

    def errors(self, machine_level: Level | None) -> dict[str, str]:
        """Validation shown in the modal (`response_action: errors`), keyed by block id: disagreeing
        with the machine's level (when it is known) needs a principle."""
        texts = deck_for(self.locale)
        problems: dict[str, str] = {}
        if self.expected_level is None:
            problems[LEVEL_BLOCK] = texts.MODAL_ERROR_LEVEL
        disagrees = machine_level is not None and self.expected_level not in (None, machine_level)
        if disagrees and not self.principles and not self.new_principle:
            problems[NEW_PRINCIPLE_BLOCK] = texts.MODAL_ERROR_PRINCIPLE
        if self.new_principle is not None and not normalise_tag(self.new_principle):
            problems[NEW_PRINCIPLE_BLOCK] = texts.MODAL_ERROR_PRINCIPLE_NAME
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


def _input(values: dict[str, Any], block: str) -> dict[str, Any]:
    """One input's state in Slack's `state.values[block][action]` (the builder uses one id for both)."""
    state = (values.get(block) or {}).get(block) or {}
    if not isinstance(state, dict):
        raise TypeError(f"the {block} input is not an object")
    return state


@dataclass(frozen=True)
class SubmissionTaken:
    """What to answer a submission: its errors (shown in the modal), or an ack; and, when it was
    recorded new, the inbox row that is the caller's to process."""

    errors: dict[str, str] = field(default_factory=dict)
    event_id: str | None = None
    # The form no longer matches the stored rows (or never did): nothing recorded; the person is told
    # so in an ephemeral message in `channel`.
    out_of_date: bool = False
    user: str = ""
    channel: str = ""


async def take_submission(store: Store, inbox: InboxWriter, body: dict[str, Any]) -> SubmissionTaken:
    """Read a submission once, check it against the grade it corrects, and record it in the inbox,
    all before the ack. `InboxUnavailable` when the database does not answer in time (not acked)."""
    try:
        submission = ModalSubmission.from_payload(body)
    except UnreadableSubmission as exc:  # acked: Slack would only show the person an error
        log.info("ignored a view submission: %s", exc)
        return SubmissionTaken()
    # Both database steps before the ack share one deadline: a stalled database is an error the
    # person sees in the modal, never a submission that hangs.
    started = time.monotonic()
    try:
        level, stale = await asyncio.wait_for(
            asyncio.to_thread(_checked_level, store, submission), timeout=inbox.deadline
        )
    except TimeoutError:
        raise InboxUnavailable("the database did not answer in time") from None
    if stale is not None:
        log.warning("correction form %s by %s is out of date: %s", submission.view_id, submission.user, stale)
        return SubmissionTaken(out_of_date=True, user=submission.user, channel=submission.channel)
    errors = submission.errors(level)
    if errors:
        return SubmissionTaken(errors)
    event_id = f"view:{submission.view_id}"
    left = inbox.deadline - (time.monotonic() - started)
    new = await inbox.record(event_id, "view_submission", body, within=max(left, 0.1))
    return SubmissionTaken(event_id=event_id if new else None)


def _checked_level(store: Store, submission: ModalSubmission) -> tuple[Level | None, str | None]:
    """The machine level of the grade the form corrects, and why the form is out of date (if it is)."""
    with store.unit() as unit:
        stale = out_of_date(unit, submission)
        grade = unit.grades.get(submission.machine_grade_id)
        return (None if grade is None else Level(grade.level)), stale


def out_of_date(unit: Unit, submission: ModalSubmission) -> str | None:
    """Why a submission does not match the stored rows, or None (docs/verdicts.md): the grade belongs to the
    conversation and item, the property is the conversation's, the post is Smith's post of the item.

    Smith wrote the private metadata, but only a signing secret stands between it and a forger, and a
    form left open across a regrade or a deletion is stale all the same."""
    target = submission.target
    record = unit.conversations.get(target.conversation_id)
    if record is None:
        return "its conversation does not exist"
    if record.property_id != target.property_id:
        return "its property is not the conversation's"
    grade = unit.grades.get(submission.machine_grade_id)
    if grade is None or (grade.conversation_id, grade.item_type, grade.item_ref) != (
        target.conversation_id,
        target.item_type,
        target.ref,
    ):
        return "its grade is not this item's"
    post = unit.outbox.ref_by_channel_ts(submission.channel, submission.message_ts)
    if post is None or (post.conversation_id, post.turn_id or None) != (
        target.conversation_id,
        target.turn_id,
    ):
        return "its post is not Smith's post of this item"
    return None
