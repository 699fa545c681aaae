"""Whatever arrives at `POST /v1/conversations`, the answer is never a 5xx and a refusal writes nothing.

Random bytes, random JSON, valid generated documents and valid documents with one part broken (or
pushed to a limit: the longest ids, ids full of separators, deep nesting, dates and token counts out
of range), sent with odd headers: each is accepted (202) or refused with a reason (4xx), the app keeps
serving, and a refused document leaves every table ingest writes as it was.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, func
from sqlmodel import Session, select

import app as wiring
from gradecore.model.contract import MAX_ID_CHARS
from gradecore.persistence.entities import ConversationRecord, MachineGrade, Property, SlackPost
from tests.conftest import load_demo
from tests.gradecore.strategies import conversation_docs, json_values
from tests.profiles import examples
from tests.smith.web.conftest import AUTH, INGEST_TOKEN

Client = TestClient[web.Request, web.Application]
DEMOS = [
    "lampliter-unbacked-promise.json",
    "camellia-double-send.json",
    "birchwood-dead-thread.json",
    "oakridge-clean-maintenance.json",
]
WRITTEN = (ConversationRecord, MachineGrade, SlackPost, Property)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _nested(depth: int) -> object:
    value: object = "bottom"
    for level in range(depth):
        value = {"x": value} if level % 2 else [value]
    return value


# Values a naive store or key builder trips over.
edge_values = st.one_of(
    st.text(st.sampled_from("/:%#t"), min_size=1, max_size=MAX_ID_CHARS),
    st.text(min_size=MAX_ID_CHARS - 2, max_size=MAX_ID_CHARS + 2),
    st.integers(min_value=0, max_value=400).map(_nested),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-14:00",
            "2026-07-17T17:02:11",
            "1970-01-01T00:00:00Z",
            -1,
            10**15,
            10**400,
            "en-" + "-".join(["abcdefgh"] * 12),
            "x" * 70_000,
        ]
    ),
)


@st.composite
def mutated_demos(draw: st.DrawFn) -> bytes:
    """A bundled example with one value replaced by arbitrary or edge JSON, or one key removed."""
    doc = json.loads(load_demo(draw(st.sampled_from(DEMOS))))
    path = draw(st.sampled_from(_paths(doc)))
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        # Unrestricted text too: NUL and friends must be refused, not reach PostgreSQL.
        parent[path[-1]] = draw(json_values | st.text() | edge_values)
    return json.dumps(doc).encode()


bodies = st.one_of(
    st.binary(max_size=512),
    json_values.map(lambda value: json.dumps(value).encode()),
    conversation_docs().map(lambda doc: json.dumps(doc).encode()),
    mutated_demos(),
    st.integers(min_value=900, max_value=5_000).map(lambda depth: b"[" * depth + b"]" * depth),
)

header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60)
# Mostly the right token, so that most examples reach the contract and the database.
authorizations = st.one_of(
    st.just(AUTH["Authorization"]),
    st.just(AUTH["Authorization"]),
    st.sampled_from([INGEST_TOKEN, f"bearer {INGEST_TOKEN}", f"Bearer {INGEST_TOKEN} "]),
    header_text,
)
odd_headers = st.dictionaries(
    st.sampled_from(["Content-Type", "Content-Encoding", "Accept", "Expect", "X-Request-Id", "Cookie"]),
    st.one_of(header_text, st.sampled_from(["gzip", "deflate", "br", "application/json; charset=latin-1"])),
    max_size=3,
)


def _rows(engine: Engine) -> dict[str, int]:
    with Session(engine) as session:
        return {
            table.__name__: int(session.exec(select(func.count()).select_from(table)).one())
            for table in WRITTEN
        }


# One app serves every example (that is the point: it must keep serving), hence the health check.
@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies, authorization=authorizations, headers=odd_headers)
async def test_no_input_gets_a_5xx_and_a_refusal_writes_nothing(
    client: Client, smith: wiring.Smith, body: bytes, authorization: str, headers: dict[str, str]
) -> None:
    before = _rows(smith.store.engine)

    response = await client.post(
        "/v1/conversations", data=body, headers={**headers, "Authorization": authorization}
    )

    assert response.status < 500, await response.text()
    if response.status == 202:
        return
    assert 400 <= response.status < 500
    assert _rows(smith.store.engine) == before, "a refused document wrote rows"
    if response.status == 422:
        answer = await response.json()
        assert answer["errors"] and all(error["path"] and error["message"] for error in answer["errors"])


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=mutated_demos())
async def test_an_authorised_document_is_stored_whole_or_not_at_all(
    client: Client, smith: wiring.Smith, body: bytes
) -> None:
    before = _rows(smith.store.engine)

    response = await client.post("/v1/conversations", data=body, headers=AUTH)

    after = _rows(smith.store.engine)
    assert response.status in (202, 413, 422), await response.text()
    if response.status != 202:
        assert after == before
        return
    answer = await response.json()
    if answer["outcome"] == "unchanged":
        assert after == before
    else:  # a new or grown conversation: its record and at least its conversation grade
        assert after["MachineGrade"] > before["MachineGrade"]
        assert after["ConversationRecord"] >= before["ConversationRecord"]
