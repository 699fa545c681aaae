"""The daily tally line on a small real dataset: counts per local day, the zero-graded wording, the
no-reaction warning, and one post per property and day (docs/jobs.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import PENDING, UNROUTED
from scheduler import JobConfig, Jobs
from smith.ingest import Ingestor
from smith.reports.tally import compose_tally, queue_tally
from tests.scheduling.world import (
    CAMELLIA_DOUBLE,
    CAMELLIA_LANGUAGE,
    LAMPLITER,
    OAKRIDGE,
    add_grader,
    at,
    demo,
    demo_variant,
    ingest,
    react,
    set_property,
    tally_posts,
)

LA = ZoneInfo("America/Los_Angeles")
CHICAGO = ZoneInfo("America/Chicago")
MON_30_NOV = date(2026, 11, 30)
WARNING = "⚠️ no reactions in 7 days — is anyone reading this channel?"


def la(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=LA)


def chicago(day: int, hour: int) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=CHICAGO)


def tally_text(store: Store, property_id: str, day: date = MON_30_NOV) -> str:
    with store.unit() as unit:
        return compose_tally(unit, unit.properties.require(property_id), day).content.text


def camellia_day(store: Store) -> None:
    """Camellia's Monday 30 Nov (Los Angeles): two flagged, two passing, one reacted to; plus
    conversations just outside the local day on both sides, which must not count."""
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", name="Camellia")
    grader = add_grader(store)
    ingest(store, demo(CAMELLIA_DOUBLE), when=la(30, 0, 0))  # block, the first instant of the day
    ingest(store, demo(CAMELLIA_LANGUAGE), when=la(30, 15))  # hold
    ingest(store, demo_variant(OAKRIDGE, "a", property_of=CAMELLIA_DOUBLE), when=la(30, 11))  # pass
    # 23:30 in Los Angeles is already 1 Dec in UTC: still Camellia's Monday.
    ingest(store, demo_variant(OAKRIDGE, "b", property_of=CAMELLIA_DOUBLE), when=la(30, 23, 30))
    ingest(store, demo_variant(CAMELLIA_LANGUAGE, "sun", property_of=CAMELLIA_DOUBLE), when=la(29, 23, 59))
    ingest(store, demo_variant(CAMELLIA_LANGUAGE, "tue", property_of=CAMELLIA_DOUBLE), when=la(1, 0, 0, 12))
    react(store, demo(CAMELLIA_DOUBLE).conversation_id, "up", when=la(30, 16), grader=grader)
    # Flagged posts since the 20th: by the end of the week the channel has had them for seven days.
    ingest(store, demo_variant(CAMELLIA_LANGUAGE, "early", property_of=CAMELLIA_DOUBLE), when=la(20, 10))


def test_counts_on_a_small_real_day(store: Store) -> None:
    camellia_day(store)
    assert (
        tally_text(store, "camellia") == "Camellia · Mon 30 Nov: 4 graded · 2 pass · 2 below · 1 of 2 reacted"
    )
    with store.unit() as unit:
        tally = compose_tally(unit, unit.properties.require("camellia"), MON_30_NOV)
    # The figures behind the line, as `smith tally --json` reports them.
    assert (tally.graded, tally.passed, tally.flagged, tally.reacted) == (4, 2, 2, 1)
    # Sunday's line is read as of Sunday: Monday's reaction cannot silence its no-reaction warning.
    assert tally_text(store, "camellia", date(2026, 11, 29)) == (
        f"Camellia · Sun 29 Nov: 1 graded · 0 pass · 1 below · 0 of 1 reacted\n{WARNING}"
    )


def test_a_regraded_conversation_counts_once_at_its_latest_grade(store: Store) -> None:
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", name="Camellia")
    conversation = demo_variant(OAKRIDGE, "x", property_of=CAMELLIA_DOUBLE)
    ingest(store, conversation, when=la(30, 9))
    grown = conversation.model_copy(update={"settled_at": la(30, 12)})
    ingest(store, grown, when=la(30, 12))  # the same conversation re-sent: graded again
    assert tally_text(store, "camellia") == "Camellia · Mon 30 Nov: 1 graded · 1 pass · 0 below"


def test_zero_graded_says_no_conversations_arrived(store: Store) -> None:
    set_property(store, "lampliter", timezone="America/Chicago", channel="C0LAMPLITER", name="Lampliter")
    ingest(store, demo(OAKRIDGE), when=chicago(29, 12))  # another property's day
    text = tally_text(store, "lampliter")
    assert text == "Lampliter · Mon 30 Nov: 0 graded — no conversations arrived"
    assert "pass" not in text


def test_flagged_lately_and_nobody_reacted_for_seven_days_warns(store: Store) -> None:
    set_property(store, "lampliter", timezone="America/Chicago", channel="C0LAMPLITER", name="Lampliter")
    grader = add_grader(store)
    ingest(store, demo(LAMPLITER), when=chicago(26, 10))  # flagged on Thursday
    # A reaction long ago (before the 7-day window) does not count as "lately".
    older = demo_variant(LAMPLITER, "old")
    ingest(store, older, when=chicago(10, 10))
    react(store, older.conversation_id, "up", when=chicago(11, 10), grader=grader)
    assert tally_text(store, "lampliter") == (
        f"Lampliter · Mon 30 Nov: 0 graded — no conversations arrived\n{WARNING}"
    )


def test_a_reaction_within_seven_days_silences_the_warning(store: Store) -> None:
    set_property(store, "lampliter", timezone="America/Chicago", channel="C0LAMPLITER", name="Lampliter")
    grader = add_grader(store)
    ingest(store, demo(LAMPLITER), when=chicago(26, 10))
    react(store, demo(LAMPLITER).conversation_id, "down", when=chicago(28, 10), grader=grader)
    assert WARNING not in tally_text(store, "lampliter")


def test_nothing_flagged_lately_is_no_reason_to_warn(store: Store) -> None:
    set_property(store, "oakridge", timezone="America/Denver", channel="C0OAKRIDGE", name="Oakridge")
    ingest(store, demo(OAKRIDGE), when=datetime(2026, 11, 30, 12, tzinfo=ZoneInfo("America/Denver")))
    assert tally_text(store, "oakridge") == "Oakridge · Mon 30 Nov: 1 graded · 1 pass · 0 below"


def test_the_warning_looks_back_seven_days_from_the_end_of_the_tallied_day(store: Store) -> None:
    set_property(store, "lampliter", timezone="America/Chicago", channel="C0LAMPLITER", name="Lampliter")
    ingest(store, demo_variant(LAMPLITER, "first"), when=chicago(14, 10))  # flagged posts since the 14th
    ingest(store, demo(LAMPLITER), when=chicago(22, 10))  # Sunday 22 Nov: 8 days before Monday's end
    assert WARNING not in tally_text(store, "lampliter")
    assert WARNING in tally_text(store, "lampliter", date(2026, 11, 28))


def test_no_warning_before_the_channel_has_had_flagged_posts_for_seven_days(store: Store) -> None:
    # Day one (docs/jobs.md): the first flagged post is four days old and nobody has reacted yet;
    # "no reactions in 7 days" would be untrue.
    set_property(store, "lampliter", timezone="America/Chicago", channel="C0LAMPLITER", name="Lampliter")
    ingest(store, demo(LAMPLITER), when=chicago(26, 10))
    assert WARNING not in tally_text(store, "lampliter")
    # A week after the first flagged post, with still no reaction, the warning is true and shown.
    ingest(store, demo_variant(LAMPLITER, "later"), when=chicago(30, 10))
    assert WARNING in tally_text(store, "lampliter", date(2026, 12, 3))


def test_queue_tally_posts_once_per_property_and_day_and_never_without_a_channel(store: Store) -> None:
    camellia_day(store)
    set_property(store, "parked", timezone="UTC", channel=None, name="Parked")
    with store.unit() as unit:
        camellia = unit.properties.require("camellia")
        assert queue_tally(unit, camellia, compose_tally(unit, camellia, MON_30_NOV)) is True
        assert queue_tally(unit, camellia, compose_tally(unit, camellia, MON_30_NOV)) is False
        # A property with no channel gets no tally post (docs/jobs.md): not even one parked as unrouted.
        parked = unit.properties.require("parked")
        assert queue_tally(unit, parked, compose_tally(unit, parked, MON_30_NOV)) is False
    posts = {post.idempotency_key: post for post in tally_posts(store)}
    assert set(posts) == {"tally:camellia:2026-11-30"}
    assert (posts["tally:camellia:2026-11-30"].channel, posts["tally:camellia:2026-11-30"].status) == (
        "C0CAMELLIA",
        PENDING,
    )
    assert all(post.status != UNROUTED for post in tally_posts(store))


async def test_the_scheduled_tally_posts_yesterdays_line(store: Store, tmp_path: Path) -> None:
    camellia_day(store)
    morning = datetime(2026, 12, 1, 9, 0, tzinfo=LA).astimezone(UTC)
    jobs = Jobs(store, JobConfig(tally_time=time(9, 0), fixtures_dir=tmp_path), clock=lambda: morning)
    assert ("tally:camellia", "2026-11-30") in await jobs.tick()
    [post] = tally_posts(store)
    assert post.payload["text"] == "Camellia · Mon 30 Nov: 4 graded · 2 pass · 2 below · 1 of 2 reacted"
    assert post.payload["metadata"]["event_type"] == "smith_tally"


async def test_a_first_start_posts_no_tally_for_a_day_before_the_property_existed(
    store: Store, tmp_path: Path
) -> None:
    # Created Tuesday 1 Dec at 10:00 in Los Angeles; Smith starts at noon: Monday's tally is "due", but
    # Smith could not have graded anything on Monday, and "0 graded" would be a false alarm.
    set_property(
        store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", created=la(1, 10, 0, 12)
    )
    clock = {"now": la(1, 12, 0, 12)}
    jobs = Jobs(store, JobConfig(fixtures_dir=tmp_path), clock=lambda: clock["now"])
    assert not [run for run in await jobs.tick() if run[0].startswith("tally:")]
    assert tally_posts(store) == []

    clock["now"] = la(2, 9, 0, 12)  # Wednesday 09:00: the day it was created is tallied
    assert ("tally:camellia", "2026-12-01") in await jobs.tick()
    assert [post.idempotency_key for post in tally_posts(store)] == ["tally:camellia:2026-12-01"]


async def test_the_day_a_property_was_created_is_tallied_in_its_own_timezone(
    store: Store, tmp_path: Path
) -> None:
    # 03:00 UTC on 1 Dec is still Monday 30 Nov in Los Angeles: Monday is Camellia's first day.
    created = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", created=created)
    jobs = Jobs(store, JobConfig(fixtures_dir=tmp_path), clock=lambda: la(1, 12, 0, 12))
    assert ("tally:camellia", "2026-11-30") in await jobs.tick()


def test_a_backfill_lands_on_the_days_the_conversations_settled(store: Store) -> None:
    # Three conversations sent in one batch on 1 Dec: each counts on its own settled day (local time),
    # not on the day it was ingested (docs/jobs.md).
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", name="Camellia")
    settled = {"a": la(29, 10), "b": la(29, 23, 30), "c": la(30, 9)}  # 23:30 LA on the 29th is UTC's 30th
    for variant, when in settled.items():
        conversation = demo_variant(OAKRIDGE, variant, property_of=CAMELLIA_DOUBLE)
        with at(la(1, 9, 0, 12)):
            Ingestor(store).ingest(conversation.model_copy(update={"settled_at": when}))
    assert (
        tally_text(store, "camellia", date(2026, 11, 29))
        == "Camellia · Sun 29 Nov: 2 graded · 2 pass · 0 below"
    )
    assert tally_text(store, "camellia") == "Camellia · Mon 30 Nov: 1 graded · 1 pass · 0 below"
    assert tally_text(store, "camellia", date(2026, 12, 1)).endswith("0 graded — no conversations arrived")
