"""Inbox rows that always fail: parked after a few attempts with their error, counted in `/readyz`, and
never in the way of the events behind them.

Reproduction from the hardening report: rows that always fail were retried for ever, and the
crash-recovery retry pass, which always took the 200 oldest unprocessed rows, never reached anything else.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, update

from gradecore.persistence.entities import SlackEvent, utcnow
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, Scene, running_scene, wait_until

LAMPLITER = "lampliter-unbacked-promise.json"
# A row no payload check can save (written by hand, or by an older Smith): its payload is no object.
POISON: Any = ["not", "an", "event"]


def _record_poison(scene: Scene, count: int, *, age: timedelta) -> list[str]:
    ids = [f"EvPOISON{n:04d}" for n in range(count)]
    with scene.store.unit() as unit:
        unit.inbox.add_many([(event_id, "reaction_added", POISON) for event_id in ids])
        unit.session.exec(
            update(SlackEvent)
            .where(SlackEvent.event_id.in_(ids))  # type: ignore[attr-defined]
            .values(received_at=utcnow() - age)
        )
    return ids


def _row(scene: Scene, event_id: str) -> SlackEvent:
    with scene.store.unit() as unit:
        row = unit.inbox.get(event_id)
        assert row is not None
        return row


async def test_a_row_that_always_fails_is_parked_with_its_error_and_counted(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        processor = scene.smith.processor
        assert processor is not None
        [poison] = _record_poison(scene, 1, age=timedelta(minutes=5))

        attempts = 0
        while _row(scene, poison).parked_at is None:
            assert attempts < 5, "never parked"
            assert await processor.process_leftovers(older_than=timedelta(0)) == 1
            attempts += 1
            with scene.store.unit() as unit:  # the back-off, skipped: this test is about the count
                unit.session.exec(
                    update(SlackEvent).where(SlackEvent.event_id == poison).values(next_attempt_at=None)  # type: ignore[arg-type]
                )

        row = _row(scene, poison)
        assert (attempts, row.attempts, row.outcome, row.processed_at) == (
            5,
            5,
            "error: AttributeError",
            None,
        )
        assert await processor.process_leftovers(older_than=timedelta(0)) == 0  # left alone from now on
        with scene.store.unit() as unit:
            assert unit.inbox.parked_count() == 1
        readyz = await (await scene.client.get("/readyz")).json()
        assert readyz["inbox_parked"] == 1


async def test_a_failed_row_backs_off_before_the_retry_pass_tries_it_again(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        processor = scene.smith.processor
        assert processor is not None
        [poison] = _record_poison(scene, 1, age=timedelta(minutes=5))

        assert await processor.process_leftovers(older_than=timedelta(0)) == 1
        assert await processor.process_leftovers(older_than=timedelta(0)) == 0  # waiting out its back-off
        row = _row(scene, poison)
        assert row.attempts == 1 and row.next_attempt_at is not None
        assert row.next_attempt_at - utcnow() > timedelta(seconds=20)


async def test_failing_rows_never_starve_the_events_behind_them(engine: Engine) -> None:
    """More always-failing rows than one retry pass takes, all older than a good event: the good event is
    still processed by the second pass (the old pass took the same 200 oldest rows every time)."""
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        processor = scene.smith.processor
        assert processor is not None
        _record_poison(scene, 230, age=timedelta(hours=1))
        good = sr.event_body(sr.reaction("U0ANA", "+1", CHANNEL, posted.parent_ts))
        with scene.store.unit() as unit:
            assert unit.inbox.add(good["event_id"], "reaction_added", good)

        for _ in range(2):
            await processor.process_leftovers(older_than=timedelta(0))

        assert [v.slack_event_id for v in scene.verdicts()] == [good["event_id"]]
        assert _row(scene, good["event_id"]).processed_at is not None


async def test_an_event_failing_only_because_slack_is_down_is_never_parked(engine: Engine) -> None:
    """users.info failing (Slack unwell) is nobody's payload's fault: tried again by every retry pass, with
    no back-off and no parking, and recorded once Slack answers."""
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        processor = scene.smith.processor
        assert processor is not None
        scene.fake.fail_next("users.info", "http_500", times=7)  # the first try and six retry passes
        event_id = await scene.react("U0ANA", "+1", posted.parent_ts)
        await wait_until(lambda: _row(scene, event_id).attempts == 1, what="the first failed attempt")

        for _ in range(6):  # more retry passes than it takes to park a failing event
            assert await processor.process_leftovers(older_than=timedelta(0)) == 1
        row = _row(scene, event_id)
        assert (row.attempts, row.parked_at, row.outcome) == (7, None, "error: DirectoryUnavailable")

        assert await processor.process_leftovers(older_than=timedelta(0)) == 1
        assert [v.slack_event_id for v in scene.verdicts()] == [event_id]
