"""The escaped-keys migration (0002, revision h10a): rows written with the old concatenated keys and
refs read under the new escaped ones.

Rows whose ids hold none of `%`, `/`, `:` keep their keys; the others are rewritten from their id
columns, and the rows pointing at rewritten tables (verdict → grade, fixture → verdict, reply → parent
post) still resolve on both backends.
"""

from __future__ import annotations

from sqlalchemy import Engine, insert, text
from sqlmodel import Session, select

from gradecore.model.keys import item_ref
from gradecore.persistence.db import upgrade
from gradecore.persistence.entities import Fixture, GradeVerdict, MachineGrade, SlackPost, User
from smith.outbox import keys as outbox_keys
from tests.gradecore.rows import machine_grade, verdict

OLD_REVISION = "0001"
LONG_ODD = "%/" * 50 + "x"


def _post(key: str, conversation_id: str, turn_id: str | None, parent: int | None = None) -> SlackPost:
    return SlackPost(
        kind="turn" if turn_id else "conversation",
        idempotency_key=key,
        property_id="camellia",
        conversation_id=conversation_id,
        turn_id=turn_id,
        parent_post_id=parent,
        payload={"text": "x", "metadata": {"event_type": "e", "event_payload": {"idempotency_key": key}}},
        status="pending",
    )


def _insert_as_then(session: Session, post: SlackPost) -> int:
    """Insert a post with the columns slack_posts had at the old revision (later ones add some)."""
    table = SlackPost.__table__  # type: ignore[attr-defined]
    names = [column.name for column in table.columns if column.name not in _ADDED_SINCE]
    values = {name: getattr(post, name) for name in names}
    return int(session.execute(insert(table).values(values).returning(table.c.id)).scalar_one())


_ADDED_SINCE = {"id", "recipient"}  # `recipient`: revision `ingest`


def test_old_keys_and_refs_are_rewritten_and_still_resolve(empty_engine: Engine) -> None:
    upgrade(empty_engine, OLD_REVISION)
    with Session(empty_engine) as session:
        user = User(email="pat@example.test", name="Pat", role="staff")
        session.add(user)
        session.flush()
        odd = machine_grade("col/X:1", "t/1")
        odd.item_ref = "col/X:1/t/1"  # the old concatenation
        plain = machine_grade("plain-1", "t1")
        long_odd = machine_grade(LONG_ODD, "t#1")
        long_odd.item_ref = f"{LONG_ODD}/t#1"  # 105 characters, 307 once escaped: hashed now
        session.add_all([odd, plain, long_odd])
        session.flush()
        acted = verdict(user, odd, act_key="event:Ev1")
        session.add(acted)
        session.flush()
        # The fixtures table as revision 0001 made it (later revisions add columns the model now has).
        session.execute(
            text(
                "INSERT INTO fixtures (verdict_id, kind, path, status, created_at) "
                "VALUES (:verdict, 'clara', 'f.json', 'written', :at)"
            ),
            {"verdict": acted.id, "at": acted.created_at},
        )
        parent = _insert_as_then(session, _post("grade:col/X:1", "col/X:1", None))
        reply = _post("grade:col/X:1:turn:t/1", "col/X:1", "t/1", parent=parent)
        edit = _post("grade:col/X:1:edit:abc", "col/X:1", None, parent=parent)
        edit.payload["metadata"]["event_payload"]["idempotency_key"] = "grade:col/X:1"
        for post in (reply, edit, _post("grade:plain-1", "plain-1", None)):
            _insert_as_then(session, post)
        session.commit()
        odd_id, acted_id, long_id = odd.id, acted.id, long_odd.id

    upgrade(empty_engine)

    with Session(empty_engine) as session:
        assert session.get(MachineGrade, odd_id).item_ref == item_ref("col/X:1", "t/1")  # type: ignore[union-attr]
        assert session.get(GradeVerdict, acted_id).item_ref == item_ref("col/X:1", "t/1")  # type: ignore[union-attr]
        assert item_ref("col/X:1", "t/1") != "col/X:1/t/1"
        assert session.get(MachineGrade, long_id).item_ref == item_ref(LONG_ODD, "t#1")  # type: ignore[union-attr]
        assert item_ref(LONG_ODD, "t#1").startswith("#")
        plain_row = session.exec(select(MachineGrade).where(MachineGrade.conversation_id == "plain-1")).one()
        assert plain_row.item_ref == "plain-1/t1" == item_ref("plain-1", "t1")
        keys = {post.idempotency_key: post for post in session.exec(select(SlackPost)).all()}
        parent_key, turn_key = outbox_keys.parent_key("col/X:1"), outbox_keys.turn_key("col/X:1", "t/1")
        assert set(keys) == {parent_key, turn_key, f"{parent_key}:edit:abc", "grade:plain-1"}
        for post in keys.values():
            shown = post.payload["metadata"]["event_payload"]["idempotency_key"]
            is_edit = post.idempotency_key.startswith(f"{parent_key}:edit")
            assert shown == (parent_key if is_edit else post.idempotency_key)
        assert keys[turn_key].parent_post_id == keys[parent_key].id
        assert session.exec(select(Fixture)).one().verdict_id == acted_id
    if empty_engine.dialect.name == "sqlite":
        with empty_engine.connect() as connection:
            assert connection.execute(text("PRAGMA foreign_key_check")).all() == []
