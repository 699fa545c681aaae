"""Issue 13, point 4 (second half) and point 6 for ephemerals: a written correction or a modal
submission is confirmed to its author, ephemerally, with what was recorded, in the property's language."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, Scene, running_scene, wait_until

LAMPLITER = "lampliter-unbacked-promise.json"


def _shown(call: dict[str, Any]) -> str:
    return f"{call['text']}\n{call.get('blocks')}"


async def test_a_written_correction_is_confirmed_with_level_reason_and_tags(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        await scene.reply(
            "U0ANA", posted.parent_ts, "Should be REPAIR — the instructions exist, just late #arrival-info"
        )
        await scene.settle()
        await scene.drain()

        (call,) = scene.fake.calls_to("chat.postEphemeral")
        assert (call["user"], call["channel"], call["thread_ts"]) == ("U0ANA", CHANNEL, posted.parent_ts)
        shown = _shown(call)
        assert "Thanks — your correction counts" in shown
        assert "Recorded: Should be REPAIR — a detail to fix." in shown
        assert "Why: the instructions exist, just late" in shown
        assert "Principles: #arrival-info" in shown

        await scene.drain()  # delivered once
        assert len(scene.fake.calls_to("chat.postEphemeral")) == 1


async def _open_modal(scene: Scene, user: str, ts: str) -> dict[str, Any]:
    blocks = scene.fake.message(CHANNEL, ts).blocks or []
    value = next(
        str(element["value"])
        for block in blocks
        for element in block.get("elements", [])
        if element.get("action_id") == "smith_correct_grade"
    )
    before = len(scene.fake.views)
    await scene.interact(sr.button_click(user, CHANNEL, ts, value, response_url=scene.fake.response_url("a")))
    await wait_until(lambda: len(scene.fake.views) > before, what="views.open")
    opened = scene.fake.views[-1]
    return {**opened.view, "id": opened.view_id}


async def test_a_modal_submission_is_confirmed(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.turn_ts["t1"])
        submitted = sr.view_submission(
            "U0ANA",
            view,
            view_id=view["id"],
            level="pass",
            new_principle="Arrival Section Exists",
            reason="The welcome email has the lockbox instructions.",
        )
        assert (await scene.interact(submitted)).status == 200
        await scene.settle()
        await scene.drain()

        (call,) = scene.fake.calls_to("chat.postEphemeral")
        assert (call["user"], call["channel"]) == ("U0ANA", CHANNEL)
        shown = _shown(call)
        assert "Recorded: Should be PASS — nothing to do." in shown
        assert "Why: The welcome email has the lockbox instructions." in shown
        assert "Principles: #arrival-section-exists" in shown


async def test_ephemerals_speak_the_properties_language(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        with scene.store.unit() as unit:
            unit.properties.set("lampliter", locale="es")
        scene.add_grader("U0ANA", "ana@example.test")
        scene.add_slack_user("U0NEW", "new@example.test")  # no staff user: not linked
        await scene.reply("U0ANA", posted.parent_ts, "Debería ser PASS — está bien")
        await scene.reply("U0ANA", posted.parent_ts, "mmm, no sé")
        await scene.react("U0NEW", "+1", posted.parent_ts)
        await scene.settle()
        await scene.drain()

        shown = {call["user"]: [] for call in scene.fake.calls_to("chat.postEphemeral")}
        for call in scene.fake.calls_to("chat.postEphemeral"):
            shown[call["user"]].append(_shown(call))
        ana = "\n".join(shown["U0ANA"])
        assert "Gracias — tu corrección cuenta" in ana
        assert "Registrado: Debería ser PASS — nada que hacer." in ana
        assert "Gracias — guardado como nota" in ana
        assert "Tu cuenta de Slack aún no está vinculada a Smith" in "\n".join(shown["U0NEW"])
