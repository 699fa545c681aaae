"""What an inbox event asks for: an act on a graded item (with the grade it was made on), or nothing.

Reads the database (to find the item) but writes nothing: the caller decides, once it knows who
acted, whether the act becomes a verdict, waits as pending, or is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gradecore.persistence.store import Unit
from smith.listening.acts import HumanAct, Signal
from smith.listening.corrections import parse_correction
from smith.listening.events import Ignored, ReactionEvent, ReplyDeleted, ReplyEvent, parse_event
from smith.listening.locating import LatestGrades, Locator
from smith.listening.modal import ModalSubmission, UnreadableSubmission, out_of_date
from smith.outbox.keys import PostKey, note_hint_key


@dataclass(frozen=True)
class Hint:
    """An ephemeral to queue once the act is recorded (how to name a level, for a plain note)."""

    key: PostKey
    channel: str
    thread_ts: str


@dataclass(frozen=True)
class PlannedAct:
    act: HumanAct
    machine: dict[str, Any]  # the grade as the person saw it, frozen
    hint: Hint | None = None
    thread_ts: str | None = None  # the thread a written reply was made in (where to answer it)

    @property
    def dedup_key(self) -> str:
        """The act key a recorded copy of this act is found by (a retraction's first row's)."""
        return f"{self.act.act_key}#0" if self.act.signal == "retraction" else self.act.act_key


def interpret(
    unit: Unit,
    locator: Locator,
    grades: LatestGrades,
    event_id: str,
    kind: str,
    payload: dict[str, Any],
    *,
    bot_user_id: str | None,
) -> PlannedAct | str:
    """The act an event makes, or why it makes none (the inbox row's outcome)."""
    if kind == "view_submission":
        try:
            submission = ModalSubmission.from_payload(payload)
        except UnreadableSubmission as exc:
            return f"ignored: {exc}"
        stale = out_of_date(unit, submission)
        if stale is not None:  # checked before the ack too; a row recorded before a regrade lands here
            return f"ignored: the form is out of date ({stale})"
        # The grade the modal was opened on (frozen as the person saw it), else the item's latest.
        machine = LatestGrades.shown(unit, submission.machine_grade_id) or grades.latest(
            unit, submission.target.item_type, submission.target.ref
        )
        if machine is None:
            return "ignored: the graded item is gone"
        return PlannedAct(submission.as_act(), machine)
    parsed = parse_event(payload)
    if isinstance(parsed, Ignored):
        return f"ignored: {parsed.why}"
    if parsed.user == bot_user_id:
        return "ignored: Smith's own act"
    if isinstance(parsed, ReactionEvent):
        if parsed.signal is None:
            return "ignored: emoji Smith does not read"
        located = locator.locate(unit, grades, parsed.channel, parsed.ts)
        if located is None:
            return "ignored: not a Smith post"
        signal: Signal = "up" if parsed.signal == "up" else "down"
        act = HumanAct(
            slack_user_id=parsed.user,
            team_id=parsed.team_id,
            signal=signal if parsed.added else "retraction",
            retracts_signal=None if parsed.added else signal,
            target=located.target,
            origin="slack_reaction",
            act_key=f"event:{event_id}",
            slack_channel=parsed.channel,
            slack_ts=parsed.ts,
            slack_event_id=event_id,
        )
        return PlannedAct(act, located.machine)
    if isinstance(parsed, ReplyDeleted):
        located = locator.locate(unit, grades, parsed.channel, parsed.thread_ts, parsed.deleted_ts)
        if located is None:
            return "ignored: not in a Smith thread"
        act = HumanAct(
            slack_user_id=parsed.user,
            team_id=parsed.team_id,
            signal="retraction",
            retracts_slack_ts=parsed.deleted_ts,
            target=located.target,
            origin="slack_reply",
            act_key=f"event:{event_id}",
            slack_channel=parsed.channel,
            slack_ts=parsed.deleted_ts,
            slack_event_id=event_id,
        )
        return PlannedAct(act, located.machine)
    return _reply(unit, locator, grades, event_id, parsed)


def _reply(
    unit: Unit, locator: Locator, grades: LatestGrades, event_id: str, reply: ReplyEvent
) -> PlannedAct | str:
    located = locator.locate(unit, grades, reply.channel, reply.thread_ts, reply.ts, reply.text)
    if located is None:
        return "ignored: not in a Smith thread"
    correction = parse_correction(reply.text)
    key = f"reply:{reply.channel}:{reply.ts}" + (f":edit:{reply.edit_of}" if reply.edit_of else "")
    act = HumanAct(
        slack_user_id=reply.user,
        team_id=reply.team_id,
        signal="correction",
        target=located.target,
        origin="slack_reply",
        act_key=key,
        expected_level=correction.expected_level,
        note=(reply.text.strip() if correction.is_note else (correction.reason or ""))[:4000] or None,
        tags=correction.tags,
        slack_channel=reply.channel,
        slack_ts=reply.ts,
        slack_event_id=event_id,
    )
    hint = None
    if correction.is_note:
        hint = Hint(note_hint_key(reply.channel, reply.thread_ts, reply.user), reply.channel, reply.thread_ts)
    return PlannedAct(act, located.machine, hint, thread_ts=reply.thread_ts)
