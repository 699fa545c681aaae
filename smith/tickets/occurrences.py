"""Reading new machine grades into signature occurrences, and grader acts into confirmations.

The scan walks deterministic grades in creation order from where the last sweep stopped (minus a
small overlap for transactions that committed late); occurrences are keyed by item, so reading a
grade twice, or a conversation regraded, counts once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from gradecore.persistence.store import Store, Unit
from smith.tickets.signature import Signature, signatures_of

SCAN_OVERLAP = timedelta(minutes=10)
SCAN_BATCH = 500


def record_occurrences(store: Store, *, now: datetime) -> int:
    """Scan grades created since the last scan; returns how many failing grades were read."""
    with store.unit() as unit:
        scanned = unit.tickets.scanned_through()
    position = None if scanned is None else (scanned - SCAN_OVERLAP, "")
    read = 0
    while True:
        with store.unit() as unit:
            grades = unit.tickets.failing_grades_after(position, now, limit=SCAN_BATCH)
            rows: list[dict[str, Any]] = []
            seen: dict[str, Signature] = {}
            for grade in grades:
                for signature in signatures_of(grade.dimensions):
                    seen.setdefault(signature.id, signature)
                    rows.append(
                        {
                            "signature_id": signature.id,
                            "conversation_id": grade.conversation_id,
                            "turn_key": grade.turn_id or "",
                            "property_id": grade.property_id,
                            "machine_grade_id": grade.id,
                            "seen_at": grade.settled_at,
                            "recorded_at": now,
                        }
                    )
            for signature in seen.values():  # one insert per distinct cause in the batch, not per grade
                ensure_signature(unit, signature, now=now)
            unit.tickets.add_occurrences(rows)
            if not grades:
                unit.tickets.mark_scanned(now)
                return read
            read += len(grades)
            position = (grades[-1].created_at, grades[-1].id)


def ensure_signature(unit: Unit, signature: Signature, *, now: datetime) -> None:
    unit.tickets.ensure(signature.id, signature.check, signature.layer, signature.cause, now=now)


def confirmation_rows(
    signatures: Sequence[Signature],
    *,
    verdict_id: int,
    signal: str,
    property_id: str,
    example: str | None,
    receipts: Sequence[str],
    created_at: datetime,
) -> list[dict[str, Any]]:
    return [
        {
            "signature_id": signature.id,
            "verdict_id": verdict_id,
            "signal": signal,
            "property_id": property_id,
            "example": example[:2000] if example else None,
            "receipts": list(receipts),
            "created_at": created_at,
        }
        for signature in signatures
    ]


def receipt_lines(dimensions: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per receipt of each failing *ours* dimension (from an already anonymized grade)."""
    lines: list[str] = []
    for dimension in dimensions:
        if dimension.get("outcome") != "fail" or dimension.get("owner") != "ours":
            continue
        reason = dimension.get("reason")
        sentence = reason.get("sentence") if isinstance(reason, Mapping) else None
        lines.append(f"`{dimension.get('check')}`: {sentence or 'failed'}")
        for evidence in dimension.get("evidence") or ():
            if not isinstance(evidence, Mapping):
                continue
            where = ", ".join(
                f"{key.replace('_', ' ')} {evidence[key]}"
                for key in ("turn_id", "step_index", "tool_name", "fact_key")
                if evidence.get(key) is not None
            )
            said = " — ".join(str(evidence[key]) for key in ("quote", "detail") if evidence.get(key))
            lines.append(f"  {where or 'receipt'}{': ' if said else ''}{said}"[:500])
    return lines[:20]
