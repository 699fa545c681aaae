"""What the CLI's listing commands read (`smith users list`, `smith properties list`, `smith outbox`),
in SQLAlchemy Core over lightweight table clauses.

A listing only reads a few columns and prints them, so it does without the ORM: importing SQLModel and
building the entity classes costs a `smith` process more than the rest of its start-up together
(docs/operations.md, command start-up). The tables are named here a second time, as clauses; a test
checks every clause against the entities' metadata, so a renamed column fails there, not in a user's
terminal. The outbox's counts have their one home here (the repository calls it too).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Boolean, Connection, Integer, column, func, select, table

from gradecore.persistence.post_status import STATUSES

USERS = table(
    "users", column("id", Integer), column("email"), column("name"), column("role"), column("active", Boolean)
)
SLACK_IDENTITIES = table("slack_identities", column("user_id", Integer), column("slack_user_id"))
PROPERTIES = table(
    "properties",
    column("id"),
    column("name"),
    column("timezone"),
    column("locale"),
    column("slack_channel_id"),
)
SLACK_POSTS = table(
    "slack_posts",
    column("id", Integer),
    column("kind"),
    column("operation"),
    column("status"),
    column("channel"),
    column("attempts", Integer),
    column("ts"),
    column("last_error"),
    column("property_id"),
    column("conversation_id"),
)
TABLES = (USERS, SLACK_IDENTITIES, PROPERTIES, SLACK_POSTS)


@dataclass(frozen=True)
class UserListing:
    email: str
    name: str
    role: str
    active: bool
    slack_user_ids: tuple[str, ...]


@dataclass(frozen=True)
class PropertyListing:
    id: str
    name: str
    timezone: str
    locale: str
    channel: str | None


@dataclass(frozen=True)
class PostListing:
    id: int
    kind: str
    operation: str
    status: str
    channel: str | None
    attempts: int
    ts: str | None
    last_error: str | None
    property_id: str | None = None
    conversation_id: str | None = None


def users(connection: Connection) -> list[UserListing]:
    """Every user by email, each with the Slack users linked to it (one query, not one per user)."""
    linked = SLACK_IDENTITIES.c
    query = (
        select(USERS.c.id, USERS.c.email, USERS.c.name, USERS.c.role, USERS.c.active, linked.slack_user_id)
        .outerjoin(SLACK_IDENTITIES, linked.user_id == USERS.c.id)
        .order_by(USERS.c.email, linked.slack_user_id)
    )
    found: dict[int, UserListing] = {}
    for user_id, email, name, role, active, slack_user_id in connection.execute(query):
        listed = found.get(user_id) or UserListing(email, name, role, bool(active), ())
        if slack_user_id is not None:
            listed = UserListing(email, name, role, bool(active), (*listed.slack_user_ids, slack_user_id))
        found[user_id] = listed
    return list(found.values())


def properties(connection: Connection) -> list[PropertyListing]:
    """Every property by id."""
    columns = PROPERTIES.c
    query = select(columns.id, columns.name, columns.timezone, columns.locale, columns.slack_channel_id)
    return [PropertyListing(*row) for row in connection.execute(query.order_by(columns.id))]


def posts(connection: Connection, status: str | None = None, limit: int = 50) -> list[PostListing]:
    """The newest posts (by id), of one status or of all; a range of `ix_slack_posts_status_id` or of the
    primary key, however long the outbox's history."""
    columns = SLACK_POSTS.c
    query = select(
        columns.id,
        columns.kind,
        columns.operation,
        columns.status,
        columns.channel,
        columns.attempts,
        columns.ts,
        columns.last_error,
        columns.property_id,
        columns.conversation_id,
    )
    if status is not None:
        query = query.where(columns.status == status)
    rows = connection.execute(query.order_by(columns.id.desc()).limit(limit))
    return [PostListing(**row._mapping) for row in rows]


def post_counts(connection: Connection, *, up_to: int | None = None) -> dict[str, int]:
    """Posts per status. With `up_to`, a status is counted no further than `up_to` + 1 (an index range
    that stops): a year of delivered posts need not be walked to say "more than 10,000"."""
    counts: dict[str, int] = {}
    for status in STATUSES:
        matching = select(SLACK_POSTS.c.id).where(SLACK_POSTS.c.status == status)
        if up_to is not None:
            matching = matching.limit(up_to + 1)
        query = select(func.count()).select_from(matching.subquery())
        counts[status] = int(connection.execute(query).scalar_one())
    return counts
