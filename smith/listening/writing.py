"""Writes a planned act once it is known who made it: a verdict, a pending act, or nothing.

Every function writes into the caller's unit (transaction) and returns the inbox row's outcome;
the caller marks the row processed in the same transaction, so an act is never half done.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from sqlalchemy.exc import SQLAlchemyError

from blocks.copydeck import CopyDeck, deck_for
from gradecore.persistence.entities import PendingAct
from gradecore.persistence.store import Unit
from smith.listening.acts import HumanAct, record_act
from smith.listening.identity import Resolution
from smith.listening.interpret import PlannedAct
from smith.listening.notify import queue_ephemeral
from smith.logs import log_context
from smith.metrics import ACTS
from smith.outbox.keys import confirmation_key, unlinked_key
from smith.outbox.reviewed import refresh_reviewed_lines

PARKED = "pending: Slack user not linked to a staff user"
log = logging.getLogger(__name__)


def prefetch(unit: Unit, acts: Iterable[tuple[PlannedAct, int]]) -> None:
    """Read what recording a batch of (act, User id)s needs in two queries, not a few per act."""
    acts = list(acts)
    unit.verdicts.prefetch_act_keys(planned.dedup_key for planned, _ in acts)
    unit.verdicts.prefetch_items(
        (planned.act.target.item_type, planned.act.target.ref, user_id)
        for planned, user_id in acts
        if planned.act.signal == "retraction"  # only a retraction reads the grader's earlier acts
    )


def after_recording(unit: Unit, outcomes: Iterable[tuple[object, object]]) -> None:
    """Once per batch of (plan, outcome): the parents whose reviews changed get their reviewed-by line
    edited (an act that was a duplicate, ignored or parked changes nothing anyone sees)."""
    changed = [
        plan.act.target.conversation_id
        for plan, outcome in outcomes
        if isinstance(plan, PlannedAct) and isinstance(outcome, str) and outcome.startswith("recorded")
    ]
    if not changed:
        return
    # The acts are flushed first, outside the savepoint: rolling back a failed edit must not take
    # the batch's verdicts with it.
    unit.session.flush()
    try:
        with unit.session.begin_nested():
            refresh_reviewed_lines(unit, changed)
    except SQLAlchemyError:
        # The reviewed-by line is a courtesy; the acts themselves must still be recorded.
        log.exception("could not queue the reviewed-by edit of %d conversation(s)", len(changed))


def write_for(unit: Unit, planned: PlannedAct, who: Resolution) -> str:
    """The act of someone users.info has just told us about (or not)."""
    if who.is_bot:
        return "ignored: another bot"
    if who.user is None:
        return park(unit, planned)
    if not who.user.active:
        return "ignored: inactive user"
    assert who.user.id is not None
    return record(unit, planned, who.user.id)


def record(unit: Unit, planned: PlannedAct, user_id: int) -> str:
    """A linked, active User's act: its verdict(s), and the hint a plain note earns."""
    act = planned.act
    recorded = record_act(unit, act, user_id, planned.machine)
    if recorded.duplicate:
        return "duplicate"
    ACTS.inc()
    target = act.target
    with log_context(
        conversation_id=target.conversation_id, property=target.property_id, channel=act.slack_channel
    ):
        log.info(
            "act recorded: %s by %s on %s (%d verdict(s))",
            act.signal,
            act.slack_user_id,
            target.turn_id or target.conversation_id,
            len(recorded.verdicts),
        )
    if act.signal == "correction" and act.expected_level is not None and act.slack_channel:
        _confirm(unit, planned, recorded.verdicts[0].principles if recorded.verdicts else [])
    if planned.hint is not None:
        title, body = _deck(unit, act).note_hint()
        queue_ephemeral(
            unit,
            key=planned.hint.key,
            channel=planned.hint.channel,
            user=act.slack_user_id,
            title=title,
            body=body,
            thread_ts=planned.hint.thread_ts,
        )
    return f"recorded {len(recorded.verdicts)} verdict(s)"


def park(unit: Unit, planned: PlannedAct) -> str:
    """No User, no verdict: keep the act (with the grade as it was) until an admin links the person."""
    act, frozen = planned.act, planned.machine
    unit.pending_acts.add(
        PendingAct(
            slack_user_id=act.slack_user_id,
            act={"act": act.to_json(), "machine": frozen},
            act_key=act.act_key,
            machine_grade_id=str(frozen["id"]),
        )
    )
    if act.slack_channel:
        title, body = _deck(unit, act).not_linked()
        queue_ephemeral(
            unit,
            key=unlinked_key(act.slack_channel, act.slack_user_id),
            channel=act.slack_channel,
            user=act.slack_user_id,
            title=title,
            body=body,
        )
    return PARKED


def _confirm(unit: Unit, planned: PlannedAct, principles: Sequence[str]) -> None:
    """Tell the person what their correction recorded (level, reason, principles as stored), so they
    know it counted; once per act."""
    act = planned.act
    assert act.slack_channel is not None and act.expected_level is not None
    title, body = _deck(unit, act).confirmation(act.expected_level.value, act.note, principles)
    queue_ephemeral(
        unit,
        key=confirmation_key(act.act_key),
        channel=act.slack_channel,
        user=act.slack_user_id,
        title=title,
        body=body,
        thread_ts=planned.thread_ts,
    )


def _deck(unit: Unit, act: HumanAct) -> CopyDeck:
    """The copy deck of the property the act is about: people are answered in its language."""
    prop = unit.properties.get(act.target.property_id)
    return deck_for(prop.locale if prop is not None else None)
