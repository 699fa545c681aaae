"""`regrade` on what is stored: append-only grades, and only the Slack posts a changed verdict calls for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import col, func, select

from cerebrus import Rules
from gradecore.persistence.entities import MachineGrade, SlackPost
from gradecore.persistence.store import Store
from smith.calibration.regrade import regrade
from smith.ingest import Ingestor
from smith.outbox.policy import parent_key, turn_key
from tests.scenarios.test_calibration_loop import MORNING, clean, promised_visit
from tests.scheduling.world import at

SETTLED = datetime(2026, 11, 29, 17, 0, tzinfo=UTC)  # when Oakridge's conversations settled
WINDOW = (SETTLED - timedelta(days=1), SETTLED + timedelta(days=1))
NO_GENERIC_VISITS = Rules.model_validate(
    {
        "promises": [
            {
                **promise.model_dump(),
                "patterns": [
                    {**p.model_dump(), "enabled": p.id != "visit.generic_en"} for p in promise.patterns
                ],
            }
            for promise in Rules().promises
        ]
    }
)


def counts(store: Store) -> tuple[int, int]:
    with store.unit() as unit:
        grades = unit.session.exec(select(func.count()).select_from(MachineGrade)).one()
        posts = unit.session.exec(select(func.count()).select_from(SlackPost)).one()
    return int(grades), int(posts)


def keys(store: Store) -> list[str]:
    with store.unit() as unit:
        return [
            p.idempotency_key for p in unit.session.exec(select(SlackPost).order_by(col(SlackPost.id))).all()
        ]


def test_a_conversation_that_becomes_flagged_is_posted_as_usual(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.set("oakridge", name="Oakridge", timezone="America/Denver", channel_id="C0OAK")
    promise, fine = promised_visit(1), clean(1)
    with at(MORNING):
        for conversation in (promise, fine):
            Ingestor(store, rules=NO_GENERIC_VISITS).ingest(conversation)
    assert keys(store) == []  # nothing flagged under the old rules

    report = regrade(store, Rules(), *WINDOW)
    assert (report.regraded, report.to_flagged, report.to_pass) == (2, 1, 0)
    cid = promise.conversation_id
    # The one whose verdict changed is named, old level first; the clean one is not.
    assert [change.line() for change in report.changes] == [f"pass → block: {cid}"]
    assert keys(store) == [parent_key(cid), turn_key(cid, "t1")]

    # Again under the same rubric: nothing to do.
    before = counts(store)
    again = regrade(store, Rules(), *WINDOW)
    assert (again.regraded, again.current) == (0, 2) and counts(store) == before


def test_a_new_rubric_that_leaves_the_verdict_as_it_was_posts_nothing(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.set("oakridge", name="Oakridge", timezone="America/Denver", channel_id="C0OAK")
    with at(MORNING):
        Ingestor(store).ingest(promised_visit(2))
    grades_before, posts_before = counts(store)

    stricter_budget = Rules.model_validate({"thresholds": {"token_budget": 59_999}})
    report = regrade(store, stricter_budget, *WINDOW)
    grades_after, posts_after = counts(store)
    assert report.regraded == 1 and report.posts_queued == 0
    assert posts_after == posts_before  # same level, same headline: Slack already says it
    assert grades_after > grades_before  # the new rubric's grades were appended all the same


def test_a_dry_run_writes_nothing(store: Store) -> None:
    with at(MORNING):
        Ingestor(store).ingest(promised_visit(3))
    before = counts(store)
    report = regrade(store, NO_GENERIC_VISITS, *WINDOW, dry_run=True)
    assert (report.regraded, report.to_pass) == (1, 1)
    assert counts(store) == before


def test_only_the_window_and_the_property_asked_for_are_regraded(store: Store) -> None:
    with at(MORNING):
        Ingestor(store).ingest(promised_visit(4))
    outside = (SETTLED + timedelta(seconds=1), SETTLED + timedelta(days=3))
    assert regrade(store, NO_GENERIC_VISITS, *outside).seen == 0
    assert regrade(store, NO_GENERIC_VISITS, *WINDOW, property_id="elsewhere").seen == 0
    assert regrade(store, NO_GENERIC_VISITS, *WINDOW, property_id="oakridge", dry_run=True).seen == 1
