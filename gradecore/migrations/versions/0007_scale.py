"""Indexes that make every daily and interactive read an index range at a year of traffic

(docs/query-plans.md names the query each one serves.)

Revision ID: scale
Revises: h10d
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "scale"
down_revision: str | None = "h10d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES: tuple[tuple[str, str, list[str]], ...] = (
    ("ix_machine_grades_property_type_created", "machine_grades", ["property_id", "item_type", "created_at"]),
    ("ix_machine_grades_type_created", "machine_grades", ["item_type", "created_at"]),
    ("ix_grade_verdicts_conversation", "grade_verdicts", ["conversation_id"]),
    ("ix_grade_verdicts_retracts", "grade_verdicts", ["retracts_id"]),
    ("ix_slack_posts_status_channel", "slack_posts", ["status", "channel", "id"]),
    ("ix_slack_posts_status_id", "slack_posts", ["status", "id"]),
)


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns, unique=False)


def downgrade() -> None:
    for name, table, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
