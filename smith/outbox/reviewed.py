"""Keeps each parent post's reviewed-by line current, through the outbox, coalesced.

Every recorded act (👍, 👎, a correction, a retraction) asks for the parent of its conversation to be
edited. The edits are SlackPost rows (`kind="review"`, `operation="update"`) carrying the whole message,
so the relay sends them like any other post, in order. A new act replaces the message of a review
edit still waiting (not yet claimed by a relay) instead of adding one; otherwise a new edit is queued at least
`EDIT_INTERVAL` after the previous one. So a post gets at most one edit per 30 seconds, the last edit
always shows every act (never lost), and edits go out in the order they were made (never out of
order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from blocks.copydeck import CopyDeck, deck_for
from blocks.reviewed import with_reviewed_line
from gradecore.persistence.entities import SlackPost, utcnow
from gradecore.persistence.store import Unit, current_acts
from gradecore.persistence.store.outbox import PENDING
from smith.outbox.keys import parent_key, review_edit_key
from smith.outbox.queue import NewPost, queue

REVIEW_KIND = "review"
EDIT_INTERVAL = timedelta(seconds=30)


def refresh_reviewed_lines(
    unit: Unit, conversation_ids: Iterable[str], *, now: datetime | None = None, only_waiting: bool = False
) -> int:
    """Queue an edit of each conversation's parent, or replace the message of one still waiting; how many
    were touched.

    `only_waiting` puts the current content into a waiting review edit and queues none.
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
    standing = current_acts(unit.verdicts.act_rows_of_conversation(conversation_id))
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


def _once(items: Sequence[Any]) -> list[Any]:
    """Each name once, in the order they acted."""
    return list(dict.fromkeys(items))


def _first_names(unit: Unit, user_ids: set[int]) -> dict[int, str]:
    """First names of the graders."""
    return {user_id: (name.split() or ["?"])[0] for user_id, name in unit.users.names(user_ids).items()}


def latest_message(unit: Unit, parent: SlackPost) -> dict[str, Any]:
    """The parent as Slack shows it now, or will once queued edits land: its last queued content."""
    latest = unit.outbox.latest_edit(parent.id) if parent.id is not None else None
    return dict(latest.payload if latest is not None else parent.payload)


def queue_edit(
    unit: Unit, parent: SlackPost, message: dict[str, Any], now: datetime, *, only_waiting: bool
) -> bool:
    if parent.id is None:
        raise ValueError("an edit needs the post it changes, stored")
    last = unit.outbox.latest_edit(parent.id, kind=REVIEW_KIND)
    earlier = unit.outbox.count_edits(parent.id, kind=REVIEW_KIND)
    if last is not None and last.status == PENDING and _replace_waiting(unit, last, message, now):
        return True
    if only_waiting:
        return False
    due = now
    if last is not None:
        # When the previous edit reached Slack (or is reaching it, held by a relay), then the interval.
        sent = max(last.next_attempt_at, now if last.status == PENDING else last.updated_at)
        due = max(now, sent + EDIT_INTERVAL)
    key = review_edit_key(parent.id, earlier + 1)
    edit = NewPost(
        key=key,
        kind=REVIEW_KIND,
        content=message,
        channel=parent.channel,
        operation="update",
        property_id=parent.property_id,
        conversation_id=parent.conversation_id,
        parent_post_id=parent.id,
        not_before=due,
    )
    if not queue(unit, [edit]):  # another replica queued the same edit a moment ago: replace its message
        again = unit.outbox.by_key(key)
        if again is None or not _replace_waiting(unit, again, message, now):
            raise RuntimeError(f"the review edit {key} was queued by another writer and is no longer waiting")
    return True


def _replace_waiting(unit: Unit, edit: SlackPost, message: dict[str, Any], now: datetime) -> bool:
    """Replace a waiting edit's message, only while no relay holds it."""
    return edit.id is not None and unit.outbox.replace_waiting_payload(edit.id, message, now)
