"""The "Correct grade" button and its modal, through signed interactivity requests
(docs/slack-endpoint.md)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Engine

from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, Scene, running_scene, wait_until

LAMPLITER = "lampliter-unbacked-promise.json"


def _button_value(scene: Scene, ts: str) -> str:
    """The value of the button on the message Smith posted, as Slack would send it back."""
    blocks = scene.fake.message(CHANNEL, ts).blocks or []
    for block in blocks:
        for element in block.get("elements", []):
            if element.get("action_id") == "smith_correct_grade":
                return str(element["value"])
    raise AssertionError("the post has no Correct grade button")


async def _open_modal(scene: Scene, user: str, ts: str) -> dict[str, Any]:
    before = len(scene.fake.views)
    click = sr.button_click(
        user, CHANNEL, ts, _button_value(scene, ts), response_url=scene.fake.response_url("a")
    )
    response = await scene.interact(click)
    assert response.status == 200
    await wait_until(lambda: len(scene.fake.views) > before, what="views.open")
    opened = scene.fake.views[-1]
    assert opened.trigger_id == click["trigger_id"]
    return {**opened.view, "id": opened.view_id}


async def test_the_button_opens_a_modal_with_the_level_select(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.turn_ts["t1"])

        assert (view["type"], view["callback_id"]) == ("modal", "smith_correction")
        by_id = {block.get("block_id"): block for block in view["blocks"]}
        level = by_id["level"]
        assert level["type"] == "input" and level["element"]["type"] == "static_select"
        assert [o["value"] for o in level["element"]["options"]] == ["pass", "repair", "hold", "block"]
        assert {"new_principle", "reason"} <= set(by_id)
        meta = json.loads(view["private_metadata"])
        assert (meta["c"], meta["t"], meta["g"]) == (
            posted.conversation_id,
            "t1",
            posted.turn_grades["t1"].id,
        )
        assert "BLOCK" in json.dumps(view["blocks"])  # what Smith said, shown in the modal


async def test_a_disagreement_without_a_principle_is_refused_in_the_modal(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.parent_ts)

        submitted = sr.view_submission("U0ANA", view, view_id=view["id"], level="pass", reason="it is fine")
        response = await scene.interact(submitted)
        assert response.status == 200
        body = await response.json()
        assert body["response_action"] == "errors"
        assert set(body["errors"]) == {"new_principle"}

        missing_level = sr.view_submission("U0ANA", view, view_id=view["id"], level=None)
        body = await (await scene.interact(missing_level)).json()
        assert "level" in body["errors"]

        await scene.settle()
        assert scene.inbox() == [] and scene.verdicts() == []


async def test_a_valid_submission_is_a_correction_and_mints_the_new_principle(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        ana = scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.turn_ts["t1"])

        submitted = sr.view_submission(
            "U0ANA",
            view,
            view_id=view["id"],
            level="pass",
            new_principle="Arrival Section Exists",
            reason="The welcome email has the lockbox instructions.",
        )
        response = await scene.interact(submitted)
        assert response.status == 200
        assert (await response.read()) in (b"", b"{}")  # a plain ack closes the modal
        await scene.settle()
        # Slack resending the same submission records nothing more.
        await scene.interact(submitted)
        await scene.settle()

        (row,) = scene.verdicts()
        turn = posted.turn_grades["t1"]
        assert (row.signal, row.origin, row.grader_user_id) == ("correction", "slack_modal", ana.id)
        assert (row.item_type, row.turn_id) == ("turn", "t1")
        assert (row.expected_level, row.error_class) == ("pass", "grader")
        assert row.principles == ["arrival-section-exists"]
        assert row.note == "The welcome email has the lockbox instructions."
        assert row.machine_grade_at_time["id"] == turn.id
        assert (row.slack_channel, row.slack_ts) == (CHANNEL, posted.turn_ts["t1"])
        with scene.store.unit() as unit:
            minted = unit.principles.get("arrival-section-exists")
        assert minted is not None and minted.status == "candidate"
        assert [row.event_id for row in scene.inbox()] == [f"view:{view['id']}"]


async def test_agreeing_in_the_modal_needs_no_principle(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.parent_ts)
        await scene.interact(
            sr.view_submission("U0ANA", view, view_id=view["id"], level="block", reason="right")
        )
        await scene.settle()

        (row,) = scene.verdicts()
        assert (row.item_type, row.expected_level, row.error_class) == ("conversation", "block", "clara")


async def test_the_button_reads_correct_this_grade_and_each_level_says_what_it_means(engine: Engine) -> None:
    # Issue 13, point 7: "[ Correct grade ]" read as "the grade is correct"; a bare HOLD was ambiguous.
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        buttons = [
            element["text"]["text"]
            for block in scene.fake.message(CHANNEL, posted.parent_ts).blocks or []
            for element in block.get("elements", [])
            if element.get("action_id") == "smith_correct_grade"
        ]
        assert buttons == ["Correct this grade"]
        view = await _open_modal(scene, "U0ANA", posted.parent_ts)
        level = next(block for block in view["blocks"] if block.get("block_id") == "level")
        assert [option["text"]["text"] for option in level["element"]["options"]] == [
            "PASS — nothing to do",
            "REPAIR — a detail to fix",
            "HOLD — someone should follow up",
            "BLOCK — this should never have gone out",
        ]


async def test_the_modal_speaks_the_properties_language(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        with scene.store.unit() as unit:
            unit.properties.set("lampliter", locale="es")
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.parent_ts)
        assert view["title"]["text"] == "Corregir calificación"
        level = next(block for block in view["blocks"] if block.get("block_id") == "level")
        assert level["label"]["text"] == "¿Cuál debería ser la calificación?"
        assert level["element"]["options"][2]["text"]["text"] == "HOLD — alguien debería hacer seguimiento"

        # Validation errors come back in Spanish too.
        submitted = sr.view_submission("U0ANA", view, view_id=view["id"], level="pass", reason="está bien")
        body = await (await scene.interact(submitted)).json()
        assert body["errors"]["new_principle"].startswith("No estás de acuerdo con Smith")
