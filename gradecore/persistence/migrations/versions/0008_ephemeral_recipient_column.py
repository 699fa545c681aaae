"""An ephemeral's recipient in a column of its own, no longer inside the message payload

Revision ID: ingest
Revises: scale
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "ingest"
down_revision: str | None = "scale"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("slack_posts") as batch:
        batch.add_column(sa.Column("recipient", sa.String(length=32), nullable=True))
    # Ephemerals queued before this revision carry their recipient in the payload: move it over, so
    # the relay reads one place.
    if op.get_bind().dialect.name == "postgresql":
        user = "payload::json ->> 'user'"
    else:
        user = "json_extract(payload, '$.user')"
    op.execute(f"UPDATE slack_posts SET recipient = {user} WHERE operation = 'ephemeral'")


def downgrade() -> None:
    with op.batch_alter_table("slack_posts") as batch:
        batch.drop_column("recipient")
