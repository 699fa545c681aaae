"""Issue 13, points 2 and 3, through the relay and the fake Slack: a conversation with 80 flagged turns
posts 11 messages (the parent, 9 turn replies, one reply listing the rest), re-sends never post twice,
and a long draft is excerpted around every failing span."""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy import Engine

from gradecore.model.contract import Conversation, parse_conversation
from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.scenarios.examples import CHANNELS, map_channels
from tests.scenarios.listening import CHANNEL as SCENE_CHANNEL
from tests.scenarios.listening import running_scene
from tests.smith.outbox.harness import relay_for

CHANNEL = CHANNELS["birchwood"]


def _turn(index: int, draft: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    hour, minute = 10 + index // 60, index % 60
    messages = [
        {
            "id": f"in{index}",
            "at": f"2026-11-28T{hour}:{minute:02d}:00Z",
            "author": "p7",
            "direction": "inbound",
            "text": "How much is the 2 bedroom per month?",
            "language": "en",
        },
        {
            "id": f"out{index}",
            "at": f"2026-11-28T{hour}:{minute:02d}:30Z",
            "author": "clara",
            "direction": "outbound",
            "text": draft,
            "language": "en",
        },
    ]
    turn = {
        "id": f"t{index + 1}",
        "message_id": f"out{index}",
        "intent": "rent_question",
        "trace": {
            "steps": [
                {
                    "kind": "claude_call",
                    "loop_iteration": 0,
                    "system_prompt": "You are Clara for Birchwood. 2BR rent $1,850/month.",
                    "stop_reason": "end_turn",
                    "input_tokens": 3900,
                    "output_tokens": 60,
                    "cache_read_tokens": 3600,
                    "draft": draft,
                }
            ]
        },
    }
    return messages, turn


def birchwood_with(drafts: list[str], conversation_id: str = "b1rchw00d-many") -> Conversation:
    """Birchwood's rent conversation, with one turn per draft (each quoting a rent not on file)."""
    doc = json.loads(load_demo("birchwood-rent-mismatch.json"))
    doc["conversation_id"] = conversation_id
    doc["messages"], doc["turns"] = [], []
    for index, draft in enumerate(drafts):
        messages, turn = _turn(index, draft)
        doc["messages"] += messages
        doc["turns"].append(turn)
    doc["settled_at"] = "2026-11-28T23:00:00Z"
    return parse_conversation(json.dumps(doc).encode())


def rent_drafts(count: int) -> list[str]:
    return [f"The 2 bedroom is ${1900 + index:,} per month." for index in range(count)]


async def test_eighty_flagged_turns_post_eleven_messages(store: Store) -> None:
    conversation = birchwood_with(rent_drafts(80))
    map_channels(store, conversation)
    result = Ingestor(store).ingest(conversation)
    assert result.grade is not None and len(result.grade.flagged_turns) == 80

    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        await relay_for(store, fake).drain(within=30)

        assert len(fake.calls_to("chat.postMessage")) == 11
        (parent,) = fake.top_level(CHANNEL)
        replies = [m for m in fake.thread(CHANNEL, parent.ts) if m.ts != parent.ts]
        assert len(replies) == 10
        assert [m.text.split(" · ")[0] for m in replies[:9]] == [f"Turn {n}" for n in range(1, 10)]
        listing = replies[-1]
        assert listing.text == "71 more flagged turns in this conversation"
        shown = "\n".join(json.dumps(block, ensure_ascii=False) for block in listing.blocks or [])
        assert "Turn 10 · REPAIR · amount mismatch" in shown
        # Staff are not told to run a command: they are told where to read each turn.
        assert "smith grade" not in shown and "To read one, open this conversation" in shown
        # The parent says how many turns the thread explains and where the rest are (docs/slack-surface.md).
        assert parent.text.endswith(
            "80 of 80 turns flagged — the first 9 are explained in this thread, "
            "the rest are listed in its last message."
        )
        listed_numbers = [int(n) for n in re.findall(r"Turn (\d+) ·", shown)]
        assert listed_numbers == list(range(10, 10 + len(listed_numbers)))
        # Whatever does not fit in one message is counted, never dropped silently.
        assert len(listed_numbers) == 71 or f"…and {71 - len(listed_numbers)} more" in shown


async def test_a_resent_long_conversation_never_posts_twice(store: Store) -> None:
    map_channels(store, birchwood_with(rent_drafts(1)))
    ingestor = Ingestor(store)
    ingestor.ingest(birchwood_with(rent_drafts(80)))
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        relay = relay_for(store, fake)
        await relay.drain(within=30)
        assert len(fake.calls_to("chat.postMessage")) == 11

        ingestor.ingest(birchwood_with(rent_drafts(80)))  # identical: nothing at all
        await relay.drain(within=5)
        assert len(fake.calls_to("chat.postMessage")) == 11
        assert fake.calls_to("chat.update") == []

        ingestor.ingest(birchwood_with(rent_drafts(81)))  # one more flagged turn: the list grows
        await relay.drain(within=30)
        assert len(fake.calls_to("chat.postMessage")) == 11
        (parent,) = fake.top_level(CHANNEL)
        replies = [m for m in fake.thread(CHANNEL, parent.ts) if m.ts != parent.ts]
        assert len(replies) == 10
        assert replies[-1].text == "72 more flagged turns in this conversation"
        assert {u["ts"] for u in fake.calls_to("chat.update")} == {parent.ts, replies[-1].ts}


async def test_a_short_conversation_keeps_one_reply_per_flagged_turn(store: Store) -> None:
    conversation = birchwood_with(rent_drafts(10))
    map_channels(store, conversation)
    Ingestor(store).ingest(conversation)
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        await relay_for(store, fake).drain(within=30)
        (parent,) = fake.top_level(CHANNEL)
        replies = [m for m in fake.thread(CHANNEL, parent.ts) if m.ts != parent.ts]
        assert [m.text.split(" · ")[0] for m in replies] == [f"Turn {n}" for n in range(1, 11)]


async def test_a_long_draft_marks_spans_at_200_and_12000_characters(store: Store) -> None:
    filler = "We are happy to help with anything you need about your new home here. "
    draft = (filler * 3)[:199] + " $1,950 " + (filler * 200)[: 12000 - 208] + " $2,950 " + filler * 20
    assert draft.index("$1,950") == 200 and draft.index("$2,950") == 12000
    conversation = birchwood_with([draft], conversation_id="b1rchw00d-long")
    map_channels(store, conversation)
    Ingestor(store).ingest(conversation)
    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        await relay_for(store, fake).drain(within=30)
        (parent,) = fake.top_level(CHANNEL)
        (reply,) = [m for m in fake.thread(CHANNEL, parent.ts) if m.ts != parent.ts]
        excerpt = next(
            block["text"]["text"]
            for block in reply.blocks or []
            if block.get("text", {}).get("text", "").startswith("What Clara wrote (excerpt):")
        )
        assert "*$1,950*" in excerpt and "*$2,950*" in excerpt
        assert " … " in excerpt  # the two windows are apart, joined by an ellipsis
        assert len(excerpt) <= 3000


async def test_a_reply_naming_a_listed_turn_is_about_that_turn(engine: Engine) -> None:
    conversation = birchwood_with(rent_drafts(12), conversation_id="b1rchw00d-twelve")
    async with running_scene(engine) as scene:
        with scene.store.unit() as unit:
            prop = conversation.property
            unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id=SCENE_CHANNEL)
        scene.smith.ingestor.ingest(conversation)
        await scene.drain()
        posted = scene.posted(conversation.conversation_id)
        assert sorted(posted.turn_ts) == sorted(f"t{n}" for n in range(1, 10))  # 10 to 12 are listed
        scene.add_grader("U0ANA", "ana@example.test")

        await scene.reply(
            "U0ANA", posted.parent_ts, "Turn 12: should be PASS — that rent is the renewal rate"
        )
        await scene.settle()
        (verdict,) = scene.verdicts()
        assert (verdict.item_type, verdict.turn_id, verdict.expected_level) == ("turn", "t12", "pass")
