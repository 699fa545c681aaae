"""Tickets: one per root-cause signature of *ours* failures, its occurrences and confirmations

Revision ID: h15
Revises: h10a
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "h15"
down_revision: str | None = "h10a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ticket_signatures",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("check_id", sa.String(length=64), nullable=False),
        sa.Column("layer", sa.String(length=16), nullable=False),
        sa.Column("cause", sa.String(length=512), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("status_changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("times_reopened", sa.Integer(), nullable=False),
        sa.Column("tracker", sa.String(length=16), nullable=True),
        sa.Column("tracker_ref", sa.String(length=256), nullable=True),
        sa.Column("tracker_url", sa.String(length=1024), nullable=True),
        sa.Column("creating_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("synced_body_hash", sa.String(length=64), nullable=True),
        sa.Column("synced_counts", sa.JSON(), nullable=True),
        sa.Column("history", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "ticket_occurrences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signature_id", sa.String(length=16), nullable=False),
        sa.Column("conversation_id", sa.String(length=128), nullable=False),
        sa.Column("turn_key", sa.String(length=128), nullable=False),
        sa.Column("property_id", sa.String(length=128), nullable=False),
        sa.Column("machine_grade_id", sa.String(length=36), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["signature_id"], ["ticket_signatures.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("signature_id", "conversation_id", "turn_key", name="uq_ticket_occurrences_item"),
    )
    with op.batch_alter_table("ticket_occurrences", schema=None) as batch_op:
        batch_op.create_index(
            "ix_ticket_occurrences_signature_seen", ["signature_id", "seen_at"], unique=False
        )
    op.create_table(
        "ticket_confirmations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signature_id", sa.String(length=16), nullable=False),
        sa.Column("verdict_id", sa.Integer(), nullable=False),
        sa.Column("signal", sa.String(length=16), nullable=False),
        sa.Column("property_id", sa.String(length=128), nullable=False),
        sa.Column("example", sa.String(length=2000), nullable=True),
        sa.Column("receipts", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["signature_id"], ["ticket_signatures.id"]),
        sa.ForeignKeyConstraint(["verdict_id"], ["grade_verdicts.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("signature_id", "verdict_id", name="uq_ticket_confirmations_verdict"),
    )
    with op.batch_alter_table("ticket_confirmations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_ticket_confirmations_signature_id"), ["signature_id"], unique=False
        )
    op.create_table(
        "ticket_scan",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scanned_through", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("ticket_scan")
    with op.batch_alter_table("ticket_confirmations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ticket_confirmations_signature_id"))
    op.drop_table("ticket_confirmations")
    with op.batch_alter_table("ticket_occurrences", schema=None) as batch_op:
        batch_op.drop_index("ix_ticket_occurrences_signature_seen")
    op.drop_table("ticket_occurrences")
    op.drop_table("ticket_signatures")
