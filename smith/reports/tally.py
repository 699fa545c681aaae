"""The daily tally line: per property channel, for the previous local day (docs/jobs.md).

It proves the grader ran: posted even when nothing was flagged, worded so that "0 graded" cannot be
read as "all good", and warning when a channel's posts have had no reaction for seven days. It counts
conversations by when they settled, in the property's time zone, so a backfill lands on the days it
happened; the warning waits until the channel has had flagged posts for seven days (day one says
nothing untrue), and a property with no channel gets no tally post.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from blocks import build_tally_blocks, validate_post
from blocks.common import PostContent
from gradecore.persistence.entities import Property
from gradecore.persistence.store import Unit
from smith.outbox.keys import tally_key
from smith.outbox.queue import NewPost, queue_one
from smith.reports.stats import window_stats

QUIET_DAYS = 7
_EVER = datetime(2000, 1, 1, tzinfo=UTC)  # before any grade: "at any time before"


@dataclass(frozen=True)
class Tally:
    property_id: str
    local_date: date
    content: PostContent
    graded: int
    flagged: int
    no_reactions_warning: bool
    passed: int = 0
    reacted: int = 0


def local_day_bounds(day: date, timezone: str) -> tuple[datetime, datetime]:
    """[start, end) of a local calendar day, as aware datetimes (23 or 25 hours long across DST)."""
    zone = ZoneInfo(timezone)
    return datetime.combine(day, time(0), zone), datetime.combine(day + timedelta(days=1), time(0), zone)


def due_at(day: date, timezone: str, tally_time: time) -> datetime:
    """When the tally for `day` is due: the tally time on the next local day."""
    return datetime.combine(day + timedelta(days=1), tally_time, ZoneInfo(timezone))


def local_yesterday(now: datetime, timezone: str) -> date:
    """The local day before `now`'s, in `timezone`: the latest day a tally can be about."""
    return now.astimezone(ZoneInfo(timezone)).date() - timedelta(days=1)


def days_to_tally(now: datetime, timezone: str, *, since: datetime | None = None) -> list[date]:
    """The local days a tally asked for at `now` covers: yesterday, or every day from `since` until
    yesterday (`smith tally`; the scheduler asks `due_tally_day` instead)."""
    yesterday = local_yesterday(now, timezone)
    if since is None:
        return [yesterday]
    first = since.astimezone(ZoneInfo(timezone)).date()
    return [first + timedelta(days=offset) for offset in range((yesterday - first).days + 1)]


def latest_due_day(now: datetime, timezone: str, tally_time: time) -> date:
    """The most recent local day whose tally is already due at `now` (missed earlier days coalesce)."""
    local_now = now.astimezone(ZoneInfo(timezone))
    yesterday = local_yesterday(now, timezone)
    return (
        yesterday if local_now >= due_at(yesterday, timezone, tally_time) else yesterday - timedelta(days=1)
    )


def due_tally_day(now: datetime, prop: Property, tally_time: time) -> date | None:
    """The latest day whose tally is due at `now`, or None when that day ended before the property was
    created: Smith could not have graded anything then, and "0 graded" for it would be a false alarm."""
    day = latest_due_day(now, prop.timezone, tally_time)
    created_on = prop.created_at.astimezone(ZoneInfo(prop.timezone)).date()
    return day if day >= created_on else None


def compose_tally(unit: Unit, prop: Property, day: date) -> Tally:
    start, end = local_day_bounds(day, prop.timezone)
    stats = window_stats(unit, [prop.id], start, end, by_settled=True)
    quiet = _no_reactions_lately(unit, prop.id, end)
    content = build_tally_blocks(
        property_name=prop.name,
        local_date=day,
        graded=stats.graded,
        passed=stats.passed,
        flagged=stats.flagged,
        reacted=stats.reacted,
        no_reactions_in_7_days=quiet,
        idempotency_key=tally_key(prop.id, day),
        locale=prop.locale,
    )
    validate_post(content)
    return Tally(prop.id, day, content, stats.graded, stats.flagged, quiet, stats.passed, stats.reacted)


def _no_reactions_lately(unit: Unit, property_id: str, end: datetime) -> bool:
    """Smith flagged something in the last week, nobody reacted to anything in that week, and the
    channel has had flagged posts for the whole week (on day one "no reaction in 7 days" is untrue)."""
    start = end - timedelta(days=QUIET_DAYS)
    if not unit.windows.any_flagged(property_id, start, end):
        return False
    if not unit.windows.any_flagged(property_id, _EVER, start):
        return False  # the first flagged post is less than a week old
    latest = unit.windows.latest_act_at(property_id, before=end)
    return latest is None or latest < start


def queue_tally(unit: Unit, prop: Property, tally: Tally) -> bool:
    """Queue the tally post once per property and day (the idempotency key makes a rerun a no-op);
    never for a property with no channel, where it would wait, unread, for a channel to be mapped."""
    if prop.slack_channel_id is None:
        return False
    new_post = NewPost(
        key=tally_key(prop.id, tally.local_date),
        kind="tally",
        content=tally.content,
        channel=prop.slack_channel_id,
        property_id=prop.id,
    )
    return queue_one(unit, new_post)
