"""One verdict never stops the nightly sweep (issue 10, point 5).

A verdict whose sweep raises is counted and tried again on the next run; after a few failed runs it is
parked with its error (the digest shows how many), and the verdicts after it are swept all the same.
Long ids make bounded file names that still tell every (conversation, turn) pair apart.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

from gradecore.model.contract import parse_conversation
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from smith.reports.digest import digest_sections
from smith.sweep.job import PARK_AFTER_ATTEMPTS, run_sweep
from smith.web.health import DatabaseProbe
from tests.conftest import load_demo
from tests.scenarios.sweep_world import MORNING, files_under, record_every_kind
from tests.scheduling.world import BIRCHWOOD_RENT, add_grader, fixtures, ingest, react

LONG_CONVERSATION_ID = "c" * 120 + "-longest"  # 128 characters, the contract's limit
LONG_TURN_ID = "turn-" + "t" * 110  # 115 characters


def long_ids_conversation() -> str:
    """The Birchwood rent conversation under a 128-char conversation id and a 115-char turn id."""
    document = json.loads(load_demo(f"{BIRCHWOOD_RENT}.json"))
    document["conversation_id"] = LONG_CONVERSATION_ID
    for turn in document["turns"]:
        if turn["id"] == "t1":
            turn["id"] = LONG_TURN_ID
    assert len(LONG_CONVERSATION_ID) == 128 and len(LONG_TURN_ID) == 115
    return json.dumps(document)


def test_a_verdict_with_the_longest_ids_is_written_under_a_bounded_name(store: Store, tmp_path: Path) -> None:
    """Reproduction: on the old code the file name (`<128>--<115>--vN.json`) was too long for the
    file system, the sweep raised `File name too long`, and every later verdict stayed unswept."""
    ingest(store, parse_conversation(long_ids_conversation().encode()), when=MORNING)
    grader = add_grader(store)
    later = MORNING.replace(hour=16)
    long_one = react(
        store, LONG_CONVERSATION_ID, "correction", when=later, grader=grader, turn_id=LONG_TURN_ID,
        expected=Level.PASS, note="the renewal rate the office quoted", key="long-ids:correction",
    )  # fmt: skip
    swept = record_every_kind(store)  # later verdicts
    out = tmp_path / "fixtures"

    report = run_sweep(store, out)

    assert report.failed == [] and report.parked == [] and report.refused == []
    rows = {row.verdict_id: row for row in fixtures(store)}
    assert rows[long_one.id or 0].status == "written"
    path = rows[long_one.id or 0].path
    assert path is not None and len(Path(path).name) <= 160
    assert Path(path).name.startswith("c" * 40 + "--turn-")  # a readable prefix of both ids
    assert all(rows[v].status == "written" for v in swept.sweepable)
    assert path in files_under(out)


def test_a_failing_verdict_is_counted_then_parked_and_never_blocks_the_rest(
    store: Store, tmp_path: Path
) -> None:
    swept = record_every_kind(store)
    out = tmp_path / "fixtures"
    out.mkdir()
    (out / "clara").write_text("a file where the clara directory should be")  # mkdir fails for clara
    clara = swept.clara[0]

    for night in range(1, PARK_AFTER_ATTEMPTS + 1):
        report = run_sweep(store, out)
        row = {row.verdict_id: row for row in fixtures(store)}[clara]
        assert row.attempts == night
        if night < PARK_AFTER_ATTEMPTS:
            assert [v for v, _ in report.failed] == [clara] and report.parked == []
            assert row.status == "failed"
        else:
            assert report.failed == [] and [v for v, _ in report.parked] == [clara]
            assert row.status == "parked"
        assert row.detail is not None and "clara" in row.detail  # the error, kept for a person
        if night == 1:
            # Everything else was swept on the first night, around the failing verdict.
            assert report.total == len(swept.sweepable) - 1
            others = [r for r in fixtures(store) if r.verdict_id != clara]
            assert {r.status for r in others} == {"written"}

    # Parked: not tried again, even once the fault is gone.
    (out / "clara").unlink()
    report = run_sweep(store, out)
    assert report.total == 0 and report.failed == [] and report.parked == []
    with store.unit() as unit:
        assert unit.fixtures.parked_count() == 1
        sections = dict(digest_sections(unit, datetime(2026, 12, 1, tzinfo=UTC), judge_drift=None))
    assert sections["Set aside after repeated failures"] == [
        "1 verdict parked after repeated failures (see the Fixture ledger)",
        "no Slack event parked",
    ]
    # /readyz reports it too (reported, not fatal).
    state = asyncio.run(DatabaseProbe(store).state())
    assert (state.problem, state.parked_verdicts) == (None, 1)


def test_a_failed_verdict_that_heals_is_written_on_the_next_run(store: Store, tmp_path: Path) -> None:
    swept = record_every_kind(store)
    out = tmp_path / "fixtures"
    out.mkdir()
    (out / "clara").write_text("in the way")
    first = run_sweep(store, out)
    assert [v for v, _ in first.failed] == list(swept.clara)

    (out / "clara").unlink()
    second = run_sweep(store, out)
    assert dict(second.written) == {"clara": 1} and second.failed == []
    row = {row.verdict_id: row for row in fixtures(store)}[swept.clara[0]]
    assert (row.status, row.attempts, row.detail) == ("written", 1, None)
    assert row.path is not None and (out / row.path).is_file()
    with store.unit() as unit:
        assert unit.fixtures.parked_count() == 0


async def test_the_nightly_summary_names_a_failed_verdict(store: Store, tmp_path: Path) -> None:
    swept = record_every_kind(store)
    out = tmp_path / "fixtures"
    out.mkdir()
    (out / "clara").write_text("in the way")
    night = datetime(2026, 12, 1, 2, 30, tzinfo=UTC)
    jobs = Jobs(store, JobConfig(fixtures_dir=out, triage_channel="C0TRIAGE"), clock=lambda: night)

    assert ("sweep", "2026-12-01") in await jobs.tick()  # the run itself completes

    with store.unit() as unit:
        post = unit.outbox.by_key("sweep:2026-12-01")
        run = unit.jobs.get("sweep", "2026-12-01")
    assert run is not None and run.outcome == "ok" and run.counts is not None
    assert (run.counts["failed"], run.counts["parked"], run.counts["written"]) == (
        1,
        0,
        {"grader": 2, "ours": 1},
    )
    assert post is not None
    shown = json.dumps(post.payload, ensure_ascii=False)
    assert f"verdict {swept.clara[0]} failed: FileExistsError" in shown
    assert "grader: 2" in shown and "ours: 1" in shown  # the rest was written that same night
