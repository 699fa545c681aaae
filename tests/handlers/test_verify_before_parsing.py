"""`/slack/events` checks the signature over the raw bytes before anything parses the body.

Reproductions from the hardening report: unsigned bodies such as `[1,2]`, `"x"` or invalid bytes, and
a non-numeric `X-Slack-Request-Timestamp`, used to be parsed by Bolt first and answered 500 with a
traceback (8 requests, 174 log lines). Signed payloads of shapes Smith does not know used to be
answered 500 and left inbox rows that could never be processed.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest
from sqlalchemy import Engine

from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, EVENTS, SECRET, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"


def _now() -> str:
    return str(int(time.time()))


# (body, headers, expected status): nothing here carries a valid signature.
UNSIGNED: list[tuple[bytes, dict[str, str], int]] = [
    (b"[1,2]", {"Content-Type": sr.JSON_TYPE}, 401),
    (b'"x"', {"Content-Type": sr.JSON_TYPE}, 401),
    (b"\xff\xfe\x00garbage", {"Content-Type": sr.JSON_TYPE}, 401),
    (b"payload=%7B", {"Content-Type": sr.FORM_TYPE}, 401),
    (b"[1,2]", {"X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0=00"}, 400),
    (b"{}", {"X-Slack-Request-Timestamp": "1e9", "X-Slack-Signature": "v0=00"}, 400),
    (b"{}", {"X-Slack-Request-Timestamp": "١٧٠٠٠٠٠٠٠٠", "X-Slack-Signature": "v0=00"}, 400),
    (b"{}", {"X-Slack-Request-Timestamp": "9" * 40, "X-Slack-Signature": "v0=00"}, 400),
    (b"[1,2]", {"X-Slack-Request-Timestamp": _now(), "X-Slack-Signature": "v0=00"}, 401),
    (b"[1,2]", {"X-Slack-Request-Timestamp": _now(), "X-Slack-Signature": "v0=é"}, 401),
    (b"[1,2]", {"X-Slack-Request-Timestamp": "1000000000", "X-Slack-Signature": "v0=00"}, 401),
]


@pytest.mark.parametrize(("body", "headers", "status"), UNSIGNED)
async def test_an_unsigned_or_malformed_request_is_refused_in_one_log_line(
    engine: Engine, caplog: pytest.LogCaptureFixture, body: bytes, headers: dict[str, str], status: int
) -> None:
    async with running_scene(engine) as scene:
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            response = await scene.client.post(EVENTS, data=body, headers=headers)
            await response.read()

        assert response.status == status
        # The test server's access log aside (`smith serve` runs without one), one line per request.
        lines = [r for r in caplog.records if r.levelno >= logging.INFO and r.name != "aiohttp.access"]
        assert len(lines) == 1, [record.getMessage() for record in lines]
        assert lines[0].exc_info is None and "refused" in lines[0].getMessage()
        assert scene.inbox() == []


async def test_a_body_signed_for_other_bytes_is_refused(engine: Engine) -> None:
    """The signature covers the exact bytes: the same JSON re-serialised is not the signed body."""
    async with running_scene(engine) as scene:
        body = sr.event_body(sr.reaction("U0ANA", "+1", CHANNEL, "1.1"))
        headers = sr.sign(SECRET, sr.json_bytes(body), sr.JSON_TYPE)
        response = await scene.client.post(EVENTS, data=sr.json_bytes(body) + b" ", headers=headers)
        assert response.status == 401
        assert scene.inbox() == []


def _event(event: Any, **envelope: Any) -> bytes:
    return sr.json_bytes({**sr.event_body({}), "event": event, **envelope})


# Signed by Slack, yet nothing Smith can act on: each is acked (200) and ignored.
SIGNED_ODD: list[tuple[str, bytes, str]] = [
    ("a JSON list", b"[1,2]", sr.JSON_TYPE),
    ("a JSON string", b'"x"', sr.JSON_TYPE),
    ("invalid UTF-8", b"\xff\xfe{}", sr.JSON_TYPE),
    ("broken JSON", b'{"type": "event_callback"', sr.JSON_TYPE),
    ("event is a string", _event("reaction_added"), sr.JSON_TYPE),
    ("event without a type", _event({"user": "U0ANA"}), sr.JSON_TYPE),
    ("event_id a number", _event(sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), event_id=7), sr.JSON_TYPE),
    (
        "event_id too long",
        _event(sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), event_id="E" * 300),
        sr.JSON_TYPE,
    ),
    (
        "event_id with NUL",
        _event(sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), event_id="Ev\x001"),
        sr.JSON_TYPE,
    ),
    (
        "authorizations a string",
        _event(sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), authorizations="x"),
        sr.JSON_TYPE,
    ),
    ("team a list", _event(sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), team=[1]), sr.JSON_TYPE),
    ("item not an object", _event({**sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), "item": "x"}), sr.JSON_TYPE),
    (
        "user an object",
        _event({**sr.reaction("U0ANA", "+1", CHANNEL, "1.1"), "user": {"id": 1}}),
        sr.JSON_TYPE,
    ),
    ("reaction a number", _event({**sr.reaction("U0ANA", 5, CHANNEL, "1.1")}), sr.JSON_TYPE),  # type: ignore[arg-type]
    (
        "message blocks odd",
        _event({**sr.message("U0ANA", CHANNEL, "2.2", "", thread_ts="1.1"), "blocks": [1, "x"]}),
        sr.JSON_TYPE,
    ),
    (
        "message edit odd",
        _event({"type": "message", "subtype": "message_changed", "message": [], "previous_message": 3}),
        sr.JSON_TYPE,
    ),
    (
        "deleted odd",
        _event(
            {
                "type": "message",
                "subtype": "message_deleted",
                "previous_message": {"user": ["U"], "thread_ts": 1},
            }
        ),
        sr.JSON_TYPE,
    ),
    (
        "subtype a list",
        _event({**sr.message("U0ANA", CHANNEL, "2.2", "x", thread_ts="1.1"), "subtype": ["x"]}),
        sr.JSON_TYPE,
    ),
    ("form without payload", b"a=1&b=2", sr.FORM_TYPE),
    ("payload not JSON", b"payload=%7Bnope", sr.FORM_TYPE),
    ("payload a list", sr.interaction_form([1, 2]), sr.FORM_TYPE),  # type: ignore[arg-type]
    (
        "actions a string",
        sr.interaction_form({"type": "block_actions", "actions": "x", "user": {"id": "U0ANA"}}),
        sr.FORM_TYPE,
    ),
    (
        "button value odd",
        sr.interaction_form(
            {
                "type": "block_actions",
                "trigger_id": "t",
                "user": {"id": "U0ANA"},
                "actions": [{"action_id": "smith_correct_grade", "value": '{"c": [1]}'}],
            }
        ),
        sr.FORM_TYPE,
    ),
    (
        "button without trigger",
        sr.interaction_form(
            {
                "type": "block_actions",
                "user": {"id": "U0ANA"},
                "actions": [{"action_id": "smith_correct_grade", "value": '{"c": "x"}'}],
            }
        ),
        sr.FORM_TYPE,
    ),
    (
        "view without id",
        sr.interaction_form(
            {"type": "view_submission", "user": {"id": "U0ANA"}, "view": {"callback_id": "smith_correction"}}
        ),
        sr.FORM_TYPE,
    ),
    (
        "view metadata odd",
        sr.interaction_form(
            {
                "type": "view_submission",
                "user": {"id": "U0ANA"},
                "view": {
                    "id": "V1",
                    "callback_id": "smith_correction",
                    "private_metadata": '{"c": {"x": 1}}',
                },
            }
        ),
        sr.FORM_TYPE,
    ),
    (
        "view metadata not JSON",
        sr.interaction_form(
            {
                "type": "view_submission",
                "user": {"id": "U0ANA"},
                "view": {"id": "V2", "callback_id": "smith_correction", "private_metadata": "{"},
            }
        ),
        sr.FORM_TYPE,
    ),
    ("command text a list", b"command=%2Fsmith&text=stats&text=x&user_id=U0ANA", sr.FORM_TYPE),
]


async def _post_signed(scene: Scene, body: bytes, content_type: str) -> int:
    response = await scene.client.post(EVENTS, data=body, headers=sr.sign(SECRET, body, content_type))
    await response.read()
    return response.status


@pytest.mark.parametrize(("what", "body", "content_type"), SIGNED_ODD, ids=[case[0] for case in SIGNED_ODD])
async def test_a_signed_payload_smith_cannot_read_is_acked_and_ignored(
    engine: Engine, what: str, body: bytes, content_type: str
) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")

        assert await _post_signed(scene, body, content_type) == 200, what
        await scene.settle()
        # Recorded rows (if any) were processed as ignored: nothing waits to fail again and again.
        assert all(row.outcome and row.outcome.startswith("ignored") for row in scene.inbox())
        assert scene.verdicts() == []

        # ...and the endpoint goes on serving real events.
        await scene.react("U0ANA", "+1", posted.parent_ts)
        await scene.settle()
        assert [v.signal for v in scene.verdicts()] == ["up"]


async def test_text_postgresql_cannot_store_is_still_processed(engine: Engine) -> None:
    """NUL characters and lone surrogates are valid JSON escapes but not PostgreSQL text."""
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        stored = scene.fake.add_message(CHANNEL, "x", user="U0ANA", thread_ts=posted.parent_ts)
        event = sr.message(
            "U0ANA", CHANNEL, stored.ts, "Should be PASS \x00 fine \ud800", thread_ts=posted.parent_ts
        )
        event["odd\x00key"] = "\x00"
        body = json.dumps(sr.event_body(event)).encode()  # ASCII escapes, as Slack sends them

        assert await _post_signed(scene, body, sr.JSON_TYPE) == 200
        await scene.settle()
        assert [
            row.outcome
            for row in scene.inbox()
            if not (row.outcome or "").startswith(("recorded", "ignored"))
        ] == []
