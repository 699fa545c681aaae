"""Initial schema: every table of docs/storage.md

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "conversation_records",
        sa.Column("conversation_id", sa.String(length=128), nullable=False),
        sa.Column("property_id", sa.String(length=128), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("conversation_id"),
    )
    with op.batch_alter_table("conversation_records", schema=None) as batch_op:
        batch_op.create_index(
            "ix_conversation_records_property_settled", ["property_id", "settled_at"], unique=False
        )

    op.create_table(
        "job_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job", sa.String(length=64), nullable=False),
        sa.Column("period", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(length=32), nullable=True),
        sa.Column("counts", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("job", "period", name="uq_job_runs_job_period"),
    )
    op.create_table(
        "machine_grades",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("item_type", sa.String(length=16), nullable=False),
        sa.Column("item_ref", sa.String(length=260), nullable=False),
        sa.Column("conversation_id", sa.String(length=128), nullable=False),
        sa.Column("turn_id", sa.String(length=128), nullable=True),
        sa.Column("property_id", sa.String(length=128), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("rubric_version", sa.String(length=64), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("headline", sa.String(length=128), nullable=False),
        sa.Column("reason", sa.String(length=1024), nullable=False),
        sa.Column("owner", sa.String(length=8), nullable=True),
        sa.Column("dimensions", sa.JSON(), nullable=False),
        sa.Column("citations", sa.JSON(), nullable=False),
        sa.Column("usage", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("machine_grades", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_machine_grades_conversation_id"), ["conversation_id"], unique=False
        )
        batch_op.create_index("ix_machine_grades_item", ["item_type", "item_ref", "created_at"], unique=False)
        batch_op.create_index(
            "ix_machine_grades_property_created", ["property_id", "created_at"], unique=False
        )

    op.create_table(
        "principles",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("statement", sa.String(length=1024), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("superseded_by", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["superseded_by"],
            ["principles.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "properties",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("locale", sa.String(length=35), nullable=False),
        sa.Column("slack_channel_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("properties", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_properties_slack_channel_id"), ["slack_channel_id"], unique=False
        )

    op.create_table(
        "slack_events",
        sa.Column("event_id", sa.String(length=128), nullable=False),
        sa.Column("kind", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=256), nullable=True),
        sa.PrimaryKeyConstraint("event_id"),
    )
    with op.batch_alter_table("slack_events", schema=None) as batch_op:
        batch_op.create_index("ix_slack_events_unprocessed", ["processed_at", "received_at"], unique=False)

    op.create_table(
        "slack_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("operation", sa.String(length=16), nullable=False),
        sa.Column("idempotency_key", sa.String(length=256), nullable=False),
        sa.Column("property_id", sa.String(length=128), nullable=True),
        sa.Column("conversation_id", sa.String(length=128), nullable=True),
        sa.Column("turn_id", sa.String(length=128), nullable=True),
        sa.Column("machine_grade_id", sa.String(length=36), nullable=True),
        sa.Column("channel", sa.String(length=32), nullable=True),
        sa.Column("parent_post_id", sa.Integer(), nullable=True),
        sa.Column("thread_ts", sa.String(length=32), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(length=1024), nullable=True),
        sa.Column("ambiguous", sa.Boolean(), nullable=False),
        sa.Column("lookups_failed", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ts", sa.String(length=32), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["parent_post_id"],
            ["slack_posts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("idempotency_key"),
    )
    with op.batch_alter_table("slack_posts", schema=None) as batch_op:
        batch_op.create_index("ix_slack_posts_channel_ts", ["channel", "ts"], unique=False)
        batch_op.create_index("ix_slack_posts_conversation", ["conversation_id", "kind"], unique=False)
        batch_op.create_index("ix_slack_posts_due", ["status", "next_attempt_at"], unique=False)

    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
    )
    op.create_table(
        "grade_verdicts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("grader_user_id", sa.Integer(), nullable=False),
        sa.Column("item_type", sa.String(length=16), nullable=False),
        sa.Column("item_ref", sa.String(length=260), nullable=False),
        sa.Column("conversation_id", sa.String(length=128), nullable=False),
        sa.Column("turn_id", sa.String(length=128), nullable=True),
        sa.Column("property_id", sa.String(length=128), nullable=False),
        sa.Column("signal", sa.String(length=16), nullable=False),
        sa.Column("expected_level", sa.String(length=8), nullable=True),
        sa.Column("note", sa.String(length=4000), nullable=True),
        sa.Column("principles", sa.JSON(), nullable=False),
        sa.Column("error_class", sa.String(length=8), nullable=True),
        sa.Column("machine_grade_id", sa.String(length=36), nullable=False),
        sa.Column("machine_grade_at_time", sa.JSON(), nullable=False),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("retracts_id", sa.Integer(), nullable=True),
        sa.Column("act_key", sa.String(length=256), nullable=True),
        sa.Column("slack_channel", sa.String(length=32), nullable=True),
        sa.Column("slack_ts", sa.String(length=32), nullable=True),
        sa.Column("slack_event_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["grader_user_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["machine_grade_id"],
            ["machine_grades.id"],
        ),
        sa.ForeignKeyConstraint(
            ["retracts_id"],
            ["grade_verdicts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("act_key"),
    )
    with op.batch_alter_table("grade_verdicts", schema=None) as batch_op:
        batch_op.create_index("ix_grade_verdicts_created", ["created_at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_grade_verdicts_grader_user_id"), ["grader_user_id"], unique=False
        )
        batch_op.create_index(
            "ix_grade_verdicts_item", ["item_type", "item_ref", "grader_user_id"], unique=False
        )
        batch_op.create_index(
            "ix_grade_verdicts_property_created", ["property_id", "created_at"], unique=False
        )

    op.create_table(
        "slack_identities",
        sa.Column("slack_user_id", sa.String(length=32), nullable=False),
        sa.Column("team_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("linked_by", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("slack_user_id"),
    )
    with op.batch_alter_table("slack_identities", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_slack_identities_user_id"), ["user_id"], unique=False)

    op.create_table(
        "fixtures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("verdict_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("path", sa.String(length=1024), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.String(length=1024), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["grade_verdicts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("verdict_id"),
    )
    op.create_table(
        "pending_acts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slack_user_id", sa.String(length=32), nullable=False),
        sa.Column("act", sa.JSON(), nullable=False),
        sa.Column("act_key", sa.String(length=256), nullable=False),
        sa.Column("machine_grade_id", sa.String(length=36), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("verdict_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["grade_verdicts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("act_key"),
    )
    with op.batch_alter_table("pending_acts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pending_acts_slack_user_id"), ["slack_user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("pending_acts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pending_acts_slack_user_id"))

    op.drop_table("pending_acts")
    op.drop_table("fixtures")
    with op.batch_alter_table("slack_identities", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_slack_identities_user_id"))

    op.drop_table("slack_identities")
    with op.batch_alter_table("grade_verdicts", schema=None) as batch_op:
        batch_op.drop_index("ix_grade_verdicts_property_created")
        batch_op.drop_index("ix_grade_verdicts_item")
        batch_op.drop_index(batch_op.f("ix_grade_verdicts_grader_user_id"))
        batch_op.drop_index("ix_grade_verdicts_created")

    op.drop_table("grade_verdicts")
    op.drop_table("users")
    with op.batch_alter_table("slack_posts", schema=None) as batch_op:
        batch_op.drop_index("ix_slack_posts_due")
        batch_op.drop_index("ix_slack_posts_conversation")
        batch_op.drop_index("ix_slack_posts_channel_ts")

    op.drop_table("slack_posts")
    with op.batch_alter_table("slack_events", schema=None) as batch_op:
        batch_op.drop_index("ix_slack_events_unprocessed")

    op.drop_table("slack_events")
    with op.batch_alter_table("properties", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_properties_slack_channel_id"))

    op.drop_table("properties")
    op.drop_table("principles")
    with op.batch_alter_table("machine_grades", schema=None) as batch_op:
        batch_op.drop_index("ix_machine_grades_property_created")
        batch_op.drop_index("ix_machine_grades_item")
        batch_op.drop_index(batch_op.f("ix_machine_grades_conversation_id"))

    op.drop_table("machine_grades")
    op.drop_table("job_runs")
    with op.batch_alter_table("conversation_records", schema=None) as batch_op:
        batch_op.drop_index("ix_conversation_records_property_settled")

    op.drop_table("conversation_records")
