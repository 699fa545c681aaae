"""Queuing a post (`smith.outbox.queue`): validated, pending or unrouted, once per key, an ephemeral's
recipient in its own column, and two writers queuing the same key at once both succeed."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func
from sqlmodel import select

from blocks import PostContent, PostLimitError, build_notice_blocks
from gradecore.persistence.entities import SlackPost
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import PENDING, UNROUTED
from smith.listening.notify import queue_ephemeral
from smith.outbox.keys import PostKey, ops_notice_key, tally_key, unlinked_key
from smith.outbox.queue import NewPost, queue, queue_one
from tests.fakes.slack_api import FakeSlack
from tests.fakes.slack_state import User as SlackUser
from tests.races import Replica
from tests.smith.outbox.harness import relay_for


def _notice(key: PostKey, channel: str | None, **fields: object) -> NewPost:
    content = build_notice_blocks("Heads up", "something happened", idempotency_key=key)
    return NewPost(key=key, kind="notice", content=content, channel=channel, **fields)  # type: ignore[arg-type]


def _posts(store: Store) -> list[SlackPost]:
    with store.unit() as unit:
        return list(unit.session.exec(select(SlackPost).order_by(SlackPost.id)).all())  # type: ignore[arg-type]


def test_a_post_with_a_channel_waits_pending_and_one_without_waits_unrouted(store: Store) -> None:
    with store.unit() as unit:
        queued = queue(unit, [_notice(PostKey("a"), "C0OPS"), _notice(PostKey("b"), None, property_id="p")])
    assert set(queued) == {"a", "b"}
    statuses = {post.idempotency_key: (post.status, post.id) for post in _posts(store)}
    assert statuses == {"a": (PENDING, queued[PostKey("a")]), "b": (UNROUTED, queued[PostKey("b")])}


def test_a_key_is_queued_once_however_often_it_is_queued(store: Store) -> None:
    key = ops_notice_key("channel_not_found", "C0GONE")
    with store.unit() as unit:
        assert queue_one(unit, _notice(key, "C0OPS"))
        assert not queue_one(unit, _notice(key, "C0OPS"))  # the same transaction
    with store.unit() as unit:
        assert set(queue(unit, [_notice(key, "C0OPS"), _notice(PostKey("other"), "C0OPS")])) == {"other"}
    assert [post.idempotency_key for post in _posts(store)] == [key, "other"]


def test_a_post_slack_would_refuse_is_not_queued_and_nothing_of_its_batch_is(store: Store) -> None:
    empty = PostContent(blocks=[], text="no blocks")
    with pytest.raises(PostLimitError), store.unit() as unit:
        queue(unit, [_notice(PostKey("fine"), "C0OPS"), NewPost(PostKey("bad"), "notice", empty, "C0OPS")])
    assert _posts(store) == []


def test_an_ephemeral_keeps_its_recipient_in_its_own_column_not_in_the_message(store: Store) -> None:
    key = unlinked_key("C0APT", "U0PAT")
    with store.unit() as unit:
        assert queue_ephemeral(unit, key=key, channel="C0APT", user="U0PAT", title="Hi", body="Link yourself")
    (post,) = _posts(store)
    assert (post.operation, post.recipient, post.channel) == ("ephemeral", "U0PAT", "C0APT")
    assert "user" not in post.payload


@pytest.mark.parametrize(
    "fields",
    [{"operation": "ephemeral"}, {"recipient": "U0PAT"}, {"operation": "update"}],
    ids=["ephemeral without recipient", "recipient on a plain post", "edit without its post"],
)
def test_a_new_post_that_contradicts_itself_is_refused(store: Store, fields: dict[str, object]) -> None:
    with pytest.raises(ValueError), store.unit() as unit:
        queue_one(unit, _notice(PostKey("k"), "C0APT", **fields))
    assert _posts(store) == []


def test_a_tally_key_escapes_the_platforms_property_id() -> None:
    day = date(2026, 12, 1)
    assert tally_key("camellia", day) == "tally:camellia:2026-12-01"  # as before: plain ids unchanged
    assert tally_key("a:b", day) == "tally:a%3Ab:2026-12-01"


async def test_the_relay_shows_an_ephemeral_to_its_recipient(store: Store) -> None:
    with store.unit() as unit:
        queue_ephemeral(
            unit, key=unlinked_key("C0APT", "U0PAT"), channel="C0APT", user="U0PAT", title="Hi", body="Hello"
        )
    async with FakeSlack.running(channels=["C0APT"], post_window_s=0) as fake:
        fake.add_user(SlackUser("U0PAT", "pat", email="pat@example.test"))
        await relay_for(store, fake).drain(within=20)
    assert [(shown.channel, shown.user) for shown in fake.ephemerals] == [("C0APT", "U0PAT")]
    assert "Hello" in fake.ephemerals[0].text


# --- two replicas queuing the same key at the same moment (PostgreSQL) --------------------------------


@pytest.mark.backends("postgres")
def test_two_writers_queuing_one_key_at_once_both_succeed_and_it_is_queued_once(
    store: Store, replica_b: Replica
) -> None:
    """A queues the key and holds its transaction until B, queuing the same key, waits on A's row;
    then A commits. B's insert does nothing (it does not fail), and B says it queued nothing."""
    key = ops_notice_key("is_archived", "C0OLD")

    def replica_b_queues(b_store: Store) -> bool:
        with b_store.unit() as unit:
            return queue_one(unit, _notice(key, "C0OPS"))

    with store.unit() as unit:
        assert queue_one(unit, _notice(key, "C0OPS"))
        b = replica_b.run_blocked(replica_b_queues)
    assert b.result() is False
    with store.unit() as unit:
        count = unit.session.exec(select(func.count()).select_from(SlackPost)).one()
    assert count == 1
