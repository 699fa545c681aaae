"""Issue 10 §4 end to end: conversations whose ids look like each other's keys never touch each other.

Conversation `colX:turn:t1` and conversation `colX` with turn `t1` shared a post key, so `colX`'s
thread reply was sent as an edit of the other's parent. Conversation `a/b` with turn `c` and
conversation `a` with turn `b/c` shared an item ref, so a 👍 on one reply was recorded against the
other conversation's grade. Both pairs go through ingest, the relay and the fake Slack here, and the
128-character ids with a 117-character turn id go all the way to a recorded verdict.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import Engine

from gradecore.model.contract import MAX_ID_CHARS, validate_conversation
from tests.conftest import load_demo
from tests.scenarios.listening import CHANNEL, Posted, Scene, running_scene

LAMPLITER: dict[str, Any] = json.loads(load_demo("lampliter-unbacked-promise.json"))


async def _seed(scene: Scene, conversation_id: str, turn_id: str) -> Posted:
    doc = json.loads(json.dumps(LAMPLITER))
    doc["conversation_id"], doc["turns"][0]["id"] = conversation_id, turn_id
    conversation = validate_conversation(doc)
    prop = conversation.property
    with scene.store.unit() as unit:
        unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id=CHANNEL)
    scene.smith.ingestor.ingest(conversation)
    await scene.drain()
    return scene.posted(conversation_id)


async def test_a_conversation_named_like_a_turn_key_keeps_its_own_thread(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        first = await _seed(scene, "colX:turn:t1", "t1")
        second = await _seed(scene, "colX", "t1")

        assert scene.fake.calls_to("chat.update") == []  # nothing was sent as an edit of another post
        for posted in (first, second):
            thread = scene.fake.thread(CHANNEL, posted.parent_ts)
            replies = [message.ts for message in thread if message.is_reply]
            assert replies == [posted.turn_ts["t1"]], posted.conversation_id
        assert first.parent_ts != second.parent_ts


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (("a/b", "c"), ("a", "b/c")),
        (("c" * MAX_ID_CHARS, "t" * 117), ("c" * MAX_ID_CHARS, "t" * 116)),
    ],
)
async def test_a_thumbs_up_is_recorded_against_the_grade_it_was_given_on(
    engine: Engine, mine: tuple[str, str], theirs: tuple[str, str]
) -> None:
    async with running_scene(engine) as scene:
        posted = await _seed(scene, *mine)
        await _seed(scene, *theirs)  # graded later: the latest grade of a shared ref would be theirs
        grader = scene.add_grader("U0ANA", "ana@example.test")

        await scene.react("U0ANA", "+1", posted.turn_ts[mine[1]])
        await scene.settle()

        (verdict,) = scene.verdicts()
        assert verdict.grader_user_id == grader.id
        assert (verdict.conversation_id, verdict.turn_id) == mine
        assert verdict.machine_grade_id == posted.turn_grades[mine[1]].id
        assert verdict.item_ref == posted.turn_grades[mine[1]].item_ref
