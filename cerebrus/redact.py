"""The last guard on receipts: no access code leaves the engine in clear, whatever a check wrote.

Details are masked (`••21`). A quote that would hold a code is dropped, not masked, because a quote
must stay a verbatim substring of the draft; its span still marks where it was.
"""

from __future__ import annotations

from cerebrus.text import mask_codes
from gradecore.vocabulary import DimensionResult, Evidence


def redact(result: DimensionResult, codes: tuple[str, ...]) -> DimensionResult:
    if not codes or not result.evidence or not any(_holds_code(e, codes) for e in result.evidence):
        return result
    cleaned = tuple(_redact_evidence(e, codes) for e in result.evidence)
    if cleaned == result.evidence:
        return result
    return result.model_copy(update={"evidence": cleaned})


def _redact_evidence(evidence: Evidence, codes: tuple[str, ...]) -> Evidence:
    update: dict[str, str | None] = {}
    for field in ("detail", "quote"):
        value = getattr(evidence, field)
        if value and any(code in value for code in codes):
            update[field] = None if field == "quote" else mask_codes(value, codes)
    if "quote" in update:
        masked = mask_codes(evidence.quote or "", codes)
        update["detail"] = f"{update.get('detail') or evidence.detail or ''} (quote: {masked})".strip()
    return evidence.model_copy(update=update) if update else evidence


def _holds_code(evidence: Evidence, codes: tuple[str, ...]) -> bool:
    """Whether a receipt's detail or quote holds a code (almost never: the fast, common answer)."""
    for text in (evidence.detail, evidence.quote):
        if text:
            for code in codes:
                if code in text:
                    return True
    return False
