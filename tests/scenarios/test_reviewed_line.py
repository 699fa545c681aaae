"""Issue 13, point 4: the parent shows who reviewed it, kept current through the outbox by coalesced
`chat.update` calls (at most one per post per 30 s, never lost, never out of order), through signed
events and the fake Slack."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import Engine

from gradecore.persistence.entities import utcnow
from smith.outbox import Relay, RelayConfig
from smith.outbox.reviewed import EDIT_INTERVAL
from tests.scenarios.examples import grown_lampliter
from tests.scenarios.listening import CHANNEL, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"


def reviewed_text(scene: Scene, ts: str) -> str | None:
    blocks: list[dict[str, Any]] = scene.fake.message(CHANNEL, ts).blocks or []
    found = [block for block in blocks if block.get("block_id") == "smith_reviewed"]
    assert len(found) <= 1, "one reviewed-by line at most"
    return str(found[0]["elements"][0]["text"]) if found else None


def updates_of(scene: Scene, ts: str) -> list[dict[str, Any]]:
    return [call for call in scene.fake.calls_to("chat.update") if call["ts"] == ts]


async def drain_later(scene: Scene, seconds: float) -> None:
    """Deliver what is due `seconds` from now: the relay's clock runs ahead, nobody waits."""
    assert scene.smith.transport is not None
    relay = Relay(
        scene.store,
        scene.smith.transport,
        RelayConfig(channel_interval=0.01, global_rate=1000),
        clock=lambda: utcnow() + timedelta(seconds=seconds),
    )
    await relay.drain(within=20, idle_sleep=0.01)


async def test_thumbs_up_down_and_a_correction_show_on_the_parent(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        with scene.store.unit() as unit:
            unit.users.add("maria@example.test", "María López", "staff")
            unit.users.add("sam@example.test", "Sam Okafor", "staff")
            unit.users.add("bo@example.test", "Bo Chen", "staff")
        scene.add_slack_user("U0MARIA", "maria@example.test")
        scene.add_slack_user("U0SAM", "sam@example.test")
        scene.add_slack_user("U0BO", "bo@example.test")
        assert reviewed_text(scene, posted.parent_ts) is None

        await scene.react("U0MARIA", "+1", posted.parent_ts)
        await scene.settle()
        await scene.drain()
        assert reviewed_text(scene, posted.parent_ts) == "Reviewed: 👍 María"

        await scene.react("U0BO", "-1", posted.turn_ts["t1"])
        await scene.reply("U0SAM", posted.parent_ts, "Should be PASS — the arrival section exists")
        await scene.settle()
        await drain_later(scene, EDIT_INTERVAL.total_seconds() + 1)
        assert (
            reviewed_text(scene, posted.parent_ts) == "Reviewed: 👍 María · 👎 Bo · correction by Sam → PASS"
        )
        # The edit kept everything else the post said.
        text = str(scene.fake.message(CHANNEL, posted.parent_ts).blocks)
        assert "BLOCK · unbacked promise" in text and "Correct this grade" in text

        # A removed reaction is reflected too.
        await scene.react("U0MARIA", "+1", posted.parent_ts, added=False)
        await scene.settle()
        await drain_later(scene, 2 * EDIT_INTERVAL.total_seconds() + 2)
        assert reviewed_text(scene, posted.parent_ts) == "Reviewed: 👎 Bo · correction by Sam → PASS"


async def test_a_burst_of_twenty_reactions_makes_one_or_two_edits_with_the_final_text(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        names = [f"Grader{index:02d}" for index in range(20)]
        with scene.store.unit() as unit:
            for name in names:
                unit.users.add(f"{name.lower()}@example.test", f"{name} Smith", "staff")
        for name in names:
            scene.add_slack_user(f"U0{name.upper()}", f"{name.lower()}@example.test")

        for name in names:
            await scene.react(f"U0{name.upper()}", "+1", posted.parent_ts)
        await scene.settle()
        await scene.drain()
        first = updates_of(scene, posted.parent_ts)
        assert 1 <= len(first) <= 2
        # Whatever the first edit caught, the last one (due 30 s later at the latest) has all twenty.
        await drain_later(scene, EDIT_INTERVAL.total_seconds() + 1)
        edits = updates_of(scene, posted.parent_ts)
        assert 1 <= len(edits) <= 2
        # Eight names (in the order they came), then how many more: all twenty are counted.
        line = reviewed_text(scene, posted.parent_ts)
        assert line is not None and line.startswith("Reviewed: 👍 ") and line.endswith(" and 12 others")
        shown = line.removeprefix("Reviewed: 👍 ").removesuffix(" and 12 others").split(", ")
        assert len(shown) == 8 and set(shown) <= set(names)

        # Nothing more is queued: a later drain sends no further edit.
        await drain_later(scene, 3 * EDIT_INTERVAL.total_seconds())
        assert len(updates_of(scene, posted.parent_ts)) == len(edits)


async def test_a_resent_conversation_keeps_the_reviewed_by_line(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        with scene.store.unit() as unit:
            unit.users.add("maria@example.test", "María López", "staff")
        scene.add_slack_user("U0MARIA", "maria@example.test")
        await scene.react("U0MARIA", "+1", posted.parent_ts)
        await scene.settle()
        await scene.drain()
        assert reviewed_text(scene, posted.parent_ts) == "Reviewed: 👍 María"

        scene.smith.ingestor.ingest(grown_lampliter())  # a new flagged turn: the parent is edited
        await scene.drain()
        edited = scene.fake.message(CHANNEL, posted.parent_ts)
        assert "2 of 2 turns flagged" in edited.text
        assert reviewed_text(scene, posted.parent_ts) == "Reviewed: 👍 María"
