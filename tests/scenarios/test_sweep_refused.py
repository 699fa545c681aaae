"""Issue 22, point 1: a refused fixture is kept with its reason, listed by `smith fixtures refused`,
drafted again at every sweep (and written once it no longer leaks), and an *ours* confirmation still
files its ticket, without the excerpt (docs/jobs.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

import smith.sweep.job as sweep_job
from gradecore.model.contract import Conversation
from gradecore.persistence.entities import TicketConfirmation
from gradecore.persistence.store import Store
from smith.sweep.job import run_sweep
from smith.tickets.tracker import MarkdownTracker
from tests.scenarios.sweep_world import MORNING, files_under, truncated_oakridge
from tests.scheduling.world import add_grader, fixtures, ingest, react
from tests.smith.cli.in_process import run_in_process


class _Unscrubbed:
    """An anonymizer that forgot its job: the original document goes through untouched."""

    def __init__(self, conversation: Conversation) -> None:
        self.document = conversation.model_dump(mode="json", by_alias=True)

    def scrub_text(self, text: str) -> str:
        return text

    def scrub_json(self, value: Any) -> Any:
        return value


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "fixtures"


def test_a_refused_fixture_is_retried_each_sweep_and_its_ticket_is_filed_without_the_excerpt(
    store: Store, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = truncated_oakridge()  # a block that is ours: a 👍 confirms its cause
    ingest(store, cut, when=MORNING)
    verdict = react(store, cut.conversation_id, "up", when=MORNING.replace(hour=16), grader=add_grader(store))
    real_anonymize = sweep_job.anonymize
    monkeypatch.setattr(sweep_job, "anonymize", lambda conversation, *, up_to_turn: _Unscrubbed(conversation))

    first = run_sweep(store, out, tracker=MarkdownTracker(out))
    assert [verdict_id for verdict_id, _ in first.refused] == [verdict.id]
    with store.unit() as unit:
        [confirmation] = unit.session.exec(select(TicketConfirmation)).all()
        refused_rows = list(unit.fixtures.refused())
    assert (confirmation.verdict_id, confirmation.example, confirmation.receipts) == (verdict.id, None, [])
    assert [row.verdict_id for row in refused_rows] == [verdict.id]
    assert first.tickets.new, "the ticket is filed even though the fixture was refused"
    tickets = [path for path in files_under(out) if path.startswith("tickets/")]
    assert tickets and "Priya" not in (out / tickets[0]).read_text(encoding="utf-8")

    # Still leaking: drafted again, counted, not reported as news a second time.
    second = run_sweep(store, out)
    assert (second.refused, second.still_refused, second.total) == ([], 1, 0)

    # The anonymizer does its job again: the next sweep writes it.
    monkeypatch.setattr(sweep_job, "anonymize", real_anonymize)
    third = run_sweep(store, out)
    assert (third.total, third.refused, third.still_refused) == (1, [], 0)
    [row] = fixtures(store)
    assert (row.status, row.path is not None) == ("written", True)
    assert run_sweep(store, out).total == 0  # written once, never again


def test_smith_fixtures_refused_lists_each_with_its_reason(
    store: Store, out: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cut = truncated_oakridge()
    ingest(store, cut, when=MORNING)
    verdict = react(store, cut.conversation_id, "up", when=MORNING.replace(hour=16), grader=add_grader(store))
    monkeypatch.setattr(sweep_job, "anonymize", lambda conversation, *, up_to_turn: _Unscrubbed(conversation))
    run_sweep(store, out)
    url = store.engine.url.render_as_string(hide_password=False)

    listed = run_in_process(tmp_path, "fixtures", "refused", "--json", database=url)
    assert listed.code == 0, listed.stderr
    [row] = json.loads(listed.stdout)
    assert row["verdict"] == verdict.id and row["kind"] == "ours"
    assert "phone" in row["reason"] and "Priya" not in row["reason"]
    shown = run_in_process(tmp_path, "fixtures", "refused", database=url)
    assert shown.code == 0 and str(verdict.id) in shown.stdout and "phone" in shown.stdout
