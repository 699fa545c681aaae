"""👍/👎 on Smith posts, sent as signed `reaction_added`/`reaction_removed` events
(docs/slack-endpoint.md, docs/verdicts.md).

Which emoji count (every thumb, any skin tone), which item they grade (a parent → its conversation, a
thread reply → its turn), the machine grade frozen as it was, what is ignored, and retractions.
"""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from gradecore.persistence.entities import GradeVerdict
from tests.scenarios.listening import CHANNEL, Posted, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"
THUMBS = [
    ("+1", "up"),
    ("thumbsup", "up"),
    ("-1", "down"),
    ("thumbsdown", "down"),
    ("+1::skin-tone-2", "up"),
    ("thumbsup::skin-tone-6", "up"),
    ("-1::skin-tone-3", "down"),
    ("thumbsdown::skin-tone-5", "down"),
]


def _one_per_grader(scene: Scene) -> dict[int, GradeVerdict]:
    rows = scene.verdicts()
    by_grader = {row.grader_user_id: row for row in rows}
    assert len(by_grader) == len(rows), "a grader got two rows for one reaction"
    return by_grader


@pytest.mark.parametrize("where", ["parent", "turn"])
async def test_every_thumb_and_skin_tone_grades_the_item_the_post_shows(engine: Engine, where: str) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        ts = posted.parent_ts if where == "parent" else posted.turn_ts["t1"]
        machine = posted.parent_grade if where == "parent" else posted.turn_grades["t1"]
        graders = {}
        for number, (emoji, _) in enumerate(THUMBS):
            user = scene.add_grader(f"U0G{number:02d}", f"grader{number}@example.test")
            graders[emoji] = (user, await scene.react(f"U0G{number:02d}", emoji, ts))
        await scene.settle()

        rows = _one_per_grader(scene)
        assert len(rows) == len(THUMBS)
        for emoji, signal in THUMBS:
            user, event_id = graders[emoji]
            assert user.id is not None
            row = rows[user.id]
            assert row.signal == signal, emoji
            assert row.item_type == ("conversation" if where == "parent" else "turn")
            expected_ref = posted.conversation_id if where == "parent" else f"{posted.conversation_id}/t1"
            assert row.item_ref == expected_ref
            assert row.turn_id == (None if where == "parent" else "t1")
            assert (row.origin, row.slack_channel, row.slack_ts, row.slack_event_id) == (
                "slack_reaction",
                CHANNEL,
                ts,
                event_id,
            )
            frozen = row.machine_grade_at_time
            assert row.machine_grade_id == machine.id
            assert (frozen["id"], frozen["level"], frozen["rubric_version"]) == (
                machine.id,
                machine.level,
                machine.rubric_version,
            )
            if signal == "up":  # docs/verdicts.md: the grade is right; the owner of the worst failure
                assert (row.expected_level, row.error_class) == (machine.level, "clara")
            else:  # the grade is wrong: a calibration case for the grader
                assert (row.expected_level, row.error_class) == (None, "grader")


async def test_reactions_smith_does_not_read_write_nothing(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        scene.add_slack_user("U0OTHERBOT", None, is_bot=True)
        human_message = scene.fake.add_message(CHANNEL, "lunch anyone?", user="U0ANA")

        await scene.react("U0ANA", "eyes", posted.parent_ts)  # another emoji
        await scene.react("U0ANA", "thumbsup_all", posted.parent_ts)  # a look-alike name
        await scene.react("U0ANA", "heart::skin-tone-2", posted.turn_ts["t1"])
        await scene.react("U0ANA", "+1", human_message.ts)  # not a Smith post
        await scene.react("U0ANA", "+1", "1700000000.000001")  # no such message at all
        await scene.react("U0SMITH", "+1", posted.parent_ts)  # Smith's own reaction
        await scene.react("U0OTHERBOT", "-1", posted.parent_ts)  # another bot (users.info is_bot)
        await scene.settle()

        assert scene.verdicts() == []
        assert scene.pending() == []  # a bot is not an unlinked person either
        outcomes = sorted(row.outcome or "" for row in scene.inbox())
        assert all(outcome.startswith("ignored") for outcome in outcomes), outcomes
        assert "ignored: another bot" in outcomes


async def test_a_removed_reaction_is_a_new_retraction_row(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        await scene.react("U0ANA", "+1::skin-tone-4", posted.parent_ts)
        await scene.settle()
        await scene.react("U0ANA", "+1::skin-tone-4", posted.parent_ts, added=False)
        await scene.settle()

        up, retraction = scene.verdicts()
        assert (up.signal, retraction.signal) == ("up", "retraction")
        assert retraction.retracts_id == up.id
        assert (retraction.item_type, retraction.item_ref) == (up.item_type, up.item_ref)
        assert retraction.machine_grade_at_time == up.machine_grade_at_time
        assert scene.current() == []


async def test_removing_an_emoji_never_added_retracts_nothing(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        await scene.react("U0ANA", "+1", posted.parent_ts)
        await scene.settle()
        await scene.react("U0ANA", "-1", posted.parent_ts, added=False)
        await scene.settle()

        assert [row.signal for row in scene.verdicts()] == ["up"]
        assert [row.signal for row in scene.current()] == ["up"]


async def test_the_current_act_is_each_graders_latest_standing_one(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        ana = scene.add_grader("U0ANA", "ana@example.test")
        bo = scene.add_grader("U0BO", "bo@example.test")

        await _step(scene, "U0ANA", "+1", posted)
        await _step(scene, "U0BO", "-1", posted)
        await _step(scene, "U0ANA", "-1", posted)
        assert _current_by_grader(scene) == {ana.id: "down", bo.id: "down"}

        await _step(scene, "U0ANA", "-1", posted, added=False)
        assert _current_by_grader(scene) == {ana.id: "up", bo.id: "down"}
        retraction = scene.verdicts()[-1]
        ana_down = next(v for v in scene.verdicts() if v.grader_user_id == ana.id and v.signal == "down")
        assert (retraction.signal, retraction.retracts_id) == ("retraction", ana_down.id)

        await _step(scene, "U0ANA", "+1", posted, added=False)
        assert _current_by_grader(scene) == {bo.id: "down"}
        # Append-only: every act is still there, nothing was updated in place.
        assert [v.signal for v in scene.verdicts()] == ["up", "down", "down", "retraction", "retraction"]


async def _step(scene: Scene, user: str, emoji: str, posted: Posted, *, added: bool = True) -> None:
    await scene.react(user, emoji, posted.parent_ts, added=added)
    await scene.settle()


def _current_by_grader(scene: Scene) -> dict[int | None, str]:
    return {v.grader_user_id: v.signal for v in scene.current()}
