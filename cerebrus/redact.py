"""The last guard on receipts: no access code leaves the engine in clear, whatever a check wrote.

Details are masked (`••21`). A quote that would hold a code is dropped, not masked, because a quote
must stay a verbatim substring of the draft; its span still marks where it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from gradecore.model.access_codes import CodeMatcher, code_matcher
from gradecore.model.vocabulary import DimensionResult, Evidence


def redact(result: DimensionResult, codes: Iterable[str]) -> DimensionResult:
    """`codes` is best a CodeMatcher (the conversation view holds one): a plain list is matched too."""
    if not result.evidence:
        return result
    matcher = code_matcher(codes)
    any_codes, screen = _screen(matcher)
    if not any_codes:
        return result
    for evidence in result.evidence:
        if _holds_code(evidence, matcher, screen):
            break
    else:
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


def _holds_code(evidence: Evidence, codes: CodeMatcher, screen: re.Pattern[str] | None) -> bool:
    """Whether a receipt's detail or quote holds a code (almost never: the fast, common answer)."""
    for text in (evidence.detail, evidence.quote):
        if not text:
            continue
        if screen is not None:
            # The matcher only ever finds a code as a substring of the lower-cased text (when lowering
            # keeps its length; see gradecore.model.access_codes): one search in C for any of a few codes
            # rules most texts out without its character-by-character pass in Python.
            lowered = text.lower()
            if len(lowered) == len(text) and screen.search(lowered) is None:
                continue
        if codes.contains(text):
            return True
    return False


# Past this many codes the matcher's single pass beats a search for any of them.
_FEW_CODES = 16


@lru_cache(maxsize=64)
def _screen(matcher: CodeMatcher) -> tuple[bool, re.Pattern[str] | None]:
    """Whether a code list has codes, and for a short one a pattern finding any of its codes (as the
    matcher holds them, lower-cased) as a substring; None for a long one."""
    found = tuple(matcher)
    if not found or len(found) > _FEW_CODES:
        return bool(found), None
    return True, re.compile("|".join(re.escape(code) for code in sorted(found)))
