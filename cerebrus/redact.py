"""The last guard on receipts: no access code leaves the engine in clear, whatever a check wrote.

Details are masked (`••21`). A quote that would hold a code is dropped, not masked, because a quote
must stay a verbatim substring of the draft; its span still marks where it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from gradecore.model.access_codes import CodeMatcher, code_matcher
from gradecore.model.vocabulary import DimensionResult, Evidence


def redact(result: DimensionResult, codes: Iterable[str]) -> DimensionResult:
    """`codes` is best a CodeMatcher (the conversation view holds one): a plain list is matched too."""
    if not result.evidence:
        return result
    matcher = code_matcher(codes)
    if not any(_holds_code(evidence, matcher) for evidence in result.evidence):
        return result
    cleaned = tuple(_redact_evidence(e, matcher) for e in result.evidence)
    return result.model_copy(update={"evidence": cleaned})


def _holds_code(evidence: Evidence, codes: CodeMatcher) -> bool:
    return any(text and codes.contains(text) for text in (evidence.detail, evidence.quote))


def _redact_evidence(evidence: Evidence, codes: CodeMatcher) -> Evidence:
    update: dict[str, str | None] = {}
    for field in ("detail", "quote"):
        value = getattr(evidence, field)
        if value and codes.contains(value):
            update[field] = None if field == "quote" else codes.mask(value)
    if "quote" in update:
        masked = codes.mask(evidence.quote or "")
        update["detail"] = f"{update.get('detail') or evidence.detail or ''} (quote: {masked})".strip()
    return evidence.model_copy(update=update) if update else evidence
