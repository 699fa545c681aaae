"""Operational notices: a permanent delivery failure is told to the ops channel once per cause."""

from __future__ import annotations

from blocks import build_notice_blocks, texts
from blocks.common import ChannelLink
from gradecore.persistence.store import Unit
from smith.outbox.keys import ops_notice_key
from smith.outbox.queue import NewPost, queue_one


def queue_ops_notice(unit: Unit, ops_channel: str, *, cause: str, failed_channel: str | None) -> bool:
    """Queue one notice per (cause, channel); the idempotency key makes a second one a no-op."""
    key = ops_notice_key(cause, failed_channel)
    where = ChannelLink(failed_channel) if failed_channel else None
    title, body = texts.delivery_failed_notice(cause, where)
    content = build_notice_blocks(title, body, idempotency_key=key)
    return queue_one(unit, NewPost(key=key, kind="notice", content=content, channel=ops_channel))
