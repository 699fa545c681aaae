"""The nightly sweep: human verdicts with a known expected level become anonymized fixture drafts.

`grader` verdicts become Cerebrus calibration fixtures, `clara` ones Clara regression fixtures, `ours`
ones integration fixtures that also confirm their root-cause signatures: one ticket per signature,
kept current in the tracker (docs/tickets.md). Each fixture is anonymized, scanned for leaks by an
independent detector, written, and only then entered in the Fixture ledger: a crash between the two
rewrites the same bytes to the same path on the rerun, so nothing is lost and nothing is duplicated.
The sweep only proposes; it edits no rule and no prompt.

Routing is per dimension (docs/verdicts.md): the fixture's kind follows the act's `error_class` (the
headline's owner), and an agreeing act also confirms the signature of every *ours* dimension it
judges (smith.listening.judged), so an ours failure under a Clara headline still becomes a ticket.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from gradecore.persistence.entities import Fixture, GradeVerdict, utcnow
from gradecore.persistence.store import Store, Unit, agrees_with_machine, current_acts
from smith.anonymizer.anonymize import anonymize
from smith.leaks.scan import LeakWatchlist, describe_leaks, find_leaks
from smith.listening.judged import judged_by
from smith.regression_fixtures.format import build_fixture, fixture_file
from smith.tickets.occurrences import (
    confirmation_rows,
    ensure_signature,
    receipt_lines,
    record_occurrences,
)
from smith.tickets.signature import Signature, signatures_of
from smith.tickets.sync import QUIET_AFTER, TicketReport, sync_tickets
from smith.tickets.ticketed import refresh_ticket_lines
from smith.tickets.tracker import Tracker

log = logging.getLogger(__name__)
# A verdict agreeing with a passing grade names no owner: it is a calibration case for the grader.
KIND_BY_ERROR_CLASS = {"grader": "grader", "clara": "clara", "ours": "ours", None: "grader"}


# A verdict whose sweep raises is tried again on the next run, and parked after this many failures.
PARK_AFTER_ATTEMPTS = 3
_ERROR_LIMIT = 400


@dataclass
class SweepReport:
    written: Counter[str] = field(default_factory=Counter)
    refused: list[tuple[int, str]] = field(default_factory=list)  # refused for the first time this run
    still_refused: int = 0  # refused before and again this run (listed by `smith fixtures refused`)
    tickets: TicketReport = field(default_factory=TicketReport)
    failed: list[tuple[int, str]] = field(default_factory=list)  # raised this run; tried again next run
    parked: list[tuple[int, str]] = field(default_factory=list)  # raised too often; set aside with the error

    @property
    def total(self) -> int:
        return sum(self.written.values())


@dataclass(frozen=True)
class FixtureDraft:
    verdict_id: int
    kind: str
    relpath: str
    content: bytes
    digest: str
    problem: str | None  # why it must not be written (a leak, a missing record)
    superseded: bool = False  # the act was retracted or replaced by the same person's later act
    # For an `ours` act: the root causes it confirms, with its anonymized example and receipts.
    confirms: tuple[Signature, ...] = ()
    confirmation: tuple[dict[str, Any], ...] = ()


def run_sweep(
    store: Store,
    fixtures_dir: Path,
    *,
    tracker: Tracker | None = None,
    now: datetime | None = None,
    quiet_after: timedelta = QUIET_AFTER,
    batch: int = 200,
    on_swept: Callable[[], None] | None = None,
) -> SweepReport:
    """Sweep every verdict not yet in the ledger, then bring the tickets up to date; safe to rerun.

    Each verdict is swept on its own: one that raises is counted (and parked after
    PARK_AFTER_ATTEMPTS runs) and the sweep goes on with the next. The id cursor means a run looks at
    each verdict once, so a failing one cannot hold the batch. `on_swept` is called after each verdict
    is done (the command line's progress bar).
    """
    report = SweepReport()
    after = 0
    while True:
        with store.unit() as unit:
            verdicts = list(unit.fixtures.unswept_verdicts(after_id=after, limit=batch))
        if not verdicts:
            break
        if after == 0:
            # A fixtures directory that cannot be made fails the whole run (the scheduler tries the
            # run again), rather than counting a failure against every verdict.
            fixtures_dir.mkdir(parents=True, exist_ok=True)
        for verdict in verdicts:
            after = verdict.id or after
            _sweep_one(store, fixtures_dir, verdict, report)
            if on_swept is not None:
                on_swept()
    if tracker is not None:
        moment = now or utcnow()
        record_occurrences(store, now=moment)
        report.tickets = sync_tickets(store, tracker, now=moment, quiet_after=quiet_after)
        filed = [link.signature_id for link in (*report.tickets.new, *report.tickets.reopened)]
        if filed:
            # The posts that said "a 👍 here opens a ticket" now say engineers have it (through the outbox).
            with store.unit() as unit:
                refresh_ticket_lines(unit, filed, now=moment)
    return report


def _sweep_one(store: Store, fixtures_dir: Path, verdict: GradeVerdict, report: SweepReport) -> None:
    try:
        with store.unit() as unit:
            draft = _draft_or_refusal(unit, verdict)
        _commit(store, fixtures_dir, draft, report)
    except Exception as exc:  # whatever one verdict does, the others are still swept
        _record_failure(store, verdict, exc, report)


def _record_failure(store: Store, verdict: GradeVerdict, exc: Exception, report: SweepReport) -> None:
    # The type and message only: a traceback would add nothing for the ledger and could quote texts.
    error = f"{type(exc).__name__}: {exc}"[:_ERROR_LIMIT]
    kind = KIND_BY_ERROR_CLASS.get(verdict.error_class, "grader")
    with store.unit() as unit:
        row = unit.fixtures.record_failure(verdict.id or 0, kind, error, park_after=PARK_AFTER_ATTEMPTS)
    if row.status == "parked":
        log.error("sweep of verdict %s parked after %d failed tries: %s", verdict.id, row.attempts, error)
        report.parked.append((verdict.id or 0, error))
    else:
        log.warning("sweep of verdict %s failed (try %d): %s", verdict.id, row.attempts, error)
        report.failed.append((verdict.id or 0, error))


def _draft_or_refusal(unit: Unit, verdict: GradeVerdict) -> FixtureDraft:
    kind = KIND_BY_ERROR_CLASS.get(verdict.error_class, "grader")
    if not _is_current(unit, verdict):
        return FixtureDraft(verdict.id or 0, kind, "", b"", "", None, superseded=True)
    try:
        return draft_fixture(unit, verdict)
    except ValueError as exc:  # the anonymized document no longer fits the contract, an unknown turn
        return FixtureDraft(verdict.id or 0, kind, "", b"", "", f"could not build the fixture: {exc}")


def _is_current(unit: Unit, verdict: GradeVerdict) -> bool:
    """Only a grader's latest standing act on an item becomes a fixture (docs/storage.md: what readers
    count)."""
    standing = current_acts(unit.verdicts.for_item(verdict.item_type, verdict.item_ref))
    return any(act.id == verdict.id for act in standing)


def draft_fixture(unit: Unit, verdict: GradeVerdict) -> FixtureDraft:
    assert verdict.id is not None and verdict.expected_level is not None
    kind = KIND_BY_ERROR_CLASS.get(verdict.error_class, "grader")
    original = unit.conversations.document(verdict.conversation_id)
    if original is None:
        return FixtureDraft(verdict.id, kind, "", b"", "", "the conversation record is missing")
    anonymized = anonymize(original, up_to_turn=verdict.turn_id)
    fixture = build_fixture(
        kind,  # type: ignore[arg-type]
        anonymized.document,
        verdict.expected_level,
        anonymized.scrub_text(verdict.note) if verdict.note else None,
        anonymized.scrub_json(_machine_grade(unit, verdict)),  # type: ignore[arg-type]
        verdict.grader_user_id,
        unit.principles.surviving(verdict.principles),
        verdict.id,
        verdict.created_at,
        turn_id=verdict.turn_id,
    )
    file = fixture_file(fixture)
    leaks = find_leaks(file.payload.decode(), LeakWatchlist.from_conversation(original))
    problem = describe_leaks(leaks) if leaks else None
    confirmation: tuple[dict[str, Any], ...] = ()
    # docs/verdicts.md, routing per dimension: an act that agrees confirms each *ours* dimension it judges,
    # whoever owns the headline (a Clara headline that also failed a tool of ours routes both ways:
    # this Clara fixture, and the ours signatures below). Causes are read from the grades as stored,
    # as the occurrence scan reads them (signatures carry no personal data: smith.tickets.signature).
    judged = _confirmed_dimensions(unit, verdict)
    confirms = tuple(signatures_of(judged))
    if confirms:
        dimensions = _dicts(anonymized.scrub_json(_dicts(judged)))  # type: ignore[arg-type]
        # The example and receipts come from the anonymized copy; a fixture that would leak
        # lends the ticket nothing but the count.
        safe = problem is None
        confirmation = tuple(
            confirmation_rows(
                confirms,
                verdict_id=verdict.id,
                signal=verdict.signal,
                property_id=verdict.property_id,
                example=_graded_text(anonymized.document, verdict.turn_id) if safe else None,
                receipts=receipt_lines(dimensions) if safe else [],
                created_at=verdict.created_at,
            )
        )
    return FixtureDraft(
        verdict.id,
        kind,
        str(file.relpath),
        file.payload,
        file.content_hash,
        problem,
        confirms=confirms,
        confirmation=confirmation,
    )


def _confirmed_dimensions(unit: Unit, verdict: GradeVerdict) -> list[dict[str, Any]]:
    """The failing dimensions an act confirms: those it judges (smith.listening.judged), when it agrees
    with the machine (a 👍, or a correction to the machine's own level); none when it disagrees."""
    machine = verdict.machine_grade_at_time.get("level")
    if not agrees_with_machine(verdict.signal, verdict.expected_level, machine):
        return []
    return [dict(dimension) for dimension in judged_by(unit, verdict)]


def _dicts(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _graded_text(document: dict[str, Any], turn_id: str | None) -> str | None:
    """What Clara wrote in the graded turn (the last message of a conversation-level fixture)."""
    messages = [m for m in document.get("messages") or () if isinstance(m, dict)]
    if turn_id is not None:
        turns = [t for t in document.get("turns") or () if isinstance(t, dict) and t.get("id") == turn_id]
        wanted = turns[0].get("message_id") if turns else None
        messages = [m for m in messages if m.get("id") == wanted]
    return str(messages[-1].get("text")) if messages else None


def _machine_grade(unit: Unit, verdict: GradeVerdict) -> dict[str, JsonValue]:
    """The frozen machine grade, with the dimensions it rested on (the ticket shows its receipts)."""
    frozen: dict[str, Any] = dict(verdict.machine_grade_at_time)
    row = unit.grades.get(verdict.machine_grade_id)
    if row is not None:
        frozen["dimensions"] = row.dimensions
        frozen["reason"] = row.reason
    return frozen


def _commit(store: Store, fixtures_dir: Path, draft: FixtureDraft, report: SweepReport) -> None:
    if draft.superseded:
        # Entered in the ledger all the same, so the next sweep does not look at it again.
        status, path, digest, detail = "superseded", None, None, "retracted or replaced by a later act"
    elif draft.problem is not None:
        status, path, digest, detail = "refused", None, None, draft.problem
    else:
        _write_atomically(fixtures_dir / draft.relpath, draft.content)
        report.written[draft.kind] += 1
        status, path, digest, detail = "written", draft.relpath, draft.digest, None
    with store.unit() as unit:
        if status == "refused":
            # A refusal is news once; retried at each sweep, it is counted, not reported again.
            if unit.fixtures.status_of(draft.verdict_id) == "refused":
                report.still_refused += 1
            else:
                log.error("fixture for verdict %s refused: %s", draft.verdict_id, draft.problem)
                report.refused.append((draft.verdict_id, draft.problem or ""))
        # The confirmation and the ledger row commit together: an act confirms its causes once.
        for signature in draft.confirms:
            ensure_signature(unit, signature, now=utcnow())
        unit.tickets.add_confirmations(draft.confirmation)
        unit.fixtures.add(
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
