"""The tables (docs/storage.md). Rows are written only through `gradecore.persistence.store`.

MachineGrade and GradeVerdict are append-only: the store offers no update or delete for them, and a
retraction is a new verdict row pointing at what it retracts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Dialect, Index, TypeDecorator, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from gradecore.model.contract import MAX_ID_CHARS, MAX_LANGUAGE_TAG_CHARS
from gradecore.model.keys import ITEM_REF_MAX_CHARS, POST_KEY_MAX_CHARS
from gradecore.model.vocabulary import MAX_REASON_CHARS


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware on every backend: SQLite drops the offset, so store UTC and restore it on read."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; give a timezone")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


def _when(*, nullable: bool = False) -> Any:
    if nullable:
        return Field(default=None, sa_column=Column(UTCDateTime(), nullable=True))
    return Field(default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False))


def _json(*, nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(JSON, nullable=nullable))


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=320, unique=True)  # stored lower-cased: unique case-insensitively
    name: str = Field(max_length=256)
    role: str = Field(max_length=16)  # staff | engineer | admin
    active: bool = True
    created_at: datetime = _when()


class SlackIdentity(SQLModel, table=True):
    __tablename__ = "slack_identities"

    slack_user_id: str = Field(primary_key=True, max_length=32)
    team_id: str = Field(default="", max_length=32)
    user_id: int = Field(foreign_key="users.id", index=True)
    linked_by: str = Field(max_length=16)  # email | admin
    created_at: datetime = _when()


class Property(SQLModel, table=True):
    __tablename__ = "properties"

    id: str = Field(primary_key=True, max_length=MAX_ID_CHARS)
    name: str = Field(max_length=256)
    timezone: str = Field(max_length=64)
    locale: str = Field(default="en", max_length=MAX_LANGUAGE_TAG_CHARS)
    slack_channel_id: str | None = Field(default=None, max_length=32, index=True)
    created_at: datetime = _when()
    updated_at: datetime = _when()


class ConversationRecord(SQLModel, table=True):
    __tablename__ = "conversation_records"
    __table_args__ = (Index("ix_conversation_records_property_settled", "property_id", "settled_at"),)

    conversation_id: str = Field(primary_key=True, max_length=MAX_ID_CHARS)
    property_id: str = Field(max_length=MAX_ID_CHARS)
    content_hash: str = Field(max_length=64)
    document: dict[str, Any] = _json()
    received_at: datetime = _when()
    settled_at: datetime = _when()


# Grades whose dimensions say "fail" somewhere, and turn grades with a retry that recovered a tool error
# (cerebrus.checks.tools_succeeded.RECOVERED_ENTRY): the few rows the weekly digest must look into, kept
# in partial indexes so it never reads a month of dimensions (docs/query-plans.md). The readers use
# these very predicates, so the planner can prove the index applies.
FAILING_DIMENSIONS = """CAST(dimensions AS TEXT) LIKE '%"fail"%'"""
RECOVERED_TOOL_ERRORS = "item_type = 'turn' AND CAST(dimensions AS TEXT) LIKE '%tools.recovered%'"


class MachineGrade(SQLModel, table=True):
    __tablename__ = "machine_grades"
    __table_args__ = (
        Index("ix_machine_grades_property_created", "property_id", "created_at"),
        Index("ix_machine_grades_item", "item_type", "item_ref", "created_at"),
        # The window reads of docs/query-plans.md: one property's, or every property's, grades of a kind.
        Index(
            "ix_machine_grades_property_type_created",
            "property_id",
            "item_type",
            "created_at",
            postgresql_include=["conversation_id", "level", "id"],
        ),
        Index("ix_machine_grades_type_created", "item_type", "created_at"),
        Index(
            "ix_machine_grades_failing",
            "created_at",
            postgresql_where=text(FAILING_DIMENSIONS),
            sqlite_where=text(FAILING_DIMENSIONS),
        ),
        Index(
            "ix_machine_grades_recovered",
            "created_at",
            postgresql_where=text(RECOVERED_TOOL_ERRORS),
            sqlite_where=text(RECOVERED_TOOL_ERRORS),
        ),
    )

    id: str = Field(primary_key=True, max_length=36)
    item_type: str = Field(max_length=16)  # conversation | turn
    item_ref: str = Field(max_length=ITEM_REF_MAX_CHARS)  # built by gradecore.model.keys.item_ref
    conversation_id: str = Field(max_length=MAX_ID_CHARS, index=True)
    turn_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    property_id: str = Field(max_length=MAX_ID_CHARS)
    source: str = Field(max_length=32)  # cerebrus.deterministic | cerebrus.judge
    rubric_version: str = Field(max_length=64)
    content_hash: str = Field(max_length=64)
    level: str = Field(max_length=8)
    headline: str = Field(max_length=128)  # a reason slug: one of the checks' own constants
    reason: str = Field(max_length=MAX_REASON_CHARS)
    owner: str | None = Field(default=None, max_length=8)
    dimensions: list[dict[str, Any]] = _json()
    citations: list[dict[str, Any]] = _json()
    usage: dict[str, Any] | None = _json(nullable=True)
    created_at: datetime = _when()


class GradeVerdict(SQLModel, table=True):
    __tablename__ = "grade_verdicts"
    __table_args__ = (
        Index("ix_grade_verdicts_created", "created_at"),
        Index("ix_grade_verdicts_item", "item_type", "item_ref", "grader_user_id"),
        Index("ix_grade_verdicts_property_created", "property_id", "created_at"),
        Index("ix_grade_verdicts_conversation", "conversation_id"),
        Index("ix_grade_verdicts_retracts", "retracts_id"),
        # The sweep's walk: the acts that name a level, by id, without reading their rows.
        Index(
            "ix_grade_verdicts_judged",
            "id",
            postgresql_where=text("expected_level IS NOT NULL"),
            sqlite_where=text("expected_level IS NOT NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    grader_user_id: int = Field(foreign_key="users.id", index=True)
    item_type: str = Field(max_length=16)
    item_ref: str = Field(max_length=ITEM_REF_MAX_CHARS)
    conversation_id: str = Field(max_length=MAX_ID_CHARS)
    turn_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    property_id: str = Field(max_length=MAX_ID_CHARS)
    signal: str = Field(max_length=16)  # up | down | correction | retraction
    expected_level: str | None = Field(default=None, max_length=8)
    note: str | None = Field(default=None, max_length=4000)
    principles: list[str] = _json()
    error_class: str | None = Field(default=None, max_length=8)  # clara | ours | grader
    machine_grade_id: str = Field(foreign_key="machine_grades.id", max_length=36)
    machine_grade_at_time: dict[str, Any] = _json()
    origin: str = Field(max_length=16)  # slack_reaction | slack_reply | slack_modal | cli
    retracts_id: int | None = Field(default=None, foreign_key="grade_verdicts.id")
    act_key: str | None = Field(default=None, max_length=256, unique=True)
    slack_channel: str | None = Field(default=None, max_length=32)
    slack_ts: str | None = Field(default=None, max_length=32)
    slack_event_id: str | None = Field(default=None, max_length=64)
    created_at: datetime = _when()


class Principle(SQLModel, table=True):
    __tablename__ = "principles"

    id: str = Field(primary_key=True, max_length=64)
    statement: str = Field(max_length=1024)
    status: str = Field(max_length=16)  # candidate | active | promoted | retired
    superseded_by: str | None = Field(default=None, foreign_key="principles.id", max_length=64)
    created_at: datetime = _when()


class SlackPost(SQLModel, table=True):
    __tablename__ = "slack_posts"
    __table_args__ = (
        Index("ix_slack_posts_due", "status", "next_attempt_at"),
        Index("ix_slack_posts_channel_ts", "channel", "ts"),
        Index("ix_slack_posts_conversation", "conversation_id", "kind"),
        # The relay's claim walks each channel's oldest pending posts; listings walk one status by id.
        Index("ix_slack_posts_status_channel", "status", "channel", "id"),
        Index("ix_slack_posts_status_id", "status", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=16)  # conversation | turn | tally | digest | notice
    operation: str = Field(default="post", max_length=16)  # post | update | ephemeral
    idempotency_key: str = Field(max_length=POST_KEY_MAX_CHARS, unique=True)
    property_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    conversation_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    turn_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    machine_grade_id: str | None = Field(default=None, max_length=36)
    channel: str | None = Field(default=None, max_length=32)
    parent_post_id: int | None = Field(default=None, foreign_key="slack_posts.id")
    thread_ts: str | None = Field(default=None, max_length=32)
    # Who an ephemeral is shown to (a Slack user id); None for every other operation.
    recipient: str | None = Field(default=None, max_length=32)
    payload: dict[str, Any] = _json()
    status: str = Field(max_length=16)  # pending | posted | failed | unrouted
    attempts: int = 0
    last_error: str | None = Field(default=None, max_length=1024)
    # Set when a send may have reached Slack without an answer: look the post up before resending.
    ambiguous: bool = False
    lookups_failed: int = 0
    # A relay claims a post by leasing it; an expired lease means its relay died mid-send.
    lease_owner: str | None = Field(default=None, max_length=64)
    lease_until: datetime | None = _when(nullable=True)
    ts: str | None = Field(default=None, max_length=32)
    next_attempt_at: datetime = _when()
    created_at: datetime = _when()
    updated_at: datetime = _when()


class SlackEvent(SQLModel, table=True):
    """The inbox: every acked Slack event, recorded before the ack, processed after it."""

    __tablename__ = "slack_events"
    __table_args__ = (
        Index("ix_slack_events_unprocessed", "processed_at", "received_at"),
        Index("ix_slack_events_parked", "parked_at"),
    )

    event_id: str = Field(primary_key=True, max_length=128)
    kind: str = Field(max_length=64)
    payload: dict[str, Any] = _json()
    received_at: datetime = _when()
    processed_at: datetime | None = _when(nullable=True)
    attempts: int = 0
    outcome: str | None = Field(default=None, max_length=256)
    # A failed event waits until then before the sweep tries it again (backing off).
    next_attempt_at: datetime | None = _when(nullable=True)
    # Set once an event has failed too often: the sweep leaves it alone, and /readyz counts it.
    parked_at: datetime | None = _when(nullable=True)


class PendingAct(SQLModel, table=True):
    """A human act by a Slack user with no User yet; becomes a verdict once an admin links them."""

    __tablename__ = "pending_acts"

    id: int | None = Field(default=None, primary_key=True)
    slack_user_id: str = Field(max_length=32, index=True)
    act: dict[str, Any] = _json()
    act_key: str = Field(max_length=256, unique=True)
    machine_grade_id: str = Field(max_length=36)
    created_at: datetime = _when()
    resolved_at: datetime | None = _when(nullable=True)
    verdict_id: int | None = Field(default=None, foreign_key="grade_verdicts.id")


class Fixture(SQLModel, table=True):
    __tablename__ = "fixtures"
    # The sweep's anti-join reads (verdict, status) from the index alone.
    __table_args__ = (Index("ix_fixtures_verdict_status", "verdict_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    verdict_id: int = Field(foreign_key="grade_verdicts.id", unique=True)
    kind: str = Field(max_length=16)  # grader | clara | ours
    path: str | None = Field(default=None, max_length=1024)
    content_hash: str | None = Field(default=None, max_length=64)
    status: str = Field(default="written", max_length=16)  # written | refused | superseded | failed | parked
    detail: str | None = Field(default=None, max_length=1024)
    # Failed tries so far: a verdict whose sweep keeps failing is parked after a few, never retried for ever.
    attempts: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    created_at: datetime = _when()


class JobRun(SQLModel, table=True):
    __tablename__ = "job_runs"
    __table_args__ = (UniqueConstraint("job", "period", name="uq_job_runs_job_period"),)

    id: int | None = Field(default=None, primary_key=True)
    job: str = Field(max_length=64)
    period: str = Field(max_length=64)
    started_at: datetime = _when()
    finished_at: datetime | None = _when(nullable=True)
    outcome: str | None = Field(default=None, max_length=32)
    counts: dict[str, Any] | None = _json(nullable=True)


class TicketSignature(SQLModel, table=True):
    """One root cause of *ours* failures, and the state of its ticket (docs/tickets.md).

    `watching` until a grader confirms an occurrence, then `open`; `closed` after a quiet spell, and
    `open` again (times_reopened + 1) when it recurs.
    """

    __tablename__ = "ticket_signatures"

    id: str = Field(primary_key=True, max_length=16)
    check_id: str = Field(max_length=64)
    layer: str = Field(max_length=16)
    cause: str = Field(max_length=512)
    status: str = Field(default="watching", max_length=16)  # watching | open | closed
    status_changed_at: datetime = _when()
    times_reopened: int = 0
    tracker: str | None = Field(default=None, max_length=16)  # markdown | github
    tracker_ref: str | None = Field(default=None, max_length=256)  # a file path or an issue number
    tracker_url: str | None = Field(default=None, max_length=1024)
    # Set before a tracker create is attempted: after a crash the tracker is searched before filing.
    creating_since: datetime | None = _when(nullable=True)
    synced_body_hash: str | None = Field(default=None, max_length=64)
    synced_counts: dict[str, Any] | None = _json(nullable=True)
    history: list[dict[str, Any]] = _json()
    created_at: datetime = _when()
    updated_at: datetime = _when()


class TicketOccurrence(SQLModel, table=True):
    """A graded item that failed with a signature: counted once per item, however often regraded."""

    __tablename__ = "ticket_occurrences"
    __table_args__ = (
        UniqueConstraint("signature_id", "conversation_id", "turn_key", name="uq_ticket_occurrences_item"),
        Index("ix_ticket_occurrences_signature_seen", "signature_id", "seen_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    signature_id: str = Field(foreign_key="ticket_signatures.id", max_length=16)
    conversation_id: str = Field(max_length=128)
    turn_key: str = Field(default="", max_length=128)  # the turn id; "" for a conversation-level failure
    property_id: str = Field(max_length=128)
    machine_grade_id: str = Field(max_length=36)
    seen_at: datetime = _when()  # when it happened: the conversation's settled_at
    recorded_at: datetime = _when()  # when the sweep saw it


class TicketConfirmation(SQLModel, table=True):
    """A grader's act that confirmed a signature (a 👍 on an *ours* failure, or an *ours* correction)."""

    __tablename__ = "ticket_confirmations"
    __table_args__ = (UniqueConstraint("signature_id", "verdict_id", name="uq_ticket_confirmations_verdict"),)

    id: int | None = Field(default=None, primary_key=True)
    signature_id: str = Field(foreign_key="ticket_signatures.id", max_length=16, index=True)
    verdict_id: int = Field(foreign_key="grade_verdicts.id")
    signal: str = Field(max_length=16)  # up | correction
    property_id: str = Field(max_length=128)
    example: str | None = Field(default=None, max_length=2000)  # anonymized excerpt of the graded turn
    receipts: list[str] = _json()  # anonymized receipt lines
    created_at: datetime = _when()


class TicketScan(SQLModel, table=True):
    """How far the sweep has read machine grades for occurrences (one row)."""

    __tablename__ = "ticket_scan"

    id: int = Field(default=1, primary_key=True)
    scanned_through: datetime = _when()


class ChannelPace(SQLModel, table=True):
    """When a channel may take its next message, shared by every relay (replica) through the database.

    Slack allows about one message per second per channel and counts across all senders, so pacing
    kept in one process's memory lets two replicas post within milliseconds and earn 429s. `holder`
    is the relay with a send in flight: until it answers (or its hold runs out), nobody else sends.
    """

    __tablename__ = "channel_pace"

    channel: str = Field(primary_key=True, max_length=32)
    next_allowed_at: datetime = _when()
    holder: str | None = Field(default=None, max_length=64)


class JudgeRequest(SQLModel, table=True):
    """A conversation whose judged dimensions are still owed (the judge lane runs after ingest).

    Written in ingest's transaction, so a restart never loses the need; removed once the judged grade
    is recorded. A worker leases it, as the relay leases posts, so two replicas never judge it twice.
    """

    __tablename__ = "judge_requests"

    conversation_id: str = Field(primary_key=True, max_length=128)
    content_hash: str = Field(max_length=64)
    requested_at: datetime = _when()
    attempts: int = 0
    lease_owner: str | None = Field(default=None, max_length=64)
    lease_until: datetime | None = _when(nullable=True)


ALL_TABLES = [
    User,
    SlackIdentity,
    Property,
    ConversationRecord,
    MachineGrade,
    GradeVerdict,
    Principle,
    SlackPost,
    SlackEvent,
    PendingAct,
    Fixture,
    JobRun,
    TicketSignature,
    TicketOccurrence,
    TicketConfirmation,
    TicketScan,
    ChannelPace,
    JudgeRequest,
]
