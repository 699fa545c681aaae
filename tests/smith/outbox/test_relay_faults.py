"""The relay against Slack's failure modes, through the real client and the fake Slack server.

Every test ends by counting, on Slack's side, the messages carrying each idempotency key: each post
must be there exactly once, whatever went wrong on the way.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import datetime, timedelta

from gradecore.model.contract import parse_conversation
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import FAILED, POSTED
from smith.ingest import Ingestor
from smith.outbox import Relay
from smith.outbox.policy import parent_key, turn_key
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import (
    FAST,
    RecordingTransport,
    keys_in_slack,
    live_transport,
    plain_payload,
    queue_plain,
    relay_for,
    statuses,
)

APT, OPS = "C0APT", "C0OPS"


def methods(fake: FakeSlack) -> list[str]:
    return [call.method for call in fake.calls]


async def test_429_bursts_are_waited_out_and_every_post_lands_once(store: Store) -> None:
    # Slack answers whole seconds of Retry-After; the relay is set to post faster than the fake allows.
    async with FakeSlack.running(channels=[APT], post_window_s=0.2) as fake:
        keys = queue_plain(store, APT, [f"burst-{i}" for i in range(4)])
        transport = RecordingTransport(live_transport(fake))
        stats = await Relay(store, transport, FAST).drain(within=30)

        assert fake.rate_limited, "the burst should have met Slack's rate limit"
        assert stats.rate_limited == len(fake.rate_limited)
        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)
        assert set(statuses(store).values()) == {POSTED}
        limited = [a for a in transport.attempts if a.outcome == "RateLimited"]
        assert limited
        for hit in limited:
            later = [a.at for a in transport.attempts if a.channel == hit.channel and a.at > hit.at]
            assert hit.retry_after is not None and hit.retry_after >= 1
            # Nothing more went to that channel until Retry-After had passed.
            assert not later or min(later) >= hit.at + hit.retry_after


async def test_pacing_at_slacks_own_rate_meets_no_429s(store: Store) -> None:
    # Slack counts from when it accepted a message; the relay must not count from its request alone.
    async with FakeSlack.running(channels=[APT], post_window_s=0.2) as fake:
        keys = queue_plain(store, APT, [f"paced-{i}" for i in range(6)])
        stats = await relay_for(store, fake, replace(FAST, channel_interval=0.2)).drain(within=20)

        assert fake.rate_limited == [] and stats.rate_limited == 0
        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)


async def test_a_5xx_is_looked_up_before_the_post_is_sent_again(store: Store) -> None:
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:
        (key,) = queue_plain(store, APT, ["five-hundred"])
        fake.fail_next("chat.postMessage", "http_500")
        stats = await relay_for(store, fake).drain(within=10)

        assert [f.kind for f in fake.faults_served] == ["http_500"]
        assert methods(fake) == ["chat.postMessage", "conversations.history", "chat.postMessage"]
        assert keys_in_slack(fake) == {key: 1}
        assert stats.posted == 1 and stats.retried == 1
        assert statuses(store) == {key: POSTED}


async def test_a_timeout_after_slack_stored_the_post_does_not_send_it_twice(store: Store) -> None:
    # The fake stalls longer than the client waits, then stores the message anyway; the relay's next
    # attempt comes after that (backoff 1 s), so only the look-up stands between it and a duplicate.
    async with FakeSlack.running(channels=[APT], post_window_s=0, fault_delay_s=0.4) as fake:
        (key,) = queue_plain(store, APT, ["slow-slack"])
        fake.fail_next("chat.postMessage", "timeout")
        config = replace(FAST, backoff_base=1.0, backoff_cap=1.0)
        stats = await relay_for(store, fake, config, timeout=0.15).drain(within=10)

        assert [f.kind for f in fake.faults_served] == ["timeout"]
        assert len(fake.calls_to("chat.postMessage")) == 1
        assert fake.calls_to("conversations.history")
        assert keys_in_slack(fake) == {key: 1}
        assert stats.recovered == 1 and stats.posted == 0
        assert statuses(store) == {key: POSTED}


async def test_a_connection_dropped_after_slack_accepted_does_not_send_twice(store: Store) -> None:
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:
        keys = queue_plain(store, APT, ["dropped", "after-it"])
        fake.fail_next("chat.postMessage", "drop_after_accept")
        stats = await relay_for(store, fake).drain(within=10)

        assert [f.kind for f in fake.faults_served] == ["drop_after_accept"]
        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)
        assert len(fake.calls_to("chat.postMessage")) == 2  # the dropped one was never resent
        assert stats.recovered == 1
        with store.unit() as unit:
            dropped = unit.outbox.by_key("dropped")
            assert dropped is not None and dropped.ts == fake.top_level(APT)[0].ts


async def test_a_dropped_thread_reply_is_found_in_its_thread(store: Store) -> None:
    conversation = parse_conversation(load_demo("lampliter-unbacked-promise.json"))
    with store.unit() as unit:
        unit.properties.set("lampliter", name="Lampliter", timezone="America/Chicago", channel_id=APT)
    Ingestor(store).ingest(conversation)
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:
        relay = relay_for(store, fake)
        await relay.run_once()  # the parent goes; its reply waits for the parent's ts
        fake.fail_next("chat.postMessage", "drop_after_accept")
        stats = await relay.drain(within=10)

        parent = fake.top_level(APT)
        assert len(parent) == 1
        thread = fake.thread(APT, parent[0].ts)
        assert len(thread) == 2  # the parent and exactly one reply
        assert fake.calls_to("conversations.replies")
        assert stats.recovered == 1
        cid = conversation.conversation_id
        assert keys_in_slack(fake) == {parent_key(cid): 1, turn_key(cid, "t1"): 1}


async def test_a_relay_cancelled_mid_send_is_resumed_by_another_without_duplicates(store: Store) -> None:
    async with FakeSlack.running(channels=[APT], post_window_s=0, fault_delay_s=0.5) as fake:
        keys = queue_plain(store, APT, [f"restart-{i}" for i in range(4)])
        fake.fail_next("chat.postMessage", "timeout")  # the first send hangs: the relay dies meanwhile
        crashed = asyncio.create_task(relay_for(store, fake, owner="crashed").drain(within=10))
        await _until(lambda: bool(fake.calls_to("chat.postMessage")))
        crashed.cancel()
        await asyncio.gather(crashed, return_exceptions=True)
        await _until(lambda: bool(fake.messages(APT)))  # Slack finishes storing it regardless

        # The crashed relay's leases still hold; a restarted relay sees them once they expire.
        def after_lease() -> datetime:
            return utcnow() + timedelta(seconds=FAST.lease_seconds + 1)

        assert (await relay_for(store, fake, owner="too-early").drain(within=0.5)).posted == 0
        stats = await relay_for(store, fake, owner="restarted", clock=after_lease).drain(within=10)

        assert stats.recovered == 1 and stats.posted == len(keys) - 1
        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)
        assert set(statuses(store).values()) == {POSTED}


async def test_a_relay_that_died_before_its_send_reached_slack_is_resent_once(store: Store) -> None:
    (key,) = queue_plain(store, APT, ["never-arrived"])
    with store.unit() as unit:  # claimed and marked ambiguous, then the process died before sending
        (claimed,) = unit.outbox.claim_due("dead", now=utcnow(), lease=timedelta(seconds=60))
        unit.outbox.mark_ambiguous(claimed.id or 0, "dead")
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:

        def after_lease() -> datetime:
            return utcnow() + timedelta(seconds=61)

        stats = await relay_for(store, fake, clock=after_lease).drain(within=10)

        assert methods(fake) == ["conversations.history", "chat.postMessage"]
        assert stats.posted == 1 and stats.recovered == 0
        assert keys_in_slack(fake) == {key: 1}


async def test_permanent_errors_end_failed_with_one_ops_notice_per_cause(store: Store) -> None:
    too_long = plain_payload("x", text="x" * 3_001)  # over Slack's 3,000 characters per section
    missing = queue_plain(store, "C0GONE", [f"gone-{i}" for i in range(3)])
    archived = queue_plain(store, "C0ARCH", [f"archived-{i}" for i in range(2)])
    invalid = [
        queue_plain(store, APT, [key], payload=_with_key(too_long, key))[0] for key in ("bad-0", "bad-1")
    ]
    fine = queue_plain(store, APT, ["fine"])
    async with FakeSlack.running(channels=[APT, OPS], archived=["C0ARCH"], post_window_s=0) as fake:
        stats = await relay_for(store, fake, replace(FAST, ops_channel=OPS)).drain(within=15)

        with store.unit() as unit:
            for keys, cause in (
                (missing, "channel_not_found"),
                (archived, "is_archived"),
                (invalid, "invalid_blocks"),
            ):
                for key in keys:
                    post = unit.outbox.by_key(key)
                    assert post is not None and post.status == FAILED and post.last_error == cause
                    assert post.attempts == 1  # a permanent error is not retried
        assert stats.failed == 7
        notices = {
            str(m.metadata["event_payload"]["idempotency_key"])
            for m in fake.top_level(OPS)
            if m.metadata is not None
        }
        assert notices == {
            "notice:channel_not_found:C0GONE",
            "notice:is_archived:C0ARCH",
            "notice:invalid_blocks:C0APT",
        }
        assert len(fake.top_level(OPS)) == 3
        assert keys_in_slack(fake) == dict.fromkeys([*fine, *notices], 1)


async def test_not_in_channel_joins_and_delivers(store: Store) -> None:
    keys = queue_plain(store, APT, ["join-0", "join-1"])
    async with FakeSlack.running(channels=[APT], member_of=[], post_window_s=0) as fake:
        stats = await relay_for(store, fake).drain(within=10)

        assert fake.calls_to("conversations.join") == [{"channel": APT}]
        assert stats.posted == 2 and stats.failed == 0
        assert keys_in_slack(fake) == dict.fromkeys(keys, 1)


async def test_retry_failed_requeues_and_delivers_once_the_cause_is_fixed(store: Store) -> None:
    keys = queue_plain(store, "C0LATER", ["later-0", "later-1"])
    async with FakeSlack.running(channels=[OPS], post_window_s=0) as fake:
        relay = relay_for(store, fake, replace(FAST, ops_channel=OPS))
        await relay.drain(within=10)
        assert statuses(store) == {**dict.fromkeys(keys, FAILED), "notice:channel_not_found:C0LATER": POSTED}

        fake.add_channel("C0LATER")
        with store.unit() as unit:
            assert unit.outbox.retry_failed() == 2
        stats = await relay.drain(within=10)

        assert stats.posted == 2
        assert set(statuses(store).values()) == {POSTED}
        assert keys_in_slack(fake) == {**dict.fromkeys(keys, 1), "notice:channel_not_found:C0LATER": 1}


def _with_key(payload: dict[str, object], key: str) -> dict[str, object]:
    copied = json.loads(json.dumps(payload))
    copied["metadata"]["event_payload"]["idempotency_key"] = key
    return dict(copied)


async def _until(condition: object, *, within: float = 5.0) -> None:
    assert callable(condition)
    deadline = asyncio.get_running_loop().time() + within
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition never became true"
        await asyncio.sleep(0.01)
