"""The last guard on receipts: no access code leaves the engine in clear, whatever a check wrote.

Details are masked (`••21`). A quote that would hold a code is dropped, not masked, because a quote
must stay a verbatim substring of the draft; its span still marks where it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from gradecore.access_codes import CodeMatcher, code_matcher
from gradecore.vocabulary import DimensionResult, Evidence


def redact(result: DimensionResult, codes: Iterable[str]) -> DimensionResult:
    """`codes` is best a CodeMatcher (the conversation view holds one): a plain list is matched too."""
    if not result.evidence:
        return result
    matcher = code_matcher(codes)
    if not matcher:
        return result
    few = _few_codes(matcher)
    if not any(_holds_code(e, matcher, few) for e in result.evidence):
        return result
    cleaned = tuple(_redact_evidence(e, matcher) for e in result.evidence)
    if cleaned == result.evidence:
        return result
    return result.model_copy(update={"evidence": cleaned})


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


def _holds_code(evidence: Evidence, codes: CodeMatcher, few: tuple[str, ...] | None) -> bool:
    """Whether a receipt's detail or quote holds a code (almost never: the fast, common answer)."""
    for text in (evidence.detail, evidence.quote):
        if not text:
            continue
        if few is not None:
            # The matcher only ever finds a code as a substring of the lower-cased text (when lowering
            # keeps its length; see gradecore.access_codes): a few substring searches in C rule most
            # texts out without its character-by-character pass in Python.
            lowered = text.lower()
            if len(lowered) == len(text) and not any(code in lowered for code in few):
                continue
        if codes.contains(text):
            return True
    return False


# Past this many codes the matcher's single pass beats one substring search per code.
_FEW_CODES = 16


@lru_cache(maxsize=64)
def _few_codes(matcher: CodeMatcher) -> tuple[str, ...] | None:
    """A short list's codes as the matcher holds them (lower-cased), or None for a long list."""
    found = tuple(matcher)
    return found if len(found) <= _FEW_CODES else None
