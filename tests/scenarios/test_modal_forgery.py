"""Issue 22, point 4: a correction form is checked against the stored rows before anything is kept
(docs/verdicts.md): the grade belongs to the conversation and item, the property is the conversation's, the
post is Smith's post of that item. Anything else: no verdict, an ephemeral "this form is out of date",
a warning line in the log."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine

from blocks import texts
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import running_scene, wait_until
from tests.scenarios.test_listening_modal import _open_modal

LAMPLITER = "lampliter-unbacked-promise.json"
CAMELLIA = "camellia-wrong-language.json"

Forge = Callable[[dict[str, Any], dict[str, Any]], None]  # (metadata, the other conversation's) → edits


def _another_grade(meta: dict[str, Any], other: dict[str, Any]) -> None:
    meta["g"] = other["g"]  # another property's conversation's grade


def _another_property(meta: dict[str, Any], other: dict[str, Any]) -> None:
    meta["p"] = other["p"]


def _no_such_conversation(meta: dict[str, Any], other: dict[str, Any]) -> None:
    meta["c"] = "no-such-conversation"


def _another_post(meta: dict[str, Any], other: dict[str, Any]) -> None:
    meta["ts"] = other["ts"]  # a post of another conversation


def _the_turn_posts_grade_for_the_parent(meta: dict[str, Any], other: dict[str, Any]) -> None:
    meta["t"] = None  # the turn's grade, said to be the conversation's


@pytest.mark.parametrize(
    "forge",
    [
        _another_grade,
        _another_property,
        _no_such_conversation,
        _another_post,
        _the_turn_posts_grade_for_the_parent,
    ],
)
async def test_a_form_that_does_not_match_the_stored_rows_records_nothing(
    engine: Engine, forge: Forge, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        other = await scene.seed(CAMELLIA)
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.turn_ts["t1"])
        other_view = await _open_modal(scene, "U0ANA", other.parent_ts)
        meta = json.loads(view["private_metadata"])
        forge(meta, json.loads(other_view["private_metadata"]))
        forged = {**view, "private_metadata": json.dumps(meta)}

        before = len(scene.fake.ephemerals)
        with caplog.at_level(logging.WARNING, logger="smith.listening.modal"):
            response = await scene.interact(
                sr.view_submission("U0ANA", forged, view_id=view["id"], level="pass", reason="forged")
            )
            assert response.status == 200
            await wait_until(lambda: len(scene.fake.ephemerals) > before, what="the ephemeral")
        await scene.settle()

        assert scene.verdicts() == []
        assert scene.inbox() == []  # not even recorded
        assert scene.fake.ephemerals[-1].text == texts.form_out_of_date()
        assert any("out of date" in record.getMessage() for record in caplog.records)


async def test_the_unforged_form_still_records_its_correction(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        await scene.seed(CAMELLIA)
        scene.add_grader("U0ANA", "ana@example.test")
        view = await _open_modal(scene, "U0ANA", posted.turn_ts["t1"])
        await scene.interact(
            sr.view_submission("U0ANA", view, view_id=view["id"], level="block", reason="ok")
        )
        await scene.settle()
        (row,) = scene.verdicts()
        assert (row.conversation_id, row.turn_id, row.expected_level) == (
            posted.conversation_id,
            "t1",
            "block",
        )
