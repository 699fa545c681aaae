"""A conversation re-sent: identical → nothing in Slack; grown → the parent edited in place and only
the new flagged turn gets a reply."""

from __future__ import annotations

from gradecore.persistence.store import PutOutcome, Store
from smith.ingest import Ingestor
from smith.outbox.policy import parent_key, turn_key
from tests.fakes.slack_api import FakeSlack
from tests.scenarios.examples import CHANNELS, demo, grown_lampliter, header_text, map_channels
from tests.smith.outbox.harness import keys_in_slack, relay_for

CHANNEL = CHANNELS["lampliter"]


async def test_resending_an_identical_conversation_posts_nothing(store: Store) -> None:
    conversation = demo("lampliter-unbacked-promise")
    map_channels(store, conversation)
    ingestor = Ingestor(store)
    ingestor.ingest(conversation)
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        relay = relay_for(store, fake)
        await relay.drain(within=10)
        assert len(fake.calls_to("chat.postMessage")) == 2
        sent_before = len(fake.calls)

        again = ingestor.ingest(conversation)
        stats = await relay.drain(within=2)

        assert again.outcome is PutOutcome.UNCHANGED and again.posts_queued == 0
        assert stats.posted == 0
        new_calls = [call.method for call in fake.calls[sent_before:]]
        assert "chat.postMessage" not in new_calls and "chat.update" not in new_calls
        assert len(fake.messages(CHANNEL)) == 2


async def test_a_grown_conversation_edits_the_parent_and_adds_only_the_new_reply(store: Store) -> None:
    first = demo("lampliter-unbacked-promise")
    map_channels(store, first)
    ingestor = Ingestor(store)
    ingestor.ingest(first)
    cid = first.conversation_id
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        relay = relay_for(store, fake)
        await relay.drain(within=10)
        (parent,) = fake.top_level(CHANNEL)
        assert "1 of 1 turn flagged" in parent.text
        posts_before = len(fake.calls_to("chat.postMessage"))

        grown = ingestor.ingest(grown_lampliter())
        await relay.drain(within=10)

        assert grown.outcome is PutOutcome.REPLACED
        assert grown.grade is not None and [t.turn_id for t in grown.grade.flagged_turns] == ["t1", "t2"]
        updates = fake.calls_to("chat.update")
        assert [(u["channel"], u["ts"]) for u in updates] == [(CHANNEL, parent.ts)]
        edited = fake.message(CHANNEL, parent.ts)
        assert edited.edit_count == 1
        assert "2 of 2 turns flagged" in edited.text
        assert header_text(edited.blocks) == grown.grade.headline.text
        # The edit keeps the parent's key, so the relay can still find it in Slack.
        assert edited.metadata is not None
        assert edited.metadata["event_payload"]["idempotency_key"] == parent_key(cid)

        new_posts = fake.calls_to("chat.postMessage")[posts_before:]
        assert len(new_posts) == 1 and new_posts[0]["thread_ts"] == parent.ts
        replies = fake.thread(CHANNEL, parent.ts)[1:]
        assert [r.metadata["event_payload"]["turn_id"] for r in replies if r.metadata] == ["t1", "t2"]
        assert keys_in_slack(fake) == {parent_key(cid): 1, turn_key(cid, "t1"): 1, turn_key(cid, "t2"): 1}
