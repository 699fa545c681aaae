"""Issue 13, point 5: `app_home_opened` publishes the person's Home tab (`views.publish`), through
signed events and the fake Slack: what waits for a review (newest first, with permalinks), their own
acts this week with their agreement, and, for admins only, unlinked Slack users with pending acts."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest
from sqlalchemy import Engine

from tests.scenarios.listening import CHANNEL, Scene, running_scene, wait_until

LAMPLITER = "lampliter-unbacked-promise.json"
CAMELLIA = "camellia-wrong-language.json"
BIRCHWOOD = "birchwood-rent-mismatch.json"


async def open_home(scene: Scene, user: str) -> dict[str, Any]:
    event = {"type": "app_home_opened", "user": user, "channel": "D0HOME", "tab": "home"}
    event["event_ts"] = f"{time.time():.6f}"
    before = scene.fake.home_view(user)
    response = await scene.post_event(event)
    assert response.status == 200
    await wait_until(lambda: scene.fake.home_view(user) is not before, what="views.publish")
    view = scene.fake.home_view(user)
    assert view is not None and view["type"] == "home"
    return view


def shown(view: dict[str, Any]) -> str:
    return json.dumps(view["blocks"], ensure_ascii=False)


async def arrange(scene: Scene) -> dict[str, str]:
    """Three flagged conversations; Ana reviews Lampliter's (👍 and a correction), an unlinked person
    reacts to Birchwood's."""
    parents = {}
    for name in (LAMPLITER, CAMELLIA, BIRCHWOOD):
        parents[name] = (await scene.seed(name)).parent_ts
    scene.add_grader("U0ANA", "ana@example.test")
    scene.add_grader("U0ADA", "ada@example.test", role="admin")
    scene.add_slack_user("U0NEW", "new@example.test")  # no staff user with that e-mail
    await scene.react("U0ANA", "+1", parents[LAMPLITER])
    await scene.reply("U0ANA", parents[CAMELLIA], "Should be PASS — Spanish was fine here #language")
    await scene.react("U0NEW", "+1", parents[BIRCHWOOD])
    await scene.settle()
    return parents


async def test_the_home_tab_of_a_staff_member(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        parents = await arrange(scene)
        view = await open_home(scene, "U0ANA")
        text = shown(view)

        # Only Birchwood's post waits (the unlinked 👍 does not count as a review yet), with its link.
        assert "1 post waits for a review (newest first)" in text
        permalink = f"https://slack.com/archives/{CHANNEL}/p{parents[BIRCHWOOD].replace('.', '')}"
        assert f"<{permalink}|REPAIR · amount mismatch — Birchwood · " in text
        assert "unbacked promise" not in text and "wrong language" not in text
        # Her week: a 👍 (agrees, by definition) and a correction to PASS (Smith said HOLD).
        assert "This week you reviewed 2 posts · you agreed with Smith on 1 of 2 (50%)." in text
        assert "not linked" not in text and "U0NEW" not in text  # admins only


async def test_the_home_tab_of_an_admin_lists_unlinked_people(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        await arrange(scene)
        text = shown(await open_home(scene, "U0ADA"))
        assert "Slack accounts not linked, with acts waiting (admins)" in text
        assert "<@U0NEW> — 1 act waits — link with `/smith link @person their-email`" in text
        assert "You have not reviewed anything this week." in text


async def test_waiting_posts_are_listed_newest_first(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        for name in (LAMPLITER, CAMELLIA, BIRCHWOOD):
            await scene.seed(name)
        scene.add_grader("U0ANA", "ana@example.test")
        text = shown(await open_home(scene, "U0ANA"))
        assert "3 posts wait for a review" in text
        order = [text.index(h) for h in ("amount mismatch", "wrong language", "unbacked promise")]
        assert order == sorted(order)


async def test_someone_not_linked_is_told_so(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        await scene.seed(LAMPLITER)
        scene.add_slack_user("U0NEW", "new@example.test")
        text = shown(await open_home(scene, "U0NEW"))
        assert "Your Slack account is not linked to Smith yet" in text
        assert "unbacked promise" not in text


async def test_a_publish_failing_behind_a_proxy_is_logged_by_its_status(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue 24: an HTML 502 (no Slack error string) was logged as "views.publish failed: None".
    async with running_scene(engine) as scene:
        scene.fake.fail_next("views.publish", "html_502")
        event = {"type": "app_home_opened", "user": "U0ANA", "channel": "D0HOME", "tab": "home"}
        event["event_ts"] = f"{time.time():.6f}"
        with caplog.at_level(logging.WARNING, logger="handlers.home"):
            assert (await scene.post_event(event)).status == 200
            await wait_until(lambda: bool(scene.fake.faults_served), what="the failed views.publish")
            await wait_until(lambda: "views.publish failed" in caplog.text, what="the warning")
        assert "views.publish failed (TransientFailure): slack answered 502" in caplog.text
        assert "None" not in caplog.text


# Issue 23: the Home tab speaks its viewer's Slack locale (users.info, cached), falling back to English.


async def test_the_home_tab_speaks_the_viewers_slack_locale_and_asks_slack_once(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        for name in (LAMPLITER, CAMELLIA):  # an English property and a Spanish one
            await scene.seed(name)
        with scene.store.unit() as unit:
            unit.users.add("lucia@example.test", "Lucía", "staff")
        scene.add_slack_user("U0LUCIA", "lucia@example.test", locale="es-MX")
        scene.add_grader("U0ANA", "ana@example.test")

        spanish = shown(await open_home(scene, "U0LUCIA"))
        assert "2 publicaciones esperan revisión (las más recientes primero)" in spanish
        assert "posts wait" not in spanish
        assert "2 posts wait for a review" in shown(await open_home(scene, "U0ANA"))

        await open_home(scene, "U0LUCIA")
        asked = [
            c
            for c in scene.fake.calls_to("users.info")
            if c.get("user") == "U0LUCIA" and c.get("include_locale")
        ]
        assert len(asked) == 1  # the second opening used the cached answer


async def test_without_an_answer_from_slack_the_home_tab_is_english(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        await scene.seed(CAMELLIA)  # a Spanish property: the tab still follows the viewer, not it
        scene.add_grader("U0ANA", "ana@example.test")
        scene.fake.fail_next("users.info", "fatal_error", times=1)  # the locale look-up
        text = shown(await open_home(scene, "U0ANA"))
        assert "1 post waits for a review" in text
