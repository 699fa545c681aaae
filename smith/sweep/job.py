"""The nightly D8 sweep: human verdicts with a known expected level become anonymized fixture drafts.

`grader` verdicts become Cerebrus calibration fixtures, `clara` ones Clara regression fixtures, `ours`
ones integration tickets in markdown. Each is anonymized, scanned for leaks by an independent detector,
written, and only then entered in the Fixture ledger: a crash between the two rewrites the same bytes
to the same path on the rerun, so nothing is lost and nothing is duplicated. The sweep only proposes;
it edits no rule and no prompt.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from gradecore.entities import Fixture, GradeVerdict, utcnow
from gradecore.store import Store, Unit, current_acts
from smith.sweep.anonymize import anonymize
from smith.sweep.fixture_format import build_fixture, fixture_file
from smith.sweep.leaks import LeakWatchlist, describe_leaks, find_leaks

log = logging.getLogger(__name__)
# A verdict agreeing with a passing grade names no owner: it is a calibration case for the grader.
KIND_BY_ERROR_CLASS = {"grader": "grader", "clara": "clara", "ours": "ours", None: "grader"}


@dataclass
class SweepReport:
    written: Counter[str] = field(default_factory=Counter)
    refused: list[tuple[int, str]] = field(default_factory=list)
    tickets: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.written.values())


@dataclass(frozen=True)
class Draft:
    verdict_id: int
    kind: str
    relpath: str
    content: bytes
    digest: str
    problem: str | None  # why it must not be written (a leak, a missing record)
    superseded: bool = False  # the act was retracted or replaced by the same person's later act


def run_sweep(
    store: Store, fixtures_dir: Path, *, batch: int = 200, on_swept: Callable[[], None] | None = None
) -> SweepReport:
    """Sweep every verdict not yet in the ledger; safe to rerun at any point.

    `on_swept` is called after each verdict is done (the command line's progress bar).
    """
    report = SweepReport()
    while True:
        with store.unit() as unit:
            verdicts = list(unit.fixtures.unswept_verdicts(limit=batch))
            drafts = [_draft_or_refusal(unit, verdict) for verdict in verdicts]
        if not drafts:
            return report
        for draft in drafts:
            _commit(store, fixtures_dir, draft, report)
            if on_swept is not None:
                on_swept()


def _draft_or_refusal(unit: Unit, verdict: GradeVerdict) -> Draft:
    kind = KIND_BY_ERROR_CLASS.get(verdict.error_class, "grader")
    if not _is_current(unit, verdict):
        return Draft(verdict.id or 0, kind, "", b"", "", None, superseded=True)
    try:
        return draft_fixture(unit, verdict)
    except ValueError as exc:  # the anonymized document no longer fits the contract, an unknown turn
        return Draft(verdict.id or 0, kind, "", b"", "", f"could not build the fixture: {exc}")


def _is_current(unit: Unit, verdict: GradeVerdict) -> bool:
    """Only a grader's latest standing act on an item becomes a fixture (SPEC §4: what readers count)."""
    standing = current_acts(unit.verdicts.for_item(verdict.item_type, verdict.item_ref))
    return any(act.id == verdict.id for act in standing)


def draft_fixture(unit: Unit, verdict: GradeVerdict) -> Draft:
    assert verdict.id is not None and verdict.expected_level is not None
    kind = KIND_BY_ERROR_CLASS.get(verdict.error_class, "grader")
    original = unit.conversations.document(verdict.conversation_id)
    if original is None:
        return Draft(verdict.id, kind, "", b"", "", "the conversation record is missing")
    anonymized = anonymize(original, up_to_turn=verdict.turn_id)
    fixture = build_fixture(
        kind,  # type: ignore[arg-type]
        anonymized.document,
        verdict.expected_level,
        anonymized.scrub_text(verdict.note) if verdict.note else None,
        anonymized.scrub_json(_machine_grade(unit, verdict)),  # type: ignore[arg-type]
        verdict.grader_user_id,
        unit.principles.fold(verdict.principles),
        verdict.id,
        verdict.created_at,
        turn_id=verdict.turn_id,
    )
    file = fixture_file(fixture)  # the JSON fixture, or the markdown ticket for `ours`
    leaks = find_leaks(file.payload.decode(), LeakWatchlist.from_conversation(original))
    return Draft(
        verdict.id,
        kind,
        str(file.relpath),
        file.payload,
        file.content_hash,
        describe_leaks(leaks) if leaks else None,
    )


def _machine_grade(unit: Unit, verdict: GradeVerdict) -> dict[str, JsonValue]:
    """The frozen machine grade, with the dimensions it rested on (the ticket shows its receipts)."""
    frozen: dict[str, Any] = dict(verdict.machine_grade_at_time)
    row = unit.grades.get(verdict.machine_grade_id)
    if row is not None:
        frozen["dimensions"] = row.dimensions
        frozen["reason"] = row.reason
    return frozen


def _commit(store: Store, fixtures_dir: Path, draft: Draft, report: SweepReport) -> None:
    if draft.superseded:
        # Entered in the ledger all the same, so the next sweep does not look at it again.
        status, path, digest, detail = "superseded", None, None, "retracted or replaced by a later act"
    elif draft.problem is not None:
        log.error("fixture for verdict %s refused: %s", draft.verdict_id, draft.problem)
        report.refused.append((draft.verdict_id, draft.problem))
        status, path, digest, detail = "refused", None, None, draft.problem
    else:
        _write_atomically(fixtures_dir / draft.relpath, draft.content)
        report.written[draft.kind] += 1
        if draft.kind == "ours":
            report.tickets.append(draft.relpath)
        status, path, digest, detail = "written", draft.relpath, draft.digest, None
    with store.unit() as unit:
        unit.fixtures.record(
            Fixture(
                verdict_id=draft.verdict_id,
                kind=draft.kind,
                path=path,
                content_hash=digest,
                status=status,
                detail=detail,
            )
        )


def _write_atomically(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(content)
    os.replace(temporary, path)  # readers see the old file or the new one, never half of one


def sweep_period(now: datetime | None = None) -> str:
    return (now or utcnow()).date().isoformat()
