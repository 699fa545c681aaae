"""Ingest in few round trips: the statements one ingest sends do not grow with the conversation's turns
(grades and posts are each inserted in one statement; what is already queued is read once)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlmodel import select

from gradecore.model.contract import Conversation
from gradecore.persistence.entities import MachineGrade, SlackPost
from gradecore.persistence.store import PutOutcome, Store
from smith.ingest import Ingestor
from tests.scenarios.test_bounded_threads import birchwood_with, rent_drafts

CHANNEL = "C0BIRCHWOOD"


@contextmanager
def _statements(store: Store) -> Iterator[list[str]]:
    sent: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        sent.append(statement.split(None, 3)[0] + " " + statement.split(None, 3)[2])

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


def _ingest(store: Store, conversation: Conversation) -> list[str]:
    with _statements(store) as sent:
        Ingestor(store).ingest(conversation)
    return sent


def _birchwood(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.set("birchwood", name="Birchwood", timezone="America/New_York", channel_id=CHANNEL)


def test_a_new_conversation_costs_the_same_statements_with_two_turns_or_nine(store: Store) -> None:
    _birchwood(store)
    two = _ingest(store, birchwood_with(rent_drafts(2), "two"))
    nine = _ingest(store, birchwood_with(rent_drafts(9), "nine"))
    assert nine == two
    # The property read, the record, the grades, the parent (for its id), the replies: one each.
    assert len(two) <= 5, two
    with store.unit() as unit:
        posts = unit.session.exec(select(SlackPost).where(SlackPost.conversation_id == "nine")).all()
        grades = unit.session.exec(select(MachineGrade).where(MachineGrade.conversation_id == "nine")).all()
    assert len(posts) == 10 and len(grades) == 10  # all nine replies and the parent; every turn graded


def test_a_resent_conversation_costs_the_same_statements_however_many_turns_it_had(store: Store) -> None:
    _birchwood(store)
    for name, turns in (("short", 2), ("long", 8)):
        Ingestor(store).ingest(birchwood_with(rent_drafts(turns), name))
    short = _ingest(store, birchwood_with(rent_drafts(3), "short"))
    long = _ingest(store, birchwood_with(rent_drafts(9), "long"))
    assert long == short
    with store.unit() as unit:
        record = unit.conversations.get("long")
        turn_posts = unit.session.exec(
            select(SlackPost).where(SlackPost.conversation_id == "long", SlackPost.kind == "turn")
        ).all()
    assert record is not None
    # Eight replies kept (their grades did not change), the ninth turn's reply added; no edit of them.
    assert sorted(post.turn_id for post in turn_posts if post.operation == "post") == sorted(
        f"t{n}" for n in range(1, 10)
    )
    assert [post for post in turn_posts if post.operation == "update"] == []


def test_an_identical_resend_writes_nothing(store: Store) -> None:
    _birchwood(store)
    Ingestor(store).ingest(birchwood_with(rent_drafts(3), "same"))
    with _statements(store) as sent:
        result = Ingestor(store).ingest(birchwood_with(rent_drafts(3), "same"))
    assert result.outcome is PutOutcome.UNCHANGED
    assert not [statement for statement in sent if statement.startswith(("INSERT INTO machine", "UPDATE"))]
