"""Channel pacing shared by relays, and the durable queue of owed judge-lane work

Revision ID: h10d
Revises: h10c
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "h10d"
down_revision: str | None = "h10c"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "channel_pace",
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("next_allowed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("channel"),
    )
    op.create_table(
        "judge_requests",
        sa.Column("conversation_id", sa.String(length=128), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("conversation_id"),
    )


def downgrade() -> None:
    op.drop_table("judge_requests")
    op.drop_table("channel_pace")
