"""Whatever arrives at `POST /slack/events`, the answer is never a 5xx and nothing is left in the inbox
that can never be processed.

Unsigned requests (random bytes, random JSON, random header values) are refused 400/401. Signed ones
— random bytes, random JSON, and real event, action, view and command payloads with one part replaced
by arbitrary JSON or removed — are acked; every inbox row they leave is processed (an act, or
"ignored"), none fails or is parked.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from tests.gradecore.strategies import json_values
from tests.profiles import examples
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, EVENTS, SECRET, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"
GRADER = "U0ANA"


@pytest.fixture
async def scene(engine: Engine) -> AsyncIterator[Scene]:
    async with running_scene(engine) as running:
        running.posted = await running.seed(LAMPLITER)  # type: ignore[attr-defined]
        running.add_grader(GRADER, "ana@example.test")
        yield running


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _real_payloads(parent_ts: str) -> list[tuple[str, dict[str, Any]]]:
    """One of each shape Smith listens to, aimed at a real Smith post (so a valid one does work)."""
    button = json.dumps({"c": "lampliter-2291", "t": None, "g": None})
    return [
        ("event", sr.event_body(sr.reaction(GRADER, "+1", CHANNEL, parent_ts))),
        ("event", sr.event_body(sr.reaction(GRADER, "-1", CHANNEL, parent_ts, added=False))),
        ("event", sr.event_body(sr.message(GRADER, CHANNEL, "9.1", "Should be PASS", thread_ts=parent_ts))),
        (
            "event",
            sr.event_body(
                sr.message_changed(
                    GRADER, CHANNEL, "9.2", parent_ts, "old", "Should be HOLD", edited_ts="9.3"
                )
            ),
        ),
        ("event", sr.event_body(sr.message_deleted(GRADER, CHANNEL, "9.4", parent_ts, "gone"))),
        ("form", sr.button_click(GRADER, CHANNEL, parent_ts, button, response_url="http://127.0.0.1:9/r")),
        (
            "form",
            sr.view_submission(
                GRADER,
                {"type": "modal", "callback_id": "smith_correction", "private_metadata": "{}"},
                view_id="V0FUZZ",
                level="pass",
                reason="fine",
            ),
        ),
    ]


@st.composite
def signed_bodies(draw: st.DrawFn, parent_ts: str) -> tuple[bytes, str]:
    choice = draw(st.sampled_from(["bytes", "json", "form", "mutated", "mutated"]))
    if choice == "bytes":
        return draw(st.binary(max_size=256)), draw(st.sampled_from([sr.JSON_TYPE, sr.FORM_TYPE]))
    if choice == "json":
        return json.dumps(draw(json_values)).encode(), sr.JSON_TYPE
    if choice == "form":
        fields = draw(st.dictionaries(st.sampled_from(["payload", "command", "text", "user_id"]), st.text()))
        return urlencode(fields).encode(), sr.FORM_TYPE
    kind, payload = draw(st.sampled_from(_real_payloads(parent_ts)))
    if kind == "event":
        payload["event_id"] = sr.new_event_id()  # each example a new event, not a retry of the last
    path = draw(st.sampled_from(_paths(payload)))
    parent = payload
    for part in path[:-1]:
        parent = parent[part]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(json_values | st.text())
    if kind == "event":
        return json.dumps(payload).encode(), sr.JSON_TYPE
    return sr.interaction_form(payload), sr.FORM_TYPE


unsigned_headers = st.fixed_dictionaries(
    {},
    optional={
        "Content-Type": st.sampled_from([sr.JSON_TYPE, sr.FORM_TYPE, "text/plain"]),
        "X-Slack-Request-Timestamp": st.text(
            st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=20
        ),
        "X-Slack-Signature": st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=80),
    },
)
unsigned_bodies = st.binary(max_size=256) | json_values.map(lambda value: json.dumps(value).encode())


# One app serves every example (it must keep serving), hence the health check.
@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=unsigned_bodies, headers=unsigned_headers)
async def test_unsigned_requests_are_refused_never_a_5xx(
    scene: Scene, body: bytes, headers: dict[str, str]
) -> None:
    response = await scene.client.post(EVENTS, data=body, headers=headers)
    await response.read()
    assert response.status in (400, 401)
    assert scene.inbox() == []


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_signed_odd_payloads_are_acked_and_leave_nothing_unprocessable(
    scene: Scene, data: st.DataObject
) -> None:
    body, content_type = data.draw(signed_bodies(scene.posted.parent_ts))  # type: ignore[attr-defined]
    response = await scene.client.post(EVENTS, data=body, headers=sr.sign(SECRET, body, content_type))
    await response.read()
    assert response.status < 500, body

    await scene.settle()
    failed = [(row.event_id, row.outcome) for row in scene.inbox() if not _done(row.outcome)]
    assert failed == [], body


def _done(outcome: str | None) -> bool:
    return outcome is not None and not outcome.startswith("error")
