"""`/smith help | stats | link`, as signed slash commands; answers arrive at the response_url."""

from __future__ import annotations

from sqlalchemy import Engine

from blocks import texts
from tests.scenarios.listening import Scene, running_scene, wait_until


async def _answer(scene: Scene, user: str, text: str) -> str:
    before = len(scene.fake.responses)
    response = await scene.command(user, text)
    assert response.status == 200
    await wait_until(lambda: len(scene.fake.responses) > before, what="the command's answer")
    return str(scene.fake.responses[-1].body["text"])


async def test_help_and_an_empty_command_explain_the_commands(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        scene.add_grader("U0ANA", "ana@example.test")
        for text in ("help", "", "what?"):
            answer = await _answer(scene, "U0ANA", text)
            assert "/smith stats" in answer and "/smith link" in answer, text


async def test_stats_counts_this_channels_last_thirty_days(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        lampliter = await scene.seed("lampliter-unbacked-promise.json")
        await scene.seed("camellia-wrong-language.json")
        await scene.ingest("oakridge-clean-maintenance.json")  # passes: counted, never posted
        scene.add_grader("U0ANA", "ana@example.test")
        assert "0 of 2 reacted" in await _answer(scene, "U0ANA", "stats")

        await scene.react("U0ANA", "+1", lampliter.parent_ts)
        await scene.settle()
        answer = await _answer(scene, "U0ANA", "stats")
        assert answer == "Last 30 days: 3 graded · 2 flagged · 1 of 2 reacted (50%) · 100% agree with Smith"


async def test_an_admin_links_an_account_and_its_pending_acts_count(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed("lampliter-unbacked-promise.json")
        # Never acted before: known by the e-mail on their Slack profile, like any grader.
        scene.add_grader("U0BOSS", "boss@example.test", role="admin")
        scene.add_slack_user("U0NEW", "personal@mail.test")
        with scene.store.unit() as unit:
            newbie = unit.users.add("newbie@example.test", "New Person")
        await scene.react("U0NEW", "+1", posted.parent_ts)
        await scene.settle()
        assert scene.verdicts() == []

        answer = await _answer(
            scene, "U0BOSS", "link <@U0NEW|newbie> <mailto:newbie@example.test|newbie@example.test>"
        )
        assert answer.startswith("Linked <@U0NEW> to newbie@example.test.")
        assert "1 earlier" in answer
        assert [(v.signal, v.grader_user_id) for v in scene.verdicts()] == [("up", newbie.id)]

        assert "Could not link" in await _answer(scene, "U0BOSS", "link <@U0X> nobody@example.test")
        assert "Usage" in await _answer(scene, "U0BOSS", "link someone")


async def test_link_with_a_raw_id_or_name_answers_how_to_mention_the_person(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        scene.add_grader("U0BOSS", "boss@example.test", role="admin")
        scene.add_slack_user("U0NEW", None)
        with scene.store.unit() as unit:
            unit.users.add("newbie@example.test", "New Person")
        for text in ("link U0NEW123 newbie@example.test", "link @newbie newbie@example.test"):
            answer = await _answer(scene, "U0BOSS", text)
            assert answer == texts.link_needs_a_mention(), text
        with scene.store.unit() as unit:
            assert unit.identities.user_for("U0NEW") is None


async def test_a_non_admin_cannot_link(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed("lampliter-unbacked-promise.json")
        scene.add_grader("U0ANA", "ana@example.test", role="staff")
        scene.add_slack_user("U0NEW", None)
        with scene.store.unit() as unit:
            unit.users.add("newbie@example.test", "New Person")
        await scene.react("U0NEW", "+1", posted.parent_ts)
        await scene.settle()

        answer = await _answer(scene, "U0ANA", "link <@U0NEW> newbie@example.test")
        assert answer == "Only Smith admins can link accounts."
        with scene.store.unit() as unit:
            assert unit.identities.user_for("U0NEW") is None
        assert scene.verdicts() == []
        assert [p.resolved_at for p in scene.pending()] == [None]


async def test_link_during_a_slack_outage_says_so_instead_of_going_silent(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        scene.add_slack_user("U0BOSS", "boss@example.test")  # an admin Smith has not met yet
        with scene.store.unit() as unit:
            unit.users.add("boss@example.test", "The Boss", "admin")
        scene.fake.fail_next("users.info", "http_500", times=3)
        answer = await _answer(scene, "U0BOSS", "link <@U0NEW> newbie@example.test")
        assert "try again" in answer
