"""The nightly sweep on recorded verdicts: each error class lands in its own kind, acts without an
expected level are not swept, a fixture that would leak is refused and reported (docs/jobs.md)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import smith.sweep.job as sweep_job
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from smith.sweep.job import run_sweep
from smith.tickets.tracker import MarkdownTracker
from tests.scenarios.sweep_world import MORNING, files_under, record_every_kind
from tests.scheduling.world import OAKRIDGE, add_grader, demo, fixtures, ingest, react


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """The fixtures directory (the SQLite database lives next to it, in tmp_path)."""
    return tmp_path / "fixtures"


def test_every_error_class_lands_in_its_own_kind(store: Store, out: Path) -> None:
    swept = record_every_kind(store)
    report = run_sweep(store, out)

    assert dict(report.written) == {"grader": 2, "clara": 1, "ours": 1}
    assert report.refused == []
    rows = {row.verdict_id: row for row in fixtures(store)}
    assert set(rows) == set(swept.sweepable)  # the 👎 alone and the note have no expected level
    for kind, ids in (("grader", swept.grader), ("clara", swept.clara), ("ours", swept.ours)):
        for verdict_id in ids:
            row = rows[verdict_id]
            assert (row.kind, row.status) == (kind, "written")
            assert row.path is not None and row.path.startswith(f"{kind}/")
            assert row.path.endswith(f"--v{verdict_id}.json")
    files = files_under(out)
    assert sorted(files) == sorted(row.path for row in rows.values() if row.path)
    assert report.tickets.new == []  # no tracker given: tickets are the scheduler's business

    # A calibration fixture: the anonymized input, the expected level, the frozen machine grade, the
    # grader's user id (never a name), and the content hash the ledger holds.
    correction = rows[swept.grader[1]]
    assert correction.path is not None
    raw = files[correction.path]
    fixture: dict[str, Any] = json.loads(raw)
    assert (fixture["kind"], fixture["expected_level"], fixture["turn_id"]) == ("grader", "pass", "t1")
    assert fixture["machine_grade_at_time"]["level"] == "repair"
    assert fixture["reason"] == "the $1,950 is the renewal rate the office quoted"
    assert isinstance(fixture["grader_user_id"], int)
    assert "María" not in raw.decode() and "maria.lopez" not in raw.decode()
    assert correction.content_hash == hashlib.sha256(raw).hexdigest()

    ticket = files[rows[swept.ours[0]].path or ""].decode()
    assert "Priya" not in ticket and "+17205550166" not in ticket  # anonymized like the rest
    assert "truncated" in ticket or "not_truncated" in ticket


def test_a_rerun_sweeps_nothing_new(store: Store, out: Path) -> None:
    record_every_kind(store)
    run_sweep(store, out)
    before = files_under(out)
    again = run_sweep(store, out)
    assert (again.total, again.refused) == (0, [])
    assert files_under(out) == before
    assert len(fixtures(store)) == 4


def test_a_verdict_without_an_expected_level_is_not_swept(store: Store, out: Path) -> None:
    ingest(store, demo(OAKRIDGE), when=MORNING)
    grader = add_grader(store)
    conversation_id = demo(OAKRIDGE).conversation_id
    react(store, conversation_id, "down", when=MORNING, grader=grader)
    react(store, conversation_id, "correction", note="looks fine to me", when=MORNING, grader=grader)
    report = run_sweep(store, out)
    assert (report.total, report.refused) == (0, [])
    assert fixtures(store) == [] and files_under(out) == {}


class _Unscrubbed:
    """An anonymizer that forgot its job: the original document goes through untouched."""

    def __init__(self, conversation: Conversation) -> None:
        self.document = conversation.model_dump(mode="json", by_alias=True)

    def scrub_text(self, text: str) -> str:
        return text

    def scrub_json(self, value: Any) -> Any:
        return value


def test_a_fixture_that_would_leak_is_refused_and_reported(
    store: Store, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest(store, demo(OAKRIDGE), when=MORNING)  # Priya Natarajan, +17205550166, access code 1199
    verdict = react(store, demo(OAKRIDGE).conversation_id, "up", when=MORNING, grader=add_grader(store))
    monkeypatch.setattr(sweep_job, "anonymize", lambda conversation, *, up_to_turn: _Unscrubbed(conversation))
    report = run_sweep(store, out)

    assert report.total == 0
    [(verdict_id, why)] = report.refused
    assert verdict_id == verdict.id
    assert "phone" in why and "name" in why
    assert "Priya" not in why and "17205550166" not in why  # the report itself must not leak
    [row] = fixtures(store)
    assert (row.verdict_id, row.status, row.path, row.content_hash) == (verdict.id, "refused", None, None)
    assert row.detail == why
    assert files_under(out) == {}  # nothing written, not even a temporary file


async def test_the_sweep_summary_goes_to_the_triage_channel(store: Store, out: Path) -> None:
    record_every_kind(store)
    night = datetime(2026, 12, 1, 2, 30, tzinfo=UTC)
    jobs = Jobs(
        store,
        JobConfig(fixtures_dir=out, triage_channel="C0TRIAGE"),
        tracker=MarkdownTracker(out),
        clock=lambda: night,
    )
    assert ("sweep", "2026-12-01") in await jobs.tick()
    with store.unit() as unit:
        post = unit.outbox.by_key("sweep:2026-12-01")
    assert post is not None and (post.kind, post.channel) == ("digest", "C0TRIAGE")
    shown = json.dumps(post.payload, ensure_ascii=False)
    # The truncated reply (ours) opened one ticket for its root cause.
    for line in ("clara: 1", "grader: 2", "ours: 1", "[smith] not_truncated: stop reason max_tokens"):
        assert line in shown


def test_only_a_graders_standing_act_is_swept(store: Store, out: Path) -> None:
    """A removed 👍 and a correction replaced by the same person's later one are not fixtures."""
    ingest(store, demo(OAKRIDGE), when=MORNING)
    grader = add_grader(store)
    conversation_id = demo(OAKRIDGE).conversation_id
    taken_back = react(store, conversation_id, "up", when=MORNING, grader=grader, key="up")
    react(store, conversation_id, "retraction", retracts="up", when=MORNING, grader=grader, key="removed")
    first = react(
        store,
        conversation_id,
        "correction",
        expected=Level.HOLD,
        when=MORNING,
        grader=grader,
        key="first",
        turn_id="t1",
    )
    later = react(
        store,
        conversation_id,
        "correction",
        expected=Level.BLOCK,
        when=MORNING,
        grader=grader,
        key="later",
        turn_id="t1",
    )

    report = run_sweep(store, out)

    assert report.total == 1
    rows = {row.verdict_id: row for row in fixtures(store)}
    assert rows[later.id].status == "written"
    assert rows[taken_back.id].status == "superseded" and rows[first.id].status == "superseded"
    assert run_sweep(store, out).total == 0  # the ledger keeps them from being looked at again
