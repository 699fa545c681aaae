"""Keeping one ticket per confirmed signature current in the tracker (docs/tickets.md).

For each signature a grader has confirmed: open a ticket once; rewrite its body when what it says
changed; comment when the counts changed materially; close it after `quiet_after` with no new
occurrence ("quiet — probably fixed"); reopen it when it happens again. Each step is recorded right
after the tracker accepted it, and a create is preceded by a `find` whenever an earlier create may
have happened unrecorded, so a crash at any point neither loses nor duplicates a ticket.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from gradecore.persistence.store import Store
from gradecore.persistence.store.tickets import SignatureCounts
from smith.metrics import TRACKER_ERRORS, TRACKER_SYNCS
from smith.tickets.render import TicketContent, inert_code, render_ticket
from smith.tickets.tracker import TicketRef, Tracker, TrackerError, TrackerRateLimited

log = logging.getLogger(__name__)

QUIET_AFTER = timedelta(days=14)


@dataclass(frozen=True, slots=True)
class TicketLink:
    signature_id: str
    title: str
    url: str | None


@dataclass
class TicketReport:
    new: list[TicketLink] = field(default_factory=list)
    reopened: list[TicketLink] = field(default_factory=list)
    closed: list[TicketLink] = field(default_factory=list)
    updated: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    # Not tried this run: the tracker is rate limited until `postponed_until` (the next sweep syncs them).
    postponed: list[str] = field(default_factory=list)
    postponed_until: datetime | None = None


def sync_tickets(
    store: Store, tracker: Tracker, *, now: datetime, quiet_after: timedelta = QUIET_AFTER
) -> TicketReport:
    report = TicketReport()
    with store.unit() as unit:
        signature_ids = [s.id for s in unit.tickets.confirmed()]
    for position, signature_id in enumerate(signature_ids):
        try:
            _sync_one(store, tracker, signature_id, now=now, quiet_after=quiet_after, report=report)
        except TrackerRateLimited as exc:
            # Every request would be refused until then: stop asking, and say what waits.
            report.postponed = signature_ids[position:]
            report.postponed_until = exc.until
            TRACKER_ERRORS.labels(kind="rate_limited").inc()
            log.warning("%d ticket(s) postponed: the tracker is %s", len(report.postponed), exc)
            break
        except TrackerError as exc:
            # Not lost: nothing was recorded as synced, so the next sweep tries this one again.
            TRACKER_ERRORS.labels(kind="error").inc()
            log.warning("ticket %s not synced: %s", signature_id, exc)
            report.failed.append((signature_id, str(exc)))
    _count(report)
    return report


def _count(report: TicketReport) -> None:
    """The sync's outcomes, for /metrics: the tickets filed and kept current, and what could not be."""
    for outcome, count in (
        ("new", len(report.new)),
        ("reopened", len(report.reopened)),
        ("closed", len(report.closed)),
        ("updated", report.updated),
        ("failed", len(report.failed)),
        ("postponed", len(report.postponed)),
    ):
        if count:
            TRACKER_SYNCS.labels(outcome=outcome).inc(count)


def _sync_one(
    store: Store,
    tracker: Tracker,
    signature_id: str,
    *,
    now: datetime,
    quiet_after: timedelta,
    report: TicketReport,
) -> None:
    with store.unit() as unit:
        signature = unit.tickets.get(signature_id)
        assert signature is not None
        counts = unit.tickets.counts(signature_id, now=now)
        event = _transition(signature.status, signature.status_changed_at, counts, now, quiet_after)
        if event is not None:
            signature.status = "closed" if event == "closed" else "open"
            if event == "reopened":
                signature.times_reopened += 1
            signature.status_changed_at = now
            signature.history = [*signature.history, {"at": now.isoformat(), "text": _history(event, counts)}]
        examples = unit.tickets.examples(signature_id)
        content = render_ticket(signature, counts, examples, with_history=tracker.name == "markdown")
        pending_create = signature.tracker_ref is None
        earlier_attempt = signature.creating_since
        if pending_create and earlier_attempt is None:
            signature.creating_since = now
            # Recorded (with the transition) before the tracker is asked, so a crash after the
            # create and before recording it is found again by `find` on the next run.
            unit.tickets.save(signature, now=now)
        elif not pending_create and event is None and content.body_hash == signature.synced_body_hash:
            return  # nothing new to say
        else:
            unit.tickets.save(signature, now=now)
        status, previous_counts = signature.status, signature.synced_counts
        ref = None if pending_create else TicketRef(str(signature.tracker_ref), signature.tracker_url)

    link = TicketLink(signature_id, content.title, None)
    if ref is None:
        found = tracker.find(signature_id, created_since=earlier_attempt) if earlier_attempt else None
        ref = found or tracker.create(content)
        if found is not None:
            tracker.update(ref, content)
        _record(store, tracker, signature_id, ref, content, counts, now)
        link = TicketLink(signature_id, content.title, ref.url)
        if event == "reopened":
            report.reopened.append(link)
        elif status == "open":
            report.new.append(link)
        return

    tracker.update(ref, content)
    if event is not None:
        tracker.comment(ref, f"{signature_id}:{now.date().isoformat()}:{event}", _history(event, counts))
    elif _material(previous_counts, counts):
        tracker.comment(
            ref,
            f"{signature_id}:{now.date().isoformat()}:counts:{counts.total}",
            _counts_note(previous_counts, counts),
        )
    _record(store, tracker, signature_id, ref, content, counts, now)
    link = TicketLink(signature_id, content.title, ref.url)
    if event == "reopened":
        report.reopened.append(link)
    elif event == "closed":
        report.closed.append(link)
    else:
        report.updated += 1


def _transition(
    status: str, changed_at: datetime, counts: SignatureCounts, now: datetime, quiet_after: timedelta
) -> str | None:
    if status == "watching":
        return "opened"
    last_seen = counts.last_seen
    if (
        status == "open"
        and last_seen is not None
        and now - last_seen >= quiet_after
        and now - changed_at >= quiet_after
    ):
        return "closed"
    if status == "closed" and last_seen is not None and last_seen > changed_at:
        return "reopened"
    return None


def _record(
    store: Store,
    tracker: Tracker,
    signature_id: str,
    ref: TicketRef,
    content: TicketContent,
    counts: SignatureCounts,
    now: datetime,
) -> None:
    with store.unit() as unit:
        signature = unit.tickets.get(signature_id)
        assert signature is not None
        signature.tracker, signature.tracker_ref, signature.tracker_url = tracker.name, ref.ref, ref.url
        signature.creating_since = None
        signature.synced_body_hash = content.body_hash
        signature.synced_counts = counts.as_json()
        unit.tickets.save(signature, now=now)


def _history(event: str, counts: SignatureCounts) -> str:
    last = counts.last_seen.date().isoformat() if counts.last_seen else "never"
    if event == "opened":
        return f"Opened: {counts.total} occurrence(s) so far, confirmed by a grader."
    if event == "closed":
        return f"Quiet — probably fixed: no occurrence since {last}. Closed; Smith reopens it if it recurs."
    return f"Reopened: it happened again on {last} after being closed as quiet."


def _material(previous: dict[str, Any] | None, counts: SignatureCounts) -> bool:
    """A comment is worth a notification when occurrences grew by a quarter (at least 5) or spread."""
    if previous is None:
        return False
    before = int(previous.get("total", 0))
    grew = counts.total - before >= max(5, before // 4)
    spread = bool(set(counts.by_property) - set(previous.get("by_property", {})))
    return grew or spread


def _counts_note(previous: dict[str, Any] | None, counts: SignatureCounts) -> str:
    before = int((previous or {}).get("total", 0))
    new_places = sorted(set(counts.by_property) - set((previous or {}).get("by_property", {})))
    spread = f" Now also at: {', '.join(inert_code(place) for place in new_places)}." if new_places else ""
    return (
        f"Occurrences {before} → {counts.total} ({counts.last_7_days} in the last 7 days, "
        f"{counts.previous_7_days} the 7 days before).{spread}"
    )
