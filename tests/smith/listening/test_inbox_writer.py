"""Group commit of inbox rows: each caller learns whether its own event was new."""

from __future__ import annotations

import asyncio

from gradecore.persistence.store import Store
from smith.listening.inbox_writer import InboxWriter


async def test_a_burst_is_recorded_and_each_caller_learns_if_its_event_was_new(store: Store) -> None:
    writer = InboxWriter(store)
    ids = [f"Ev{n:03d}" for n in range(40)]
    results = await asyncio.gather(
        *(writer.record(i, "reaction_added", {"event_id": i}) for i in ids + ids[:5])
    )

    assert results[:40] == [True] * 40
    assert results[40:] == [False] * 5  # copies in the same burst are retries
    # A later copy of an event still waiting is for its caller to process: the first copy may have
    # been answered with an error (a deadline), and this is the copy Slack now waits on.
    assert await writer.record("Ev000", "reaction_added", {}) is True
    with store.unit() as unit:
        unit.inbox.finish_many([("Ev000", "recorded 1 verdict(s)")])
    assert await writer.record("Ev000", "reaction_added", {}) is False  # processed: a plain retry
    with store.unit() as unit:
        assert len(unit.inbox.unprocessed(older_than=_far_future())) == 39
        row = unit.inbox.get("Ev007")
        assert row is not None and row.payload == {"event_id": "Ev007"}
    writer.close()


def _far_future():  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from gradecore.persistence.entities import utcnow

    return utcnow() + timedelta(days=1)
