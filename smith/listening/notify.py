"""Ephemeral answers to one person, queued through the outbox like every other Slack message."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from blocks import build_notice_blocks
from gradecore.entities import SlackPost
from gradecore.store import Unit
from gradecore.store.outbox import PENDING


def queue_ephemeral(
    unit: Unit, *, key: str, channel: str, user: str, title: str, body: str, thread_ts: str | None = None
) -> bool:
    """Queue once per key: the key says how often a person may be told (per thread, per channel…)."""
    if unit.outbox.by_key(key) is not None:
        return False
    content = build_notice_blocks(title, body)
    payload = {"text": content.text, "blocks": [block.to_dict() for block in content.blocks], "user": user}
    post = SlackPost(
        kind="notice",
        operation="ephemeral",
        idempotency_key=key,
        channel=channel,
        thread_ts=thread_ts,
        payload=payload,
        status=PENDING,
    )
    try:
        with unit.session.begin_nested():
            return unit.outbox.add(post)[1]
    except IntegrityError:  # the same person's other act queued it a moment ago (another replica)
        return False
