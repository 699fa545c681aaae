"""`POST /v1/conversations`, `/healthz` and `/readyz` on the real aiohttp app built by `app.py`."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine, func, text
from sqlmodel import Session, select

import app as wiring
from gradecore.model.contract import MAX_DOCUMENT_BYTES
from gradecore.persistence.db import upgrade
from gradecore.persistence.entities import ConversationRecord, MachineGrade
from tests.conftest import load_demo
from tests.smith.web.conftest import AUTH, INGEST_TOKEN, settings_for

Client = TestClient[web.Request, web.Application]
URL = "/v1/conversations"
LAMPLITER = load_demo("lampliter-unbacked-promise.json")


def count(engine: Engine, table: type[MachineGrade] | type[ConversationRecord]) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(table)).one())


async def test_a_conversation_is_graded_and_answered_with_its_summary(client: Client) -> None:
    response = await client.post(URL, data=LAMPLITER, headers=AUTH)

    assert response.status == 202
    body = await response.json()
    assert body["conversation_id"] == "c0a80101-lampliter-0001"
    assert body["outcome"] == "new"
    assert (body["level"], body["headline"]) == ("block", "BLOCK · unbacked promise")
    assert body["flagged"] is True and body["flagged_turns"] == ["t1"]
    assert body["posts_queued"] == 2 and body["parked"] is True  # lampliter has no channel yet


async def test_a_passing_conversation_is_graded_and_queues_nothing(client: Client) -> None:
    response = await client.post(URL, data=load_demo("oakridge-clean-maintenance.json"), headers=AUTH)

    body = await response.json()
    assert response.status == 202
    assert (body["level"], body["flagged"], body["flagged_turns"], body["posts_queued"]) == (
        "pass",
        False,
        [],
        0,
    )


async def test_a_bearer_token_is_required(client: Client, smith: wiring.Smith) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": INGEST_TOKEN},  # the token without the scheme
        {"Authorization": f"Bearer {INGEST_TOKEN}x"},
    ):
        response = await client.post(URL, data=LAMPLITER, headers=headers)
        assert response.status == 401, headers
        assert "bearer token" in (await response.json())["error"]
    assert count(smith.store.engine, ConversationRecord) == 0


async def test_without_a_configured_token_every_request_is_refused(engine: Engine, tmp_path: Path) -> None:
    smith = wiring.build(settings_for(engine, tmp_path, SMITH_INGEST_TOKEN=""))
    try:
        async with TestClient(TestServer(wiring.make_web_app(smith))) as client:
            response = await client.post(URL, data=LAMPLITER, headers={"Authorization": "Bearer "})
            assert response.status == 401
    finally:
        smith.store.engine.dispose()


async def test_a_broken_document_is_a_422_naming_the_paths(client: Client, smith: wiring.Smith) -> None:
    doc = json.loads(LAMPLITER)
    doc["surprise"] = True
    doc["turns"][0]["message_id"] = "m9"
    response = await client.post(URL, data=json.dumps(doc), headers=AUTH)

    assert response.status == 422
    errors = (await response.json())["errors"]
    assert [error["path"] for error in errors] == ["surprise"]  # the shape is checked before references
    single = json.loads(LAMPLITER)
    single["turns"][0]["message_id"] = "m9"
    response = await client.post(URL, data=json.dumps(single), headers=AUTH)
    assert response.status == 422
    assert (await response.json())["errors"] == [
        {"path": "turns.0.message_id", "message": "names no message: 'm9'"}
    ]
    assert count(smith.store.engine, ConversationRecord) == 0


async def test_a_document_over_2_mib_is_a_413(client: Client) -> None:
    just_over = b"{" + b" " * MAX_DOCUMENT_BYTES + b"}"
    far_over = b" " * (3 * MAX_DOCUMENT_BYTES)

    async def chunked() -> AsyncIterator[bytes]:  # no Content-Length: the limit must hold on the bytes read
        for _ in range(5):
            yield b" " * (MAX_DOCUMENT_BYTES // 4)

    for body in (just_over, far_over, chunked()):
        response = await client.post(URL, data=body, headers=AUTH)
        assert response.status == 413
        assert "2 MiB" in (await response.json())["error"]


async def test_resending_the_same_document_is_a_no_op(client: Client, smith: wiring.Smith) -> None:
    first = await client.post(URL, data=LAMPLITER, headers=AUTH)
    grades = count(smith.store.engine, MachineGrade)
    second = await client.post(URL, data=LAMPLITER, headers=AUTH)

    assert (first.status, second.status) == (202, 202)
    assert (await second.json()) == {"conversation_id": "c0a80101-lampliter-0001", "outcome": "unchanged"}
    assert grades > 0 and count(smith.store.engine, MachineGrade) == grades


async def test_healthz_answers_while_the_process_is_up(client: Client) -> None:
    response = await client.get("/healthz")
    assert response.status == 200 and (await response.json()) == {"status": "ok"}


async def test_readyz_needs_the_relay_to_have_ticked(client: Client, smith: wiring.Smith) -> None:
    before = await client.get("/readyz")
    assert before.status == 503
    assert set((await before.json())["problems"]) == {"relay"}

    assert smith.relay is not None
    await smith.relay.run_once()
    after = await client.get("/readyz")
    assert after.status == 200
    assert (await after.json()) == {
        "status": "ok",
        "problems": {},
        "inbox_parked": 0,
        "sweep_parked": 0,
        "properties_without_channel": [],
    }


async def test_readyz_lists_properties_without_a_channel(client: Client, smith: wiring.Smith) -> None:
    # Issue 23: such a property gets no posts and no tally; /readyz says so (reported, not fatal).
    with smith.store.unit() as unit:
        unit.properties.set("mapped", name="Mapped", timezone="UTC", locale="en", channel_id="C0MAPPED")
        unit.properties.set("unmapped", name="Unmapped", timezone="UTC", locale="en")
    assert smith.relay is not None
    await smith.relay.run_once()
    response = await client.get("/readyz")
    assert response.status == 200
    assert (await response.json())["properties_without_channel"] == ["unmapped"]


async def test_readyz_is_503_on_an_unmigrated_database(empty_engine: Engine, tmp_path: Path) -> None:
    # Smith starts only on a migrated database; the database then loses its schema version (restored
    # from an old backup, or rolled back): not ready, until it is migrated again.
    upgrade(empty_engine)
    smith = wiring.build(settings_for(empty_engine, tmp_path, SMITH_POST_MODE="off"))
    with empty_engine.begin() as connection:
        connection.execute(text("DROP TABLE alembic_version"))
    try:
        async with TestClient(TestServer(wiring.make_web_app(smith))) as client:
            response = await client.get("/readyz")
            body = await response.json()
            assert response.status == 503
            assert body["status"] == "unavailable" and set(body["problems"]) == {"database"}
            assert (await client.get("/healthz")).status == 200  # up, just not ready
    finally:
        smith.store.engine.dispose()


async def test_a_conversation_re_sent_with_another_property_is_refused_naming_both(
    client: Client, smith: wiring.Smith
) -> None:
    """Issue 20 (docs/verdicts.md): a conversation's property never changes: 422, both ids, nothing stored."""
    assert (await client.post(URL, data=LAMPLITER, headers=AUTH)).status == 202
    moved = json.loads(LAMPLITER)
    moved["property"]["id"] = "birchwood"
    moved["messages"][-1]["text"] += " (and one more line)"
    with smith.store.unit() as unit:
        before = len(unit.grades.for_conversation("c0a80101-lampliter-0001"))

    response = await client.post(URL, data=json.dumps(moved).encode(), headers=AUTH)

    assert response.status == 422
    body = await response.json()
    assert (body["stored_property_id"], body["sent_property_id"]) == ("lampliter", "birchwood")
    assert "'lampliter'" in body["errors"][0]["message"] and "'birchwood'" in body["errors"][0]["message"]
    with smith.store.unit() as unit:
        assert len(unit.grades.for_conversation("c0a80101-lampliter-0001")) == before
        assert unit.properties.get("birchwood") is None
        record = unit.conversations.get("c0a80101-lampliter-0001")
        assert record is not None and record.property_id == "lampliter"
