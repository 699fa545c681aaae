"""Which *ours* checks engineers have a ticket for (docs/verdicts.md: what a post promises is true).

Apart from smith.tickets.ticketed (which edits posts through the outbox) so that building a post can
ask it without importing the outbox.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlmodel import col, select

from gradecore.persistence.entities import TicketSignature
from gradecore.persistence.store import Unit
from smith.tickets.signature import signatures_of


def tickets_by_check(unit: Unit, dimensions: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """The failing *ours* checks whose every cause has a filed ticket: check -> its web address ("" when
    the tracker has none, or the causes' tickets differ). One query for the signatures."""
    causes: dict[str, list[str]] = {}
    for dimension in dimensions:
        for signature in signatures_of([dimension]):
            causes.setdefault(signature.check, []).append(signature.id)
    if not causes:
        return {}
    ids = {signature_id for found in causes.values() for signature_id in found}
    query = select(TicketSignature).where(col(TicketSignature.id).in_(ids))
    filed = {s.id: s.tracker_url or "" for s in unit.session.exec(query) if s.tracker_ref is not None}
    tickets: dict[str, str] = {}
    for check, signature_ids in causes.items():
        if all(signature_id in filed for signature_id in signature_ids):
            urls = {filed[signature_id] for signature_id in signature_ids}
            tickets[check] = urls.pop() if len(urls) == 1 else ""
    return tickets
