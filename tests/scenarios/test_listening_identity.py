"""Who acted: a Slack account mapped to a staff User, or no verdict at all (docs/slack-endpoint.md:
provenance is
never weakened). An unknown person's act waits as pending, they are told once, and linking them later
attributes it with the machine grade frozen as it was when they acted."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from sqlalchemy import Engine

from gradecore.model.contract import parse_conversation
from gradecore.persistence.entities import MachineGrade
from smith.listening.linking import link_identity
from tests.conftest import load_demo
from tests.scenarios.listening import CHANNEL, Posted, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"


async def _act_then_regrade(scene: Scene) -> tuple[Posted, MachineGrade]:
    """An unknown person reacts 👎 and replies; then the conversation is regraded (now passing)."""
    posted = await scene.seed(LAMPLITER)
    scene.add_slack_user("U0NEW", "Newbie@Example.test")
    await scene.react("U0NEW", "-1::skin-tone-2", posted.parent_ts)
    await scene.reply("U0NEW", posted.parent_ts, "Should be PASS — the instructions are on file")
    await scene.settle()

    document = json.loads(load_demo(LAMPLITER))
    document["property"]["facts"]["arrival_instructions"] = "Lockbox by the leasing office door."
    scene.smith.ingestor.ingest(parse_conversation(json.dumps(document).encode()))
    with scene.store.unit() as unit:
        regraded = unit.grades.latest("conversation", posted.conversation_id)
    assert regraded is not None and regraded.id != posted.parent_grade.id
    assert (posted.parent_grade.level, regraded.level) == ("block", "pass")
    return posted, regraded


def _assert_attributed_as_it_was(scene: Scene, posted: Posted) -> None:
    rows = sorted(scene.verdicts(), key=lambda v: v.signal)
    assert [v.signal for v in rows] == ["correction", "down"]
    correction, down = rows
    with scene.store.unit() as unit:
        newbie = unit.users.require_by_email("newbie@example.test")
    assert {v.grader_user_id for v in rows} == {newbie.id}
    # The grade each act was about, as the person saw it — not the regraded one.
    assert down.machine_grade_at_time["id"] == posted.parent_grade.id
    assert down.machine_grade_at_time["level"] == "block"
    assert (down.error_class, down.origin) == ("grader", "slack_reaction")
    turn = posted.turn_grades["t1"]
    assert correction.machine_grade_at_time["id"] == turn.id
    assert (correction.expected_level, correction.error_class) == ("pass", "grader")
    assert all(p.resolved_at is not None and p.verdict_id is not None for p in scene.pending())


async def test_an_unknown_slack_user_gets_no_verdict_one_ephemeral_and_a_pending_act(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_slack_user("U0NEW", "newbie@example.test")  # no staff User has this e-mail
        scene.add_slack_user("U0NOMAIL", None)  # a profile without an e-mail
        await scene.react("U0NEW", "+1", posted.parent_ts)
        await scene.react("U0NEW", "-1", posted.turn_ts["t1"])
        await scene.reply("U0NEW", posted.parent_ts, "Should be HOLD")
        await scene.react("U0NOMAIL", "+1", posted.parent_ts)
        await scene.settle()
        await scene.drain()

        assert scene.verdicts() == []
        pending = scene.pending()
        assert sorted(p.slack_user_id for p in pending) == ["U0NEW", "U0NEW", "U0NEW", "U0NOMAIL"]
        assert all(p.resolved_at is None for p in pending)
        sent = scene.fake.calls_to("chat.postEphemeral")
        assert sorted(call["user"] for call in sent) == ["U0NEW", "U0NOMAIL"]  # once each, not per act
        assert all(call["channel"] == CHANNEL and "not linked" in call["text"] for call in sent)


async def test_linking_attributes_pending_acts_with_the_grade_as_it_was(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted, _ = await _act_then_regrade(scene)
        assert scene.verdicts() == []
        with scene.store.unit() as unit:
            unit.users.add("newbie@example.test", "New Person")

        result = link_identity(scene.store, "U0NEW", "NEWBIE@example.test")
        assert result.attributed == 2
        _assert_attributed_as_it_was(scene, posted)

        # Linking again attributes nothing twice; later acts count straight away.
        assert link_identity(scene.store, "U0NEW", "newbie@example.test").attributed == 0
        await scene.react("U0NEW", "+1", posted.turn_ts["t1"])
        await scene.settle()
        assert len(scene.verdicts()) == 3


async def test_smith_users_link_on_the_command_line_attributes_pending_acts(
    engine: Engine, tmp_path: Path
) -> None:
    async with running_scene(engine) as scene:
        posted, _ = await _act_then_regrade(scene)
        with scene.store.unit() as unit:
            unit.users.add("newbie@example.test", "New Person")

        code, stdout, stderr = await scene.run_smith(
            "users", "link", "U0NEW", "newbie@example.test", cwd=tmp_path
        )
        assert code == 0, stderr
        assert "linked U0NEW to newbie@example.test · 2 pending act(s) attributed" in stdout
        _assert_attributed_as_it_was(scene, posted)


async def test_a_slack_email_matching_a_user_links_automatically_ignoring_case(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        ana = scene.add_grader("U0ANA", "ana.lopez@example.test", slack_email="Ana.Lopez@EXAMPLE.test")
        # Two first acts at once: both look the person up and link them; neither may fail.
        await asyncio.gather(
            scene.react("U0ANA", "+1", posted.parent_ts), scene.react("U0ANA", "-1", posted.turn_ts["t1"])
        )
        await scene.settle()
        assert scene.unprocessed() == []
        assert sorted(v.signal for v in scene.verdicts()) == ["down", "up"]

        looked_up = len(scene.fake.calls_to("users.info"))
        await scene.reply("U0ANA", posted.parent_ts, "Should be HOLD")
        await scene.settle()
        assert {v.grader_user_id for v in scene.verdicts()} == {ana.id}
        with scene.store.unit() as unit:
            linked = unit.identities.user_for("U0ANA")
        assert linked is not None and linked.id == ana.id
        assert len(scene.fake.calls_to("users.info")) == looked_up  # later acts use the stored link


async def test_an_inactive_user_cannot_grade(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0GONE", "gone@example.test")
        with scene.store.unit() as unit:
            unit.users.set_active("gone@example.test", False)
        await scene.react("U0GONE", "+1", posted.parent_ts)
        await scene.settle()

        assert scene.verdicts() == []
        assert [row.outcome for row in scene.inbox()] == ["ignored: inactive user"]
