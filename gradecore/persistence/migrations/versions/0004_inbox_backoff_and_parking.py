"""Inbox poison handling: failed events back off, and park after too many failures

Revision ID: h10b
Revises: h15
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "h10b"
down_revision: str | None = "h15"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("slack_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("parked_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_slack_events_parked", ["parked_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("slack_events", schema=None) as batch_op:
        batch_op.drop_index("ix_slack_events_parked")
        batch_op.drop_column("parked_at")
        batch_op.drop_column("next_attempt_at")
