"""Indexes that make every daily and interactive read an index range at a year of traffic

(docs/query-plans.md names the query each one serves.)

Revision ID: scale
Revises: h10d
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "scale"
down_revision: str | None = "h10d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Copied, not imported: a revision is frozen, whatever the models become.
FAILING_DIMENSIONS = """CAST(dimensions AS TEXT) LIKE '%"fail"%'"""
RECOVERED_TOOL_ERRORS = "item_type = 'turn' AND CAST(dimensions AS TEXT) LIKE '%tools.recovered%'"


def _partial(where: str) -> dict[str, object]:
    return {"postgresql_where": sa.text(where), "sqlite_where": sa.text(where)}


INDEXES: tuple[tuple[str, str, list[str], dict[str, object]], ...] = (
    (
        "ix_machine_grades_property_type_created",
        "machine_grades",
        ["property_id", "item_type", "created_at"],
        {"postgresql_include": ["conversation_id", "level", "id"]},
    ),
    ("ix_machine_grades_type_created", "machine_grades", ["item_type", "created_at"], {}),
    ("ix_machine_grades_failing", "machine_grades", ["created_at"], _partial(FAILING_DIMENSIONS)),
    ("ix_machine_grades_recovered", "machine_grades", ["created_at"], _partial(RECOVERED_TOOL_ERRORS)),
    ("ix_grade_verdicts_conversation", "grade_verdicts", ["conversation_id"], {}),
    ("ix_grade_verdicts_retracts", "grade_verdicts", ["retracts_id"], {}),
    ("ix_grade_verdicts_judged", "grade_verdicts", ["id"], _partial("expected_level IS NOT NULL")),
    ("ix_fixtures_verdict_status", "fixtures", ["verdict_id", "status"], {}),
    ("ix_slack_posts_status_channel", "slack_posts", ["status", "channel", "id"], {}),
    ("ix_slack_posts_status_id", "slack_posts", ["status", "id"], {}),
)


def upgrade() -> None:
    for name, table, columns, options in INDEXES:
        op.create_index(name, table, columns, unique=False, **options)


def downgrade() -> None:
    for name, table, _, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
