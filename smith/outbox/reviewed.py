"""Keeps each parent post's reviewed-by line current, through the outbox, coalesced.

Every recorded act (👍, 👎, a correction, a retraction) asks for the parent of its conversation to be
edited. The edits are SlackPost rows (`kind="review"`, `operation="update"`) carrying the whole message,
so the relay sends them like any other post, in order. A new act folds into a review edit still
waiting (not yet claimed by a relay) instead of adding one; otherwise a new edit is queued at least
`EDIT_INTERVAL` after the previous one. So a post gets at most one edit per 30 seconds, the last edit
always shows every act (never lost), and edits go out in the order they were made (never out of
order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from blocks.copydeck import CopyDeck, deck_for
from blocks.reviewed import with_reviewed_line
from gradecore.entities import GradeVerdict, SlackPost, User, utcnow
from gradecore.store import Unit, current_acts
from gradecore.store.outbox import PENDING
from smith.outbox.keys import parent_key

REVIEW_KIND = "review"
EDIT_INTERVAL = timedelta(seconds=30)


def refresh_reviewed_lines(
    unit: Unit, conversation_ids: Iterable[str], *, now: datetime | None = None, only_waiting: bool = False
) -> int:
    """Queue (or fold into a waiting one) an edit of each conversation's parent; how many were touched.

    `only_waiting` folds the current content into a waiting review edit and queues none.
    """
    touched = 0
    for conversation_id in dict.fromkeys(conversation_ids):
        parent = unit.outbox.by_key(parent_key(conversation_id))
        if parent is None or parent.id is None or parent.ts is None or parent.channel is None:
            continue  # not in Slack yet: nobody can have reviewed it there
        prop = unit.properties.get(parent.property_id or "")
        line = reviewed_line(unit, conversation_id, deck_for(prop.locale if prop else None))
        message = with_reviewed_line(latest_message(unit, parent), line)
        touched += queue_edit(unit, parent, message, now or utcnow(), only_waiting=only_waiting)
    return touched


def reviewed_line(unit: Unit, conversation_id: str, deck: CopyDeck) -> str:
    """Who reviewed the conversation (its parent or any of its turns), by first name, acts that stand."""
    standing = current_acts(_acts_of(unit, conversation_id))
    names = _first_names(unit, {verdict.grader_user_id for verdict in standing})
    ups: list[str] = []
    downs: list[str] = []
    corrections: list[tuple[str, str]] = []
    notes: list[str] = []
    for verdict in standing:
        name = names.get(verdict.grader_user_id, "?")
        if verdict.signal == "up":
            ups.append(name)
        elif verdict.signal == "down":
            downs.append(name)
        elif verdict.expected_level is not None:
            corrections.append((name, verdict.expected_level))
        else:
            notes.append(name)
    return deck.reviewed_line(_once(ups), _once(downs), _once(corrections), _once(notes))


@dataclass(frozen=True, slots=True)
class _Act:
    """One act as the reviewed-by line needs it: a plain row, not an ORM object (a popular post's acts
    are re-read on every batch of reactions; building thousands of entities would dominate)."""

    id: int | None
    grader_user_id: int
    item_type: str
    item_ref: str
    signal: str
    expected_level: str | None
    retracts_id: int | None
    created_at: datetime


_ACT_COLUMNS = tuple(col(getattr(GradeVerdict, f.name)) for f in fields(_Act))


def _acts_of(unit: Unit, conversation_id: str) -> list[_Act]:
    unit.session.flush()  # acts added in this transaction count too (a plain read does not autoflush)
    query = select(*_ACT_COLUMNS).where(col(GradeVerdict.conversation_id) == conversation_id)
    return [_Act(*row) for row in unit.session.connection().execute(query)]


def _once(items: Sequence[Any]) -> list[Any]:
    """Each name once, in the order they acted."""
    return list(dict.fromkeys(items))


def _first_names(unit: Unit, user_ids: set[int]) -> dict[int, str]:
    """First names of the graders, in one query however many there are."""
    if not user_ids:
        return {}
    users = unit.session.exec(select(User).where(col(User.id).in_(user_ids))).all()
    return {user.id: (user.name.split() or ["?"])[0] for user in users if user.id is not None}


def latest_message(unit: Unit, parent: SlackPost) -> dict[str, Any]:
    """The parent as Slack shows it now, or will once queued edits land: its last queued content."""
    query = (
        select(SlackPost)
        .where(col(SlackPost.parent_post_id) == parent.id, col(SlackPost.operation) == "update")
        .order_by(col(SlackPost.id).desc())
        .limit(1)
    )
    latest = unit.session.exec(query).first()
    return dict(latest.payload if latest is not None else parent.payload)


def queue_edit(
    unit: Unit, parent: SlackPost, message: dict[str, Any], now: datetime, *, only_waiting: bool
) -> bool:
    mine = (col(SlackPost.parent_post_id) == parent.id, col(SlackPost.kind) == REVIEW_KIND)
    last = unit.session.exec(
        select(SlackPost).where(*mine).order_by(col(SlackPost.id).desc()).limit(1)
    ).first()
    earlier = unit.session.exec(select(func.count()).select_from(SlackPost).where(*mine)).one()
    if last is not None and last.status == PENDING and _fold_into(unit, last, message, now):
        return True
    if only_waiting:
        return False
    due = now
    if last is not None:
        # When the previous edit reached Slack (or is reaching it, held by a relay), then the interval.
        sent = max(last.next_attempt_at, now if last.status == PENDING else last.updated_at)
        due = max(now, sent + EDIT_INTERVAL)
    edit = SlackPost(
        kind=REVIEW_KIND,
        operation="update",
        idempotency_key=f"review:{parent.id}:{earlier + 1}",
        property_id=parent.property_id,
        conversation_id=parent.conversation_id,
        channel=parent.channel,
        parent_post_id=parent.id,
        payload=message,
        status=PENDING,
        next_attempt_at=due,
    )
    try:
        with unit.session.begin_nested():
            unit.outbox.add(edit)
    except IntegrityError:  # another replica queued the same edit a moment ago: fold into it
        unit.session.expire_all()
        again = unit.outbox.by_key(edit.idempotency_key)
        if again is None or not _fold_into(unit, again, message, now):
            raise
    return True


def _fold_into(unit: Unit, edit: SlackPost, message: dict[str, Any], now: datetime) -> bool:
    """Replace a waiting edit's message, only while no relay holds it (compare-and-set)."""
    statement = (
        update(SlackPost)
        .where(
            col(SlackPost.id) == edit.id,
            col(SlackPost.status) == PENDING,
            or_(col(SlackPost.lease_until).is_(None), col(SlackPost.lease_until) < now),
        )
        .values(payload=message, updated_at=now)
    )
    return bool(unit.session.exec(statement).rowcount == 1)
