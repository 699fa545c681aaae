"""Issue 10's reproductions at `POST /v1/conversations`: valid documents at the contract's limits are
stored (202, not 503), and documents past them are a 422 naming the path with nothing stored.

Each was answered 503 or 500 before: PostgreSQL refused an over-long key, locale or reason, a date
that does not convert to UTC, or the serialiser gave up on deep nesting.
"""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from sqlalchemy import Engine, func, text
from sqlmodel import Session, SQLModel, select

import app as wiring
from gradecore.model.contract import MAX_ID_CHARS, MAX_NESTING_DEPTH
from gradecore.model.vocabulary import MAX_REASON_CHARS
from gradecore.persistence.entities import ConversationRecord, MachineGrade, Property, SlackPost
from tests.conftest import load_demo
from tests.smith.web.conftest import AUTH, INGEST_TOKEN

Client = TestClient[web.Request, web.Application]
URL = "/v1/conversations"
LAMPLITER: dict[str, Any] = json.loads(load_demo("lampliter-unbacked-promise.json"))
STORED = (ConversationRecord, MachineGrade, SlackPost, Property)


def lampliter() -> dict[str, Any]:
    return copy.deepcopy(LAMPLITER)


def rows(engine: Engine) -> dict[str, int]:
    with Session(engine) as session:
        return {
            table.__name__: int(session.exec(select(func.count()).select_from(table)).one())
            for table in STORED
        }


async def post(client: Client, doc: dict[str, Any] | bytes) -> tuple[int, dict[str, Any]]:
    body = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    response = await client.post(URL, data=body, headers=AUTH)
    return response.status, await response.json()


def paths(answer: dict[str, Any]) -> list[str]:
    return [error["path"] for error in answer.get("errors", [])]


async def test_the_longest_ids_are_stored_with_keys_that_fit(client: Client, smith: wiring.Smith) -> None:
    """A 128-character conversation id with a 117-character turn id (its post key overflowed)."""
    doc = lampliter()
    doc["conversation_id"] = "c" * MAX_ID_CHARS
    doc["turns"][0]["id"] = "t" * 117

    status, answer = await post(client, doc)

    assert status == 202, answer
    assert answer.get("flagged_turns") == ["t" * 117] and answer["posts_queued"] == 2, answer
    # Regraded as grown (a new message): the edit keys fit too.
    doc["settled_at"] = "2026-11-24T17:00:00Z"
    status, answer = await post(client, doc)
    assert (status, answer["outcome"]) == (202, "replaced"), answer


@pytest.mark.parametrize("character", ["😀", "\x01", '"'])
async def test_the_longest_ids_of_any_character_are_stored_and_posted(
    client: Client, smith: wiring.Smith, character: str
) -> None:
    """An id's characters escaped in a post (JSON in a button's value) overflowed Slack's limits."""
    doc = lampliter()
    doc["conversation_id"] = character * MAX_ID_CHARS
    doc["turns"][0]["id"] = character * MAX_ID_CHARS

    status, answer = await post(client, doc)

    assert status == 202, answer
    assert answer["posts_queued"] == 2


async def test_a_long_valid_locale_is_stored(client: Client, smith: wiring.Smith) -> None:
    """A BCP-47 tag longer than 35 characters (the old column) is valid."""
    doc = lampliter()
    locale = "sr-Latn-RS-1994-u-ca-gregory-co-phonebk-x-private1-private2"
    doc["property"]["locale"] = locale

    status, answer = await post(client, doc)

    assert status == 202, answer
    with Session(smith.store.engine) as session:
        assert session.exec(select(Property.locale)).one() == locale


async def test_a_draft_with_many_unbacked_amounts_gets_a_reason_that_fits(
    client: Client, smith: wiring.Smith
) -> None:
    """The reason quotes every unbacked amount; it overflowed its 1,024-character column."""
    doc = lampliter()
    draft = "Fees: " + ", ".join(f"${1000 + n}.{n % 100:02d}" for n in range(400)) + "."
    doc["messages"][1]["text"] = draft
    doc["turns"][0]["trace"]["steps"][2]["draft"] = draft

    status, answer = await post(client, doc)

    assert status == 202, answer
    with Session(smith.store.engine) as session:
        reasons = session.exec(select(MachineGrade.reason).where(MachineGrade.item_type == "turn")).all()
    longest = max(reasons, key=len)
    assert MAX_REASON_CHARS // 2 < len(longest) <= MAX_REASON_CHARS
    assert longest.startswith("The draft states $1000.00, $1001.01") and longest.endswith("…")


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("settled_at",), "0001-01-01T00:00:00+14:00"),
        (("settled_at",), "9999-12-31T23:59:59-14:00"),
        (("settled_at",), "1999-12-31T23:59:59Z"),
        (("messages", 0, "at"), "2101-01-01T00:00:00Z"),
        (("turns", 0, "trace", "steps", 0, "input_tokens"), -1),
        (("turns", 0, "trace", "steps", 0, "output_tokens"), 10**15),
        (("turns", 0, "trace", "steps", 2, "cache_read_tokens"), 10**30),
    ],
)
async def test_out_of_range_values_are_a_422_naming_the_path(
    client: Client, smith: wiring.Smith, where: tuple[str | int, ...], value: object
) -> None:
    doc = lampliter()
    parent: Any = doc
    for part in where[:-1]:
        parent = parent[part]
    parent[where[-1]] = value

    status, answer = await post(client, doc)

    assert status == 422, answer
    assert paths(answer) == [".".join(str(part) for part in where)]
    assert set(rows(smith.store.engine).values()) == {0}


async def test_deeply_nested_facts_are_a_422(client: Client, smith: wiring.Smith) -> None:
    """A `property.facts` value nested 256+ deep was a 500 (the serialiser's recursion limit)."""
    nested: object = "bottom"
    for _ in range(300):
        nested = {"x": nested}
    doc = lampliter()
    doc["property"]["facts"]["building"] = nested

    status, answer = await post(client, doc)

    assert status == 422, answer
    assert paths(answer)[0].startswith("property.facts.building.x.x")
    assert "nested more than" in answer["errors"][0]["message"]
    assert set(rows(smith.store.engine).values()) == {0}


async def test_nesting_up_to_the_limit_is_accepted(client: Client) -> None:
    nested: object = 1
    for _ in range(MAX_NESTING_DEPTH - 4):  # root, property, facts, and the fact's own object
        nested = [nested]
    doc = lampliter()
    doc["property"]["facts"]["building"] = {"levels": nested}

    status, answer = await post(client, doc)

    assert status == 202, answer


@pytest.mark.parametrize("depth", [990, 100_000])
async def test_a_document_nested_past_the_parser_is_a_422(
    client: Client, smith: wiring.Smith, depth: int
) -> None:
    status, answer = await post(client, b"[" * depth + b"]" * depth)
    assert status == 422, answer
    status, answer = await post(client, b'{"a":' * depth + b"1" + b"}" * depth)
    assert status == 422, answer
    assert "nested more than" in answer["errors"][0]["message"]
    assert set(rows(smith.store.engine).values()) == {0}


async def test_a_non_utf8_authorization_header_is_a_401(client: Client, smith: wiring.Smith) -> None:
    """The header's bytes were decoded leniently and then re-encoded strictly: a 500."""
    body = load_demo("lampliter-unbacked-promise.json")
    for token in (b"Bearer \xff\xfe", b"Bearer " + INGEST_TOKEN.encode() + b"\xc3", b"\x80"):
        request = (
            b"POST " + URL.encode() + b" HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + token + b"\r\n"
            b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n"
            b"Connection: close\r\n\r\n" + body
        )
        reader, writer = await asyncio.open_connection(client.host, client.port)
        writer.write(request)
        await writer.drain()
        answer = await reader.read()
        writer.close()
        await writer.wait_closed()
        assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
    assert set(rows(smith.store.engine).values()) == {0}


async def test_a_body_that_does_not_match_its_content_encoding_is_a_400(
    client: Client, smith: wiring.Smith
) -> None:
    """Found by the fuzz test: aiohttp's decoding error escaped the handler as a 500."""
    response = await client.post(
        URL, data=json.dumps(lampliter()).encode(), headers={**AUTH, "Content-Encoding": "gzip"}
    )
    assert response.status == 400
    assert "content-encoding" in (await response.json())["detail"]
    assert set(rows(smith.store.engine).values()) == {0}


async def test_a_database_fault_is_a_500_not_storage_unavailable(client: Client, smith: wiring.Smith) -> None:
    """Only an unreachable database is "storage unavailable" (503, retry); a refused write is a fault."""
    refuse_blocks = {
        "sqlite": "CREATE TRIGGER no_blocks BEFORE INSERT ON machine_grades WHEN NEW.level = 'block' "
        "BEGIN SELECT RAISE(ABORT, 'no blocks'); END",
        "postgresql": "ALTER TABLE machine_grades ADD CONSTRAINT no_blocks CHECK (level <> 'block')",
    }
    engine = smith.store.engine
    with engine.begin() as connection:
        connection.execute(text(refuse_blocks[engine.dialect.name]))

    response = await client.post(URL, data=json.dumps(lampliter()).encode(), headers=AUTH)

    assert response.status == 500
    assert "storage unavailable" not in (await response.json())["error"]
    assert "Retry-After" not in response.headers
    assert set(rows(engine).values()) == {0}  # one transaction: the property and record rolled back


def test_stored_tables_are_the_ones_ingest_writes() -> None:
    """Guards `rows`: the tables counted above are real tables of the schema."""
    assert {table.__tablename__ for table in STORED} <= set(SQLModel.metadata.tables)
