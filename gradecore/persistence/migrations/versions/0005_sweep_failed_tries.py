"""The sweep counts failed tries per verdict (a verdict that keeps failing is parked, not retried for ever)

Revision ID: h10c
Revises: h10b
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "h10c"
down_revision: str | None = "h10b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("fixtures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("attempts", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("fixtures", schema=None) as batch_op:
        batch_op.drop_column("attempts")
