"""Keys and refs that cannot collide; a locale column as wide as the contract's longest tag

Item refs and post idempotency keys now escape `%`, `/`, `:` and `#` in the ids they are built from
(and hash what would not fit), so conversation `a:turn:b` and conversation `a` with turn `b` no longer
share a key. Ids without those characters give the same key as before; rows whose ids contain one are
rewritten here from their conversation and turn columns.

Revision ID: h10a
Revises: 0001
Create Date: 2026-12-01
"""

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "h10a"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A frozen copy of gradecore.model.keys as of this revision (that module may move on; this must not).
_ITEM_REF_MAX = 260
_POST_KEY_MAX = 256
_EDIT_SUFFIX = len(":edit:") + 36
_ESCAPES = {"%": "%25", "/": "%2F", ":": "%3A", "#": "%23"}


def _escape(part: str) -> str:
    return "".join(_ESCAPES.get(character, character) for character in part)


def _digest(*parts: str | None) -> str:
    return "#" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _item_ref(conversation_id: str, turn_id: str | None) -> str:
    ref = _escape(conversation_id)
    if turn_id is not None:
        ref = f"{ref}/{_escape(turn_id)}"
    return ref if len(ref) <= _ITEM_REF_MAX else _digest("item", conversation_id, turn_id)


def _post_key(conversation_id: str, turn_id: str | None) -> str:
    key = f"grade:{_escape(conversation_id)}"
    if turn_id is not None:
        key = f"{key}:turn:{_escape(turn_id)}"
    if len(key) + _EDIT_SUFFIX <= _POST_KEY_MAX:
        return key
    return f"grade:{_digest('post', conversation_id, turn_id)}"


def _escapable(column: Any) -> Any:
    return sa.or_(*(column.contains(character, autoescape=True) for character in _ESCAPES))


def upgrade() -> None:
    # A long BCP-47 tag is valid; the properties table is referenced by nothing, so SQLite's copy of
    # it is safe.
    with op.batch_alter_table("properties") as batch_op:
        batch_op.alter_column("locale", type_=sa.String(length=128), existing_nullable=False)
    for table in ("machine_grades", "grade_verdicts"):
        _rewrite_item_refs(table)
    _rewrite_post_keys()


def downgrade() -> None:
    # Escaped keys stay: the old builders read them as opaque strings.
    with op.batch_alter_table("properties") as batch_op:
        batch_op.alter_column("locale", type_=sa.String(length=35), existing_nullable=False)


def _rewrite_item_refs(name: str) -> None:
    table = sa.table(
        name,
        sa.column("id"),
        sa.column("item_type", sa.String),
        sa.column("item_ref", sa.String),
        sa.column("conversation_id", sa.String),
        sa.column("turn_id", sa.String),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(table.c.id, table.c.item_type, table.c.conversation_id, table.c.turn_id).where(
            sa.or_(_escapable(table.c.conversation_id), _escapable(table.c.turn_id))
        )
    ).all()
    for row in rows:
        turn_id = row.turn_id if row.item_type == "turn" else None
        ref = _item_ref(row.conversation_id, turn_id)
        connection.execute(sa.update(table).where(table.c.id == row.id).values(item_ref=ref))


def _rewrite_post_keys() -> None:
    posts = sa.table(
        "slack_posts",
        sa.column("id"),
        sa.column("kind", sa.String),
        sa.column("idempotency_key", sa.String),
        sa.column("conversation_id", sa.String),
        sa.column("turn_id", sa.String),
        sa.column("payload", sa.JSON),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(posts).where(
            posts.c.kind.in_(("conversation", "turn")),
            sa.or_(_escapable(posts.c.conversation_id), _escapable(posts.c.turn_id)),
        )
    ).all()
    for row in rows:
        turn_id = row.turn_id if row.kind == "turn" else None
        old = f"grade:{row.conversation_id}" + ("" if turn_id is None else f":turn:{turn_id}")
        new = _post_key(row.conversation_id, turn_id)
        if not row.idempotency_key.startswith(old):
            continue  # not a key this revision's builders wrote
        payload = row.payload
        metadata = ((payload or {}).get("metadata") or {}).get("event_payload") or {}
        if metadata.get("idempotency_key") == old:
            # An unsent post carries its key to Slack, where the relay looks for it after a timeout.
            metadata["idempotency_key"] = new
        connection.execute(
            sa.update(posts)
            .where(posts.c.id == row.id)
            .values(idempotency_key=new + row.idempotency_key[len(old) :], payload=payload)
        )
