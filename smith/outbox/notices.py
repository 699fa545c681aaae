"""Operational notices: a permanent delivery failure is told to the ops channel once per cause."""

from __future__ import annotations

from blocks import build_notice_blocks, texts, validate_post
from blocks.common import ChannelLink
from gradecore.entities import SlackPost
from gradecore.store import Unit
from gradecore.store.outbox import PENDING


def queue_ops_notice(unit: Unit, ops_channel: str, *, cause: str, failed_channel: str | None) -> bool:
    """Queue one notice per (cause, channel); the idempotency key makes a second one a no-op."""
    key = f"notice:{cause}:{failed_channel or '-'}"
    if unit.outbox.by_key(key) is not None:
        return False
    where = ChannelLink(failed_channel) if failed_channel else None
    title, body = texts.delivery_failed_notice(cause, where)
    content = build_notice_blocks(title, body, idempotency_key=key)
    validate_post(content)
    unit.outbox.add(
        SlackPost(
            kind="notice",
            idempotency_key=key,
            channel=ops_channel,
            payload=content.as_message(),
            status=PENDING,
        )
    )
    return True
