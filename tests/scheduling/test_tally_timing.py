"""The daily tally is due at SMITH_TALLY_TIME in each property's timezone, for the previous local day,
and local days are right across DST changes (23 and 25 hour days) (docs/jobs.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from smith.reports.tally import due_at, latest_due_day, local_day_bounds
from tests.scheduling.world import set_property, tally_posts

NINE = time(9, 0)
ZONES = ["America/Los_Angeles", "Europe/Madrid", "Asia/Tokyo", "Pacific/Auckland", "Asia/Kolkata", "UTC"]


def local(
    zone: str, year: int, month: int, day: int, hour: int, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=ZoneInfo(zone))


def hours(span: tuple[datetime, datetime]) -> float:
    start, end = span
    return (end.timestamp() - start.timestamp()) / 3600  # instants, not wall-clock differences


# --- pure: which local day is due -----------------------------------------------------------------


@pytest.mark.parametrize("zone", ZONES)
def test_before_the_tally_time_the_day_before_yesterday_is_still_the_latest(zone: str) -> None:
    just_before = local(zone, 2026, 11, 30, 8, 59, 59)
    assert latest_due_day(just_before, zone, NINE) == date(2026, 11, 28)
    # The same instant seen from UTC gives the same answer: only the property's zone matters.
    assert latest_due_day(just_before.astimezone(UTC), zone, NINE) == date(2026, 11, 28)


@pytest.mark.parametrize("zone", ZONES)
def test_at_and_after_the_tally_time_yesterday_is_due(zone: str) -> None:
    for moment in (local(zone, 2026, 11, 30, 9, 0), local(zone, 2026, 11, 30, 23, 59)):
        assert latest_due_day(moment.astimezone(UTC), zone, NINE) == date(2026, 11, 29)


def test_the_tally_time_is_configurable() -> None:
    zone = "Asia/Tokyo"
    assert latest_due_day(local(zone, 2026, 11, 30, 7, 29), zone, time(7, 30)) == date(2026, 11, 28)
    assert latest_due_day(local(zone, 2026, 11, 30, 7, 30), zone, time(7, 30)) == date(2026, 11, 29)


@pytest.mark.parametrize(
    ("zone", "day", "length"),
    [
        ("America/Los_Angeles", date(2026, 3, 8), 23),
        ("America/Los_Angeles", date(2026, 3, 7), 24),
        ("America/Los_Angeles", date(2026, 11, 1), 25),
        ("Europe/Madrid", date(2026, 3, 29), 23),
        ("Europe/Madrid", date(2026, 10, 25), 25),
        ("Pacific/Auckland", date(2026, 4, 5), 25),
        ("Pacific/Auckland", date(2026, 9, 27), 23),
        ("Asia/Tokyo", date(2026, 3, 8), 24),
    ],
)
def test_local_day_bounds_are_local_midnights(zone: str, day: date, length: int) -> None:
    start, end = local_day_bounds(day, zone)
    assert hours((start, end)) == length
    assert start.astimezone(ZoneInfo(zone)).replace(tzinfo=None) == datetime.combine(day, time(0))
    assert end.astimezone(ZoneInfo(zone)).replace(tzinfo=None) == datetime.combine(
        day + timedelta(days=1), time(0)
    )
    # Consecutive days tile time: no instant is counted twice or lost at the change.
    assert local_day_bounds(day + timedelta(days=1), zone)[0].timestamp() == end.timestamp()


@pytest.mark.parametrize(
    ("zone", "day_before", "utc_before", "utc_after"),
    [
        # Spring forward on Sun 8 Mar: 09:00 PST is 17:00 UTC, 09:00 PDT is 16:00 UTC.
        ("America/Los_Angeles", date(2026, 3, 7), time(17), time(16)),
        # Fall back on Sun 1 Nov: 09:00 PDT is 16:00 UTC, 09:00 PST is 17:00 UTC.
        ("America/Los_Angeles", date(2026, 10, 31), time(16), time(17)),
        # Sun 29 Mar: 09:00 CET is 08:00 UTC, 09:00 CEST is 07:00 UTC.
        ("Europe/Madrid", date(2026, 3, 28), time(8), time(7)),
    ],
)
def test_due_at_nine_local_on_both_sides_of_a_dst_change(
    zone: str, day_before: date, utc_before: time, utc_after: time
) -> None:
    change_day = day_before + timedelta(days=1)
    before = due_at(day_before - timedelta(days=1), zone, NINE)  # due on `day_before`
    after = due_at(change_day, zone, NINE)  # due the day after the change
    assert before.astimezone(UTC) == datetime.combine(day_before, utc_before, UTC)
    assert after.astimezone(UTC) == datetime.combine(change_day + timedelta(days=1), utc_after, UTC)
    for due in (before, after, due_at(day_before, zone, NINE)):
        assert due.astimezone(ZoneInfo(zone)).time() == NINE
        one_second = timedelta(seconds=1)
        assert latest_due_day(due.astimezone(UTC) - one_second, zone, NINE) == due.date() - timedelta(days=2)
        assert latest_due_day(due.astimezone(UTC), zone, NINE) == due.date() - timedelta(days=1)


# --- the scheduler: ticking through days, several zones at once -----------------------------------

CHANNELS = {
    "camellia": ("America/Los_Angeles", "C0CAMELLIA"),
    "madrid": ("Europe/Madrid", "C0MADRID"),
    "tokyo": ("Asia/Tokyo", "C0TOKYO"),
    "auckland": ("Pacific/Auckland", "C0AUCKLAND"),
}


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _jobs(store: Store, clock: Clock, tmp_path: Path, tally_time: time = NINE) -> Jobs:
    for property_id, (zone, channel) in CHANNELS.items():
        set_property(store, property_id, timezone=zone, channel=channel)
    set_property(store, "unmapped", timezone="UTC", channel=None)  # no channel: no tally
    return Jobs(store, JobConfig(tally_time=tally_time, fixtures_dir=tmp_path / "fixtures"), clock=clock)


@pytest.mark.parametrize(
    ("start", "days"),
    [
        (datetime(2026, 3, 6, 0, 0, tzinfo=UTC), 3),  # the US spring-forward (Los Angeles, Sun 8 Mar)
        (datetime(2026, 3, 27, 0, 0, tzinfo=UTC), 3),  # the EU spring-forward (Madrid, Sun 29 Mar)
        (datetime(2026, 10, 30, 0, 0, tzinfo=UTC), 3),  # Madrid falls back 25 Oct.. LA on Sun 1 Nov
        (datetime(2026, 4, 3, 0, 0, tzinfo=UTC), 3),  # Auckland falls back, Sun 5 Apr
    ],
    ids=["us-spring", "eu-spring", "us-fall", "nz-fall"],
)
async def test_ticking_through_dst_each_channel_gets_its_tally_at_nine_local(
    store: Store, tmp_path: Path, start: datetime, days: int
) -> None:
    clock = Clock(start)
    jobs = _jobs(store, clock, tmp_path)
    first = await jobs.tick()  # start-up: each channel's latest due day, at once
    expected_first = {
        (f"tally:{p}", latest_due_day(start, zone, NINE).isoformat()) for p, (zone, _) in CHANNELS.items()
    }
    assert {run for run in first if run[0].startswith("tally:")} == expected_first

    seen: dict[str, list[tuple[datetime, str]]] = {p: [] for p in CHANNELS}
    step = timedelta(hours=1)
    while clock.now < start + timedelta(days=days):
        clock.now += step
        for job, period in await jobs.tick():
            if job.startswith("tally:"):
                seen[job.removeprefix("tally:")].append((clock.now, period))

    for property_id, (zone, _) in CHANNELS.items():
        runs = seen[property_id]
        assert len(runs) in (days - 1, days, days + 1), runs
        for ran_at, period in runs:
            local_time = ran_at.astimezone(ZoneInfo(zone))
            # Due at 09:00 local: the first tick at or after it (ticks are hourly here) ran it.
            assert local_time.time() == NINE, (property_id, local_time)
            assert date.fromisoformat(period) == local_time.date() - timedelta(days=1)
        periods = [date.fromisoformat(period) for _, period in runs]
        assert periods == [periods[0] + timedelta(days=i) for i in range(len(periods))]  # none skipped

    texts = [str(post.payload["text"]) for post in tally_posts(store)]
    assert len(texts) == len(expected_first) + sum(len(runs) for runs in seen.values())
    assert all("0 graded — no conversations arrived" in text for text in texts)


async def test_nothing_new_is_due_until_the_tally_time(store: Store, tmp_path: Path) -> None:
    clock = Clock(datetime(2026, 11, 30, 8, 59, tzinfo=ZoneInfo("Asia/Tokyo")))
    jobs = _jobs(store, clock, tmp_path)
    await jobs.tick()
    tokyo = [post.idempotency_key for post in tally_posts(store) if post.property_id == "tokyo"]
    assert tokyo == ["tally:tokyo:2026-11-28"]

    clock.now += timedelta(seconds=59)  # 08:59:59 Tokyo
    assert not [run for run in await jobs.tick() if run[0] == "tally:tokyo"]
    clock.now += timedelta(seconds=1)  # 09:00 Tokyo
    assert [run for run in await jobs.tick() if run[0] == "tally:tokyo"] == [("tally:tokyo", "2026-11-29")]
    clock.now += timedelta(hours=14)  # 23:00 Tokyo: nothing more for Tokyo today
    assert not [run for run in await jobs.tick() if run[0] == "tally:tokyo"]
    assert [p.idempotency_key for p in tally_posts(store) if p.property_id == "tokyo"] == [
        "tally:tokyo:2026-11-28",
        "tally:tokyo:2026-11-29",
    ]
    assert not [p for p in tally_posts(store) if p.property_id == "unmapped"]
