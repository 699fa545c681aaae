"""Migration `ingest`: an ephemeral queued before it keeps its recipient, now read from its own column."""

from __future__ import annotations

import json

from sqlalchemy import Engine, text

from gradecore.persistence.db import upgrade
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store

BEFORE = "scale"


def _queue_the_old_way(engine: Engine, key: str, operation: str, payload: dict[str, object]) -> None:
    """A post as revisions before `ingest` stored it (an ephemeral's recipient inside its payload)."""
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO slack_posts (kind, operation, idempotency_key, channel, payload, status,"
                " attempts, ambiguous, lookups_failed, next_attempt_at, created_at, updated_at)"
                " VALUES ('notice', :op, :key, 'C0APT', :payload, 'pending', 0, false, 0, :at, :at, :at)"
            ),
            {"op": operation, "key": key, "payload": json.dumps(payload), "at": utcnow()},
        )


def test_an_ephemeral_queued_before_the_upgrade_is_still_shown_to_its_person(empty_engine: Engine) -> None:
    upgrade(empty_engine, BEFORE)
    _queue_the_old_way(empty_engine, "hint:1", "ephemeral", {"text": "Hi", "blocks": [], "user": "U0PAT"})
    _queue_the_old_way(empty_engine, "notice:1", "post", {"text": "Hi", "blocks": []})

    upgrade(empty_engine)

    with Store(empty_engine).unit() as unit:
        ephemeral, plain = unit.outbox.by_key("hint:1"), unit.outbox.by_key("notice:1")
    assert ephemeral is not None and ephemeral.recipient == "U0PAT"
    assert plain is not None and plain.recipient is None
