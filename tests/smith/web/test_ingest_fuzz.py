"""Whatever arrives at `POST /v1/conversations`, the answer is never a 500.

Random bytes, random JSON, valid generated documents and valid documents with one part broken: each
is accepted (202) or refused with a reason (413/422), and the app keeps serving.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import load_demo
from tests.gradecore.strategies import conversation_docs, json_values
from tests.smith.web.conftest import AUTH

Client = TestClient[web.Request, web.Application]
DEMOS = [
    "lampliter-unbacked-promise.json",
    "camellia-double-send.json",
    "birchwood-dead-thread.json",
    "oakridge-clean-maintenance.json",
]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def mutated_demos(draw: st.DrawFn) -> bytes:
    """A bundled example with one value replaced by arbitrary JSON, or one key removed."""
    doc = json.loads(load_demo(draw(st.sampled_from(DEMOS))))
    path = draw(st.sampled_from(_paths(doc)))
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        # Unrestricted text too: NUL and friends must be refused, not reach PostgreSQL.
        parent[path[-1]] = draw(json_values | st.text())
    return json.dumps(doc).encode()


bodies = st.one_of(
    st.binary(max_size=512),
    json_values.map(lambda value: json.dumps(value).encode()),
    conversation_docs().map(lambda doc: json.dumps(doc).encode()),
    mutated_demos(),
)


# One app serves every example (that is the point: it must keep serving), hence the health check.
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
async def test_no_body_gets_a_500(client: Client, body: bytes) -> None:
    response = await client.post("/v1/conversations", data=body, headers=AUTH)

    assert response.status in (202, 413, 422), await response.text()
    answer = await response.json()
    if response.status == 422:
        assert answer["errors"] and all(error["path"] and error["message"] for error in answer["errors"])
