"""Events processed together: one transaction for the batch, yet one bad event costs only itself, and
acts within a batch see each other (a 👍 and its removal in the same batch)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Engine

from gradecore.persistence.entities import SlackEvent
from gradecore.persistence.grade_rows import frozen_copy
from smith.listening.locating import LatestGrades
from smith.listening.processor import ActProcessor
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"


def _recorded(scene: Scene, event: dict[str, Any], event_id: str) -> dict[str, Any]:
    body = sr.event_body(event, event_id=event_id)
    with scene.store.unit() as unit:
        assert unit.inbox.add(event_id, str(event["type"]), body)
    return body


async def _linked(scene: Scene, slack_id: str, email: str, ts: str) -> ActProcessor:
    """A grader whose first act (by e-mail) linked them, so the next acts go straight to batches."""
    scene.add_grader(slack_id, email)
    await scene.react(slack_id, "-1", ts)
    await scene.settle()
    assert scene.smith.processor is not None
    return scene.smith.processor


async def test_a_bad_event_in_a_batch_costs_only_itself(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        processor = await _linked(scene, "U0ANA", "ana@example.test", posted.parent_ts)
        good = _recorded(scene, sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts), "EvGOOD1")
        # Odd event shapes are ignored, not errors; a row whose payload is no object at all (written
        # by hand, or by an older Smith) still fails, and must cost only itself.
        with scene.store.unit() as unit:
            assert unit.inbox.add("EvBROKEN", "reaction_added", ["not", "an", "event"])  # type: ignore[arg-type]
        turn_ts = next(iter(posted.turn_ts.values()))
        other = _recorded(scene, sr.reaction("U0ANA", "+1", CHANNEL, turn_ts), "EvGOOD2")

        outcomes = await asyncio.gather(
            processor.process("EvGOOD1", kind="reaction_added", payload=good),
            processor.process("EvBROKEN"),  # read back from the inbox, as the retry pass does
            processor.process("EvGOOD2", kind="reaction_added", payload=other),
        )

        assert list(outcomes) == ["recorded 1 verdict(s)", "error: AttributeError", "recorded 1 verdict(s)"]
        assert [v.slack_event_id for v in scene.verdicts() if v.signal == "up"] == ["EvGOOD1", "EvGOOD2"]
        with scene.store.unit() as unit:
            row = unit.session.get(SlackEvent, "EvBROKEN")
            assert row is not None and row.processed_at is None and row.attempts == 1  # for the retry pass
        assert scene.unprocessed() == ["EvBROKEN"]


async def test_a_reaction_and_its_removal_in_one_batch(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        processor = await _linked(scene, "U0ANA", "ana@example.test", posted.parent_ts)
        added = _recorded(scene, sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts), "EvADD")
        removed = sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts, added=False)
        removed_body = _recorded(scene, removed, "EvREMOVE")

        outcomes = await asyncio.gather(
            processor.process("EvADD", kind="reaction_added", payload=added),
            processor.process("EvREMOVE", kind="reaction_removed", payload=removed_body),
            processor.process("EvADD", kind="reaction_added", payload=added),  # a duplicate delivery
        )

        assert list(outcomes) == ["recorded 1 verdict(s)", "recorded 1 verdict(s)", "duplicate"]
        rows = scene.verdicts()
        up = next(v for v in rows if v.slack_event_id == "EvADD")
        retraction = next(v for v in rows if v.slack_event_id == "EvREMOVE")
        assert (up.signal, retraction.signal, retraction.retracts_id) == ("up", "retraction", up.id)
        assert scene.unprocessed() == []


async def test_the_grade_is_frozen_from_its_columns_as_frozen_copy_keeps_it(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        grade = posted.parent_grade
        with scene.store.unit() as unit:
            latest = unit.grades.latest(grade.item_type, grade.item_ref)
            assert latest is not None
            assert LatestGrades().latest(unit, grade.item_type, grade.item_ref) == frozen_copy(latest)
            assert LatestGrades.shown(unit, latest.id) == frozen_copy(latest)
