"""Queuing Slack posts: the one way anything enters the outbox (docs/delivery.md).

Each post is checked against Slack's limits before it is stored, so a post Slack would refuse fails in
the transaction that made it rather than in the relay later. It waits `pending` when it has a channel
and `unrouted` until its property is given one. Its idempotency key (`smith.outbox.keys`) makes queuing
the same post again a no-op, also when another replica queues it in the same instant: the rows are
inserted with `ON CONFLICT DO NOTHING`, so the second writer's insert does nothing instead of failing.
A batch of posts is one statement, however many posts it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from blocks import PostContent, render_post
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Unit
from gradecore.persistence.store.outbox import PENDING, UNROUTED
from smith.outbox.keys import PostKey

Operation = Literal["post", "update", "ephemeral"]


@dataclass(frozen=True)
class NewPost:
    """One post to queue: its key, what it says, where it goes and what it is about."""

    key: PostKey
    kind: str  # conversation | turn | more_turns | tally | digest | notice | review
    # What it says: built content, or a message already rendered when an edit changes a line of a post
    # queued before (the reviewed-by line, `smith.outbox.reviewed`), which was checked when first queued.
    content: PostContent | dict[str, Any]
    channel: str | None  # None: the property has no channel yet, and the post waits unrouted
    operation: Operation = "post"
    recipient: str | None = None  # the one person an ephemeral is shown to
    property_id: str | None = None
    conversation_id: str | None = None
    turn_id: str | None = None
    machine_grade_id: str | None = None
    parent_post_id: int | None = None  # the thread's parent (a reply), or the message an edit changes
    thread_ts: str | None = None  # a thread not of our making (an ephemeral answering a reply)
    not_before: datetime | None = None


def queue(unit: Unit, posts: Sequence[NewPost]) -> dict[PostKey, int]:
    """Queue every post whose key is new, in the caller's transaction; the ids of the posts this call
    queued, by key (a key queued before, by anyone, is left out)."""
    if not posts:
        return {}
    now = utcnow()
    rows = [_row(post, now) for post in posts]
    return {PostKey(key): post_id for key, post_id in unit.outbox.insert_new(rows).items()}


def queue_one(unit: Unit, post: NewPost) -> bool:
    """`queue` for one post: True when this call queued it."""
    return bool(queue(unit, [post]))


def _row(post: NewPost, now: datetime) -> dict[str, Any]:
    if (post.operation == "ephemeral") != (post.recipient is not None):
        raise ValueError("an ephemeral needs a recipient, and only an ephemeral has one")
    if post.operation == "ephemeral" and post.channel is None:
        raise ValueError("an ephemeral is shown in a channel: it needs one")
    if post.operation == "update" and post.parent_post_id is None:
        raise ValueError("an edit needs the post it changes")
    return {
        "kind": post.kind,
        "operation": post.operation,
        "idempotency_key": post.key,
        "property_id": post.property_id,
        "conversation_id": post.conversation_id,
        "turn_id": post.turn_id,
        "machine_grade_id": post.machine_grade_id,
        "channel": post.channel,
        "parent_post_id": post.parent_post_id,
        "thread_ts": post.thread_ts,
        "recipient": post.recipient,
        "payload": _payload(post.content),
        "status": PENDING if post.channel else UNROUTED,
        "next_attempt_at": post.not_before or now,
        "created_at": now,
        "updated_at": now,
    }


def _payload(content: PostContent | dict[str, Any]) -> dict[str, Any]:
    if isinstance(content, PostContent):
        return render_post(content)  # refuses what Slack would refuse
    return content
