"""The ops notice about a failing channel links that channel: Slack shows #its-name, clickable."""

from __future__ import annotations

import json

from gradecore.persistence.store import Store
from smith.outbox.notices import queue_ops_notice

OPS = "C0OPS"


def test_the_failing_channel_is_a_link_in_the_notice(store: Store) -> None:
    with store.unit() as unit:
        assert queue_ops_notice(unit, OPS, cause="channel_not_found", failed_channel="C0GONE")
        post = unit.outbox.by_key("notice:channel_not_found:C0GONE")
        assert post is not None
        payload = post.payload
    shown = json.dumps(payload["blocks"])
    assert "<#C0GONE>" in shown and "&lt;#C0GONE&gt;" not in shown
    assert "<#C0GONE>" in str(payload["text"])  # the notification fallback says the same
    assert "the channel does not exist" in shown


def test_a_notice_without_a_channel_names_none(store: Store) -> None:
    with store.unit() as unit:
        assert queue_ops_notice(unit, OPS, cause="invalid_auth", failed_channel=None)
        post = unit.outbox.by_key("notice:invalid_auth:-")
        assert post is not None
        text = str(post.payload["text"])
    assert "Posts to a channel are failing: the bot token is not valid." in text
    assert "<#" not in text and "&lt;" not in text
