"""Ephemeral answers to one person, queued through the outbox like every other Slack message."""

from __future__ import annotations

from blocks import build_notice_blocks
from gradecore.persistence.store import Unit
from smith.outbox.keys import PostKey
from smith.outbox.queue import NewPost, queue_one


def queue_ephemeral(
    unit: Unit, *, key: PostKey, channel: str, user: str, title: str, body: str, thread_ts: str | None = None
) -> bool:
    """Queue once per key: the key says how often a person may be told (per thread, per channel…)."""
    new_post = NewPost(
        key=key,
        kind="notice",
        content=build_notice_blocks(title, body),
        channel=channel,
        operation="ephemeral",
        recipient=user,
        thread_ts=thread_ts,
    )
    return queue_one(unit, new_post)
