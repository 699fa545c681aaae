"""The conversation link in a post: the id is one percent-encoded path segment, whatever it holds."""

from __future__ import annotations

import json

from gradecore.model.contract import validate_conversation
from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from tests.conftest import load_demo

TEMPLATE = "https://app.example.com/c/{conversation_id}/view"


def test_an_id_with_url_syntax_cannot_change_where_the_link_points(store: Store) -> None:
    doc = json.loads(load_demo("lampliter-unbacked-promise.json"))
    doc["conversation_id"] = "a/../admin?x=1#y z"
    ingestor = Ingestor(store, conversation_url_template=TEMPLATE)

    ingestor.ingest(validate_conversation(doc))

    with store.unit() as unit:
        posts = unit.outbox.for_conversation(doc["conversation_id"])
    (parent,) = [post for post in posts if post.kind == "conversation"]
    payload = json.dumps(parent.payload)
    assert "https://app.example.com/c/a%2F..%2Fadmin%3Fx%3D1%23y%20z/view" in payload
    assert "/c/a/../admin" not in payload
