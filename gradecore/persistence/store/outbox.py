"""The outbox: SlackPost rows written with the grades, and the relay's claim/settle operations.

A relay claims a post by leasing it with a compare-and-set update, so two relays (replicas) never
hold the same post; on PostgreSQL the candidate scan also skips rows another relay has locked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, exists, func, or_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from gradecore.persistence import listings
from gradecore.persistence.entities import ChannelPace, SlackPost, utcnow
from gradecore.persistence.post_status import CHANNEL_FAILURES, FAILED, PENDING, POSTED, STATUSES, UNROUTED

__all__ = ["FAILED", "PENDING", "POSTED", "STATUSES", "UNROUTED", "OutboxRepo"]


@dataclass(frozen=True)
class PostRef:
    """A posted Smith message as acting on it needs it (without its large payload)."""

    id: int
    kind: str
    conversation_id: str | None
    turn_id: str | None
    property_id: str | None
    ts: str | None


@dataclass(frozen=True)
class ChannelTurn:
    """The answer to "may this relay send to the channel now?"."""

    granted: bool
    wait: float = 0.0  # seconds until the channel may be free again (when not granted)
    in_flight: bool = False  # another relay holds the channel: a send of theirs is under way


_NO_CUT = 2**62  # above any post id: a channel with fewer due posts than its share takes them all

_POST_REF_COLUMNS: tuple[Any, ...] = tuple(col(getattr(SlackPost, f.name)) for f in fields(PostRef))


@dataclass(frozen=True)
class QueuedRef:
    """A queued post as deciding what else to queue needs it."""

    id: int
    kind: str
    operation: str
    turn_id: str | None


_QUEUED_REF_COLUMNS: tuple[Any, ...] = (
    col(SlackPost.idempotency_key),
    *(col(getattr(SlackPost, f.name)) for f in fields(QueuedRef)),
)
# SQLite allows 32,766 bound parameters per statement (999 before 3.32); a post row binds ~20.
_ROWS_PER_INSERT = 40


class OutboxRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    # --- writing the queue -----------------------------------------------------------------------

    def add(self, post: SlackPost) -> tuple[SlackPost, bool]:
        """Queue a post; a post with the same idempotency key is never queued twice."""
        existing = self.by_key(post.idempotency_key)
        if existing is not None:
            return existing, False
        self._session.add(post)
        self._session.flush()
        return post, True

    def insert_new(self, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
        """Insert the rows whose idempotency key is new, a batch per statement; {key: id} of those
        inserted. A key another writer holds is skipped (`ON CONFLICT DO NOTHING`: on PostgreSQL the
        insert waits for that writer's transaction, then skips) instead of failing the transaction."""
        insert: Any = postgresql_insert if self._is_postgres() else sqlite_insert
        table = SlackPost.__table__  # type: ignore[attr-defined]
        inserted: dict[str, int] = {}
        for start in range(0, len(rows), _ROWS_PER_INSERT):
            statement = (
                insert(table)
                .values(list(rows[start : start + _ROWS_PER_INSERT]))
                .on_conflict_do_nothing(index_elements=["idempotency_key"])
                .returning(table.c.idempotency_key, table.c.id)
            )
            inserted.update({str(key): int(post_id) for key, post_id in self._session.execute(statement)})
        return inserted

    def queued_for_conversation(self, conversation_id: str) -> dict[str, QueuedRef]:
        """Every post queued about a conversation (edits too), by idempotency key, without payloads:
        what queuing a grade's posts needs to know, in one query."""
        query = select(*_QUEUED_REF_COLUMNS).where(col(SlackPost.conversation_id) == conversation_id)
        rows = self._session.connection().execute(query)
        return {str(row[0]): QueuedRef(*row[1:]) for row in rows}

    def latest_edit(self, parent_post_id: int, *, kind: str | None = None) -> SlackPost | None:
        """The last edit queued of the post `parent_post_id` (of one `kind`, if given)."""
        query = select(SlackPost).where(*self._edits_of(parent_post_id, kind))
        return self._session.exec(query.order_by(col(SlackPost.id).desc()).limit(1)).first()

    def count_edits(self, parent_post_id: int, *, kind: str) -> int:
        """How many edits of one `kind` were ever queued of the post `parent_post_id`."""
        query = select(func.count()).select_from(SlackPost).where(*self._edits_of(parent_post_id, kind))
        return int(self._session.exec(query).one())

    @staticmethod
    def _edits_of(parent_post_id: int, kind: str | None) -> tuple[Any, ...]:
        if kind is None:
            return (col(SlackPost.parent_post_id) == parent_post_id, col(SlackPost.operation) == "update")
        return (col(SlackPost.parent_post_id) == parent_post_id, col(SlackPost.kind) == kind)

    def replace_waiting_payload(self, post_id: int, payload: dict[str, Any], now: datetime) -> bool:
        """Replace a waiting post's message, only while no relay holds it (compare-and-set): True when
        it was replaced."""
        statement = (
            update(SlackPost)
            .where(
                col(SlackPost.id) == post_id,
                col(SlackPost.status) == PENDING,
                or_(col(SlackPost.lease_until).is_(None), col(SlackPost.lease_until) < now),
            )
            .values(payload=payload, updated_at=now)
        )
        return bool(self._session.exec(statement).rowcount == 1)

    def sent_parents_in(self, channels: Iterable[str], *, offset: int, limit: int) -> Sequence[SlackPost]:
        """A page of the conversation posts (parents) sent to these channels, newest first."""
        query = (
            select(SlackPost)
            .where(
                col(SlackPost.kind) == "conversation",
                col(SlackPost.operation) == "post",
                col(SlackPost.ts).is_not(None),
                col(SlackPost.channel).in_(set(channels)),
            )
            .order_by(col(SlackPost.id).desc())
        )
        return self._session.exec(query.offset(offset).limit(limit)).all()

    def get(self, post_id: int) -> SlackPost | None:
        return self._session.get(SlackPost, post_id)

    def by_key(self, idempotency_key: str) -> SlackPost | None:
        return self._session.exec(
            select(SlackPost).where(SlackPost.idempotency_key == idempotency_key)
        ).first()

    def for_conversation(self, conversation_id: str) -> Sequence[SlackPost]:
        query = (
            select(SlackPost).where(SlackPost.conversation_id == conversation_id).order_by(col(SlackPost.id))
        )
        return self._session.exec(query).all()

    def ref_by_channel_ts(self, channel: str, ts: str) -> PostRef | None:
        """`by_channel_ts`, reading only what acting needs."""
        query = select(*_POST_REF_COLUMNS).where(
            col(SlackPost.channel) == channel, col(SlackPost.ts) == ts, col(SlackPost.operation) == "post"
        )
        row = self._session.connection().execute(query.limit(1)).first()
        return None if row is None else PostRef(*row)

    def thread_refs(self, parent_id: int) -> list[PostRef]:
        """`thread_posts`, reading only what acting needs."""
        query = select(*_POST_REF_COLUMNS).where(
            or_(col(SlackPost.id) == parent_id, col(SlackPost.parent_post_id) == parent_id),
            col(SlackPost.operation) == "post",
            col(SlackPost.ts).is_not(None),
        )
        refs = [PostRef(*row) for row in self._session.connection().execute(query)]
        return sorted(refs, key=lambda ref: float(ref.ts or 0))

    def list(self, status: str | None = None, limit: int = 200) -> Sequence[SlackPost]:
        query = select(SlackPost)
        if status is not None:
            query = query.where(SlackPost.status == status)
        return self._session.exec(query.order_by(col(SlackPost.id).desc()).limit(limit)).all()

    def counts(self, *, up_to: int | None = None) -> dict[str, int]:
        """Posts per status, counted no further than `up_to` + 1 when given (see `listings.post_counts`)."""
        return listings.post_counts(self._session.connection(), up_to=up_to)

    def has_deliverable(self, before: datetime) -> bool:
        """Is any pending post due before `before` whose parent has not failed? (drains stop otherwise)"""
        parent = aliased(SlackPost)
        query = (
            select(col(SlackPost.id))
            .outerjoin(parent, col(SlackPost.parent_post_id) == col(parent.id))
            .where(
                col(SlackPost.status) == PENDING,
                col(SlackPost.next_attempt_at) < before,
                or_(col(SlackPost.parent_post_id).is_(None), col(parent.status) != FAILED),
            )
            .limit(1)
        )
        return self._session.exec(query).first() is not None

    def route_parked(self, property_id: str, channel: str) -> int:
        """Give unrouted posts of a property their channel, so the relay delivers them."""
        statement = (
            update(SlackPost)
            .where(col(SlackPost.property_id) == property_id, col(SlackPost.status) == UNROUTED)
            .values(channel=channel, status=PENDING, next_attempt_at=utcnow(), updated_at=utcnow())
        )
        return int(self._session.exec(statement).rowcount)

    def requeue_channel_failures(self, property_id: str, channel: str) -> int:
        """Re-queue a property's posts that failed for a channel reason (CHANNEL_FAILURES) to `channel`:
        its channel was set again (`smith properties set --channel`)."""
        wrong_channel = or_(*(col(SlackPost.last_error).startswith(code) for code in CHANNEL_FAILURES))
        statement = (
            update(SlackPost)
            .where(col(SlackPost.property_id) == property_id, col(SlackPost.status) == FAILED, wrong_channel)
            .values(
                channel=channel,
                status=PENDING,
                attempts=0,
                last_error=None,
                next_attempt_at=utcnow(),
                updated_at=utcnow(),
            )
        )
        return int(self._session.exec(statement).rowcount)

    def repoint(self, post: SlackPost, channel: str) -> None:
        """Send a post not yet in Slack to `channel` (its property's current one, or its parent's)."""
        post.channel = channel
        self._session.add(post)

    def retry_failed(self) -> int:
        statement = (
            update(SlackPost)
            .where(col(SlackPost.status) == FAILED)
            .values(
                status=PENDING, attempts=0, last_error=None, next_attempt_at=utcnow(), updated_at=utcnow()
            )
        )
        return int(self._session.exec(statement).rowcount)

    # --- the relay's side ------------------------------------------------------------------------

    def claim_due(
        self, owner: str, *, now: datetime, lease: timedelta, limit: int = 50, per_channel: int = 10
    ) -> Sequence[SlackPost]:
        """Lease up to `limit` due posts whose parent (if any) already has its ts.

        At most `per_channel` per channel, oldest first: a backlog in one channel (paced at one message
        a second) must not hold up every other channel's fresh posts behind it.
        """
        # An index range whatever the backlog (docs/query-plans.md): the channels with pending posts are
        # found by skipping from one to the next on (status, channel, id), and each channel's range is
        # cut at its `per_channel`-th due post, so the work grows with channels × per_channel only.
        row = SlackPost.__table__.c  # type: ignore[attr-defined]
        channels = self._pending_channels()
        probe = aliased(SlackPost.__table__)  # type: ignore[attr-defined]
        cutoff = (
            select(probe.c.id)
            .where(probe.c.status == PENDING, probe.c.channel == channels.c.channel, self._due(probe.c, now))
            .order_by(probe.c.id)
            .offset(per_channel - 1)
            .limit(1)
            .scalar_subquery()
        )
        cuts = select(channels.c.channel, cutoff.label("last_id")).subquery("cuts")
        fair = (
            select(row.id)
            .join(cuts, row.channel == cuts.c.channel)
            .where(
                row.status == PENDING,
                self._due(row, now),
                row.id <= func.coalesce(cuts.c.last_id, _NO_CUT),  # an index bound, unlike an OR
            )
        )
        candidates = (
            select(col(SlackPost.id))
            .where(col(SlackPost.id).in_(fair.scalar_subquery()))
            .order_by(col(SlackPost.id))
            .limit(limit)
        )
        if self._is_postgres():
            candidates = candidates.with_for_update(skip_locked=True)
        ids = list(self._session.exec(candidates).all())
        if not ids:
            return []
        # One compare-and-set for the batch (at most `limit` ids, just locked above): a post another relay
        # leased meanwhile is left out, as before.
        statement = (
            update(SlackPost)
            .where(
                col(SlackPost.id).in_(ids),
                col(SlackPost.status) == PENDING,
                or_(col(SlackPost.lease_until).is_(None), col(SlackPost.lease_until) < now),
            )
            .values(lease_owner=owner, lease_until=now + lease)
            .returning(SlackPost)
            .execution_options(synchronize_session=False, populate_existing=True)
        )
        claimed = list(self._session.scalars(statement))
        return sorted(claimed, key=lambda post: post.id or 0)

    def _pending_channels(self) -> Any:
        """The distinct channels of pending posts, one index probe each (a recursive skip scan)."""
        post = aliased(SlackPost.__table__)  # type: ignore[attr-defined]
        channels = (
            select(func.min(post.c.channel).label("channel"))
            .where(post.c.status == PENDING)
            .cte("pending_channels", recursive=True)
        )
        step = aliased(SlackPost.__table__)  # type: ignore[attr-defined]
        following = (
            select(func.min(step.c.channel))
            .where(step.c.status == PENDING, step.c.channel > channels.c.channel)
            .scalar_subquery()
        )
        channels = channels.union_all(select(following).where(channels.c.channel.is_not(None)))
        return select(channels.c.channel).where(channels.c.channel.is_not(None)).subquery("channels")

    @staticmethod
    def _due(post: Any, now: datetime) -> Any:
        """Due now, not leased by a live relay, and (for a reply or an edit) its parent already posted."""
        parent = aliased(SlackPost.__table__)  # type: ignore[attr-defined]
        parent_posted = exists().where(parent.c.id == post.parent_post_id, parent.c.ts.is_not(None))
        return and_(
            post.next_attempt_at <= now,
            or_(post.lease_until.is_(None), post.lease_until < now),
            or_(post.parent_post_id.is_(None), parent_posted),
        )

    def renew_leases(self, owner: str, *, until: datetime) -> int:
        """Extend every lease this relay still holds (posts and channel holds) while it is alive.

        A relay working through a slow send renews; one that died stops renewing, so its posts and
        channels come free after one short lease instead of a long fixed one.
        """
        posts = update(SlackPost).where(col(SlackPost.lease_owner) == owner).values(lease_until=until)
        channels = update(ChannelPace).where(col(ChannelPace.holder) == owner).values(next_allowed_at=until)
        return int(self._session.exec(posts).rowcount) + int(self._session.exec(channels).rowcount)

    # --- channel pacing, shared by every relay -------------------------------------------------------

    def take_channel_turn(self, channel: str, holder: str, *, now: datetime, hold: timedelta) -> ChannelTurn:
        """Hold the channel for one send if its next slot has come; else say how long to wait.

        A compare-and-set on the channel's row, so two relays never both win a slot; on PostgreSQL a row
        another relay is updating this instant is skipped (SKIP LOCKED) rather than waited for.
        """
        self._ensure_pace_row(channel, now)
        is_free = and_(col(ChannelPace.channel) == channel, col(ChannelPace.next_allowed_at) <= now)
        if self._is_postgres():
            free_row = select(col(ChannelPace.channel)).where(is_free).with_for_update(skip_locked=True)
            is_free = col(ChannelPace.channel).in_(free_row.scalar_subquery())
        taken = update(ChannelPace).where(is_free).values(next_allowed_at=now + hold, holder=holder)
        if self._session.exec(taken).rowcount == 1:
            return ChannelTurn(granted=True)
        row = self._session.get(ChannelPace, channel, populate_existing=True)
        if row is None:  # pragma: no cover - the row was inserted above
            return ChannelTurn(granted=False, wait=0.05)
        wait = max(0.0, (row.next_allowed_at - now).total_seconds())
        in_flight = row.holder is not None and row.holder != holder
        return ChannelTurn(granted=False, wait=wait, in_flight=in_flight)

    def channel_answered(self, channel: str, holder: str, *, now: datetime, interval: float) -> None:
        """Slack answered a send: the channel's next message waits a full interval from now.

        Slack counts from when it accepted a message, somewhere between the request and its answer, so
        the interval is counted from the answer; counting from the request lets jitter cause 429s.
        """
        next_allowed = now + timedelta(seconds=interval)
        released = (
            update(ChannelPace)
            .where(col(ChannelPace.channel) == channel, col(ChannelPace.holder) == holder)
            .values(next_allowed_at=next_allowed, holder=None)
        )
        if self._session.exec(released).rowcount == 0:
            self.delay_channel(channel, until=next_allowed)

    def release_channel(self, channel: str, holder: str, *, now: datetime, interval: float) -> None:
        """Give back a hold that ended without a send (a look-up, a lost lease); no-op if answered."""
        statement = (
            update(ChannelPace)
            .where(col(ChannelPace.channel) == channel, col(ChannelPace.holder) == holder)
            .values(next_allowed_at=now + timedelta(seconds=interval), holder=None)
        )
        self._session.exec(statement)

    def delay_channel(self, channel: str, *, until: datetime) -> None:
        """Nothing more to this channel before `until` (Slack said Retry-After), for every relay."""
        statement = (
            update(ChannelPace)
            .where(col(ChannelPace.channel) == channel, col(ChannelPace.next_allowed_at) < until)
            .values(next_allowed_at=until)
        )
        self._session.exec(statement)

    def _ensure_pace_row(self, channel: str, now: datetime) -> None:
        insert: Any = postgresql_insert if self._is_postgres() else sqlite_insert
        statement = (
            insert(ChannelPace)
            .values(channel=channel, next_allowed_at=now, holder=None)
            .on_conflict_do_nothing(index_elements=["channel"])
        )
        self._session.exec(statement)

    def _is_postgres(self) -> bool:
        return self._session.get_bind().dialect.name == "postgresql"

    def target_ts(self, post: SlackPost) -> str | None:
        """The parent's ts: the thread for a reply, the message itself for an edit."""
        if post.parent_post_id is None:
            return None
        parent = self._session.get(SlackPost, post.parent_post_id)
        return None if parent is None else parent.ts

    def settle(self, post_id: int, owner: str, **values: object) -> bool:
        """Record the outcome of a send, only if this relay still holds the lease."""
        values.setdefault("lease_owner", None)
        values.setdefault("lease_until", None)
        values["updated_at"] = utcnow()
        statement = (
            update(SlackPost)
            .where(col(SlackPost.id) == post_id, col(SlackPost.lease_owner) == owner)
            .values(**values)
        )
        return bool(self._session.exec(statement).rowcount == 1)

    def mark_ambiguous(self, post_id: int, owner: str, *, lease_until: datetime | None = None) -> bool:
        """Set before a send: if this relay dies mid-send, whoever resumes looks the post up first.

        Renews the lease for the send when `lease_until` is given. False when the post is no longer
        this relay's (its lease ran out and another relay claimed it): then it must not be sent.
        """
        values: dict[str, object] = {"ambiguous": True, "attempts": SlackPost.attempts + 1}
        if lease_until is not None:
            values["lease_until"] = lease_until
        statement = (
            update(SlackPost)
            .where(col(SlackPost.id) == post_id, col(SlackPost.lease_owner) == owner)
            .values(**values)
        )
        return bool(self._session.exec(statement).rowcount == 1)
