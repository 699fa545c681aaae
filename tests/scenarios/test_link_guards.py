"""Issue 22, point 6: `/smith link` says when it replaces a link, refuses an inactive user, and needs
`--force` to link onto an admin; `smith users link` alike."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine

from blocks import texts
from tests.scenarios.listening import Scene, running_scene, wait_until


async def _answer(scene: Scene, user: str, text: str) -> str:
    before = len(scene.fake.responses)
    assert (await scene.command(user, text, key=f"k{before}")).status == 200
    await wait_until(lambda: len(scene.fake.responses) > before, what="the command's answer")
    return str(scene.fake.responses[-1].body["text"])


def _linked_to(scene: Scene, slack_user_id: str) -> str | None:
    with scene.store.unit() as unit:
        user = unit.identities.user_for(slack_user_id)
        return None if user is None else user.email


async def test_link_guards_in_slack(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        scene.add_grader("U0BOSS", "boss@example.test", role="admin")
        scene.add_slack_user("U0NEW", "personal@mail.test")
        with scene.store.unit() as unit:
            unit.users.add("first@example.test", "First")
            unit.users.add("second@example.test", "Second")
            unit.users.add("other-admin@example.test", "Other Admin", "admin")
            unit.users.add("gone@example.test", "Gone", active=False)

        first = await _answer(scene, "U0BOSS", "link <@U0NEW> first@example.test")
        assert first.startswith("Linked <@U0NEW> to first@example.test.") and "replace" not in first

        moved = await _answer(scene, "U0BOSS", "link <@U0NEW> second@example.test")
        assert moved.endswith(texts.link_replaced("first@example.test"))
        assert _linked_to(scene, "U0NEW") == "second@example.test"

        assert await _answer(scene, "U0BOSS", "link <@U0NEW> gone@example.test") == texts.link_inactive(
            "gone@example.test"
        )
        onto_admin = await _answer(scene, "U0BOSS", "link <@U0NEW> other-admin@example.test")
        assert onto_admin == texts.link_admin_needs_force("other-admin@example.test")
        assert _linked_to(scene, "U0NEW") == "second@example.test"  # neither moved it

        forced = await _answer(scene, "U0BOSS", "link --force <@U0NEW> other-admin@example.test")
        assert forced.startswith("Linked <@U0NEW> to other-admin@example.test.")
        assert _linked_to(scene, "U0NEW") == "other-admin@example.test"


async def test_link_guards_on_the_command_line(engine: Engine, tmp_path: Path) -> None:
    async with running_scene(engine) as scene:
        with scene.store.unit() as unit:
            unit.users.add("first@example.test", "First")
            unit.users.add("boss@example.test", "Boss", "admin")
        assert (await scene.run_smith("users", "link", "U0NEW", "first@example.test", cwd=tmp_path))[0] == 0
        code, out, err = await scene.run_smith("users", "link", "U0NEW", "boss@example.test", cwd=tmp_path)
        assert code != 0 and "Traceback" not in err and "--force" in err
        code, out, err = await scene.run_smith(
            "users", "link", "--force", "U0NEW", "boss@example.test", cwd=tmp_path
        )
        assert code == 0 and "replaced its link to first@example.test" in out
