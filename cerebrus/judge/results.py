"""Turning the judge's tool output into DimensionResults, receipt first.

A score counts only when its quote is a verbatim substring of the draft, long enough to prove
something and covering at least one whole word of it; otherwise it is voided (`not_checked`,
`no_receipt`). Anything the lane could not get a usable answer for is `not_checked`,
`judge_error`: "could not grade" is data, never a failure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cerebrus.judged_dimensions import LEVEL_BY_SCORE, judged_result
from cerebrus.redact import redact
from gradecore.model.access_codes import code_matcher
from gradecore.model.contract import Turn
from gradecore.model.vocabulary import (
    DimensionResult,
    Evidence,
    Level,
    NotCheckedWhy,
    Outcome,
    Reason,
    Span,
)

_SLUGS = {
    "tone": ("harmful_tone", "poor_tone", "tone_needs_polish", "tone_fine"),
    "pacing": ("harmful_pacing", "poor_pacing", "pacing_needs_polish", "pacing_fine"),
}
_MAX_SENTENCE = 280
# A receipt shorter than this proves nothing: "a", "the" or "ok" occur in almost any draft.
MIN_RECEIPT_CHARS = 12
_WORD = re.compile(r"\w+")


class JudgedScore(BaseModel):
    """One dimension of the `record_scores` tool input, validated strictly (no "3" for 3)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    score: int = Field(ge=0, le=3)
    quote: str
    reason: str


def parse_score(raw: object) -> JudgedScore | None:
    """The validated score, or None when the tool output for this dimension is malformed."""
    if not isinstance(raw, dict):
        return None
    try:
        return JudgedScore.model_validate(raw)
    except ValidationError:
        return None


def _sentence(text: str, fallback: str) -> str:
    # The reason is model output shown to staff: one line, bounded, never empty.
    flat = " ".join(text.split())
    if not flat:
        return fallback
    return flat if len(flat) <= _MAX_SENTENCE else flat[: _MAX_SENTENCE - 1].rstrip() + "…"


def _result(
    check: str,
    *,
    outcome: Outcome,
    level: Level,
    reason: Reason,
    calibrated: AbstractSet[str],
    evidence: tuple[Evidence, ...],
    why: NotCheckedWhy | None = None,
    score: int | None = None,
) -> DimensionResult:
    return judged_result(
        check,
        outcome=outcome,
        level=level,
        reason=reason,
        evidence=evidence,
        not_checked_why=why,
        score=score,
        # Advisory until an operator marks the dimension calibrated in the rules (docs/grading.md).
        colours_verdict=check in calibrated,
    )


def scored_result(
    check: str, judged: JudgedScore, *, draft: str, turn: Turn, calibrated: AbstractSet[str]
) -> DimensionResult:
    """A valid score with its receipt, or `no_receipt` when the quote is not in the draft."""
    start = receipt_start(draft, judged.quote)
    if start is None:
        return not_checked(
            check,
            NotCheckedWhy.NO_RECEIPT,
            turn=turn,
            calibrated=calibrated,
            sentence=f"The judge's quote for {check} does not prove its score, so the score was discarded.",
        )
    span = Span(start=start, end=start + len(judged.quote))
    evidence = Evidence(message_id=turn.message_id, turn_id=turn.id, quote=judged.quote, span=span)
    level = LEVEL_BY_SCORE[judged.score]
    fallback = f"The judge scored {check} {judged.score} of 3."
    return _result(
        check,
        outcome=Outcome.PASS if judged.score == 3 else Outcome.FAIL,
        level=level,
        reason=Reason(slug=_SLUGS[check][judged.score], sentence=_sentence(judged.reason, fallback)),
        calibrated=calibrated,
        evidence=(evidence,),
        score=judged.score,
    )


def receipt_start(draft: str, quote: str) -> int | None:
    """Where `quote` stands in `draft` as a receipt, or None when it proves nothing: not verbatim in
    the draft, shorter than MIN_RECEIPT_CHARS, or not covering a single whole word of the draft (a
    string of letters cut out of the middle of words)."""
    if len(quote.strip()) < MIN_RECEIPT_CHARS:
        return None
    start = draft.find(quote)
    if start < 0:
        return None
    words = [word.span() for word in _WORD.finditer(draft)]
    while start >= 0:
        end = start + len(quote)
        if any(start <= word_start and word_end <= end for word_start, word_end in words):
            return start
        start = draft.find(quote, start + 1)
    return None


def not_checked(
    check: str,
    why: NotCheckedWhy,
    *,
    turn: Turn,
    calibrated: AbstractSet[str],
    sentence: str | None = None,
    detail: str | None = None,
) -> DimensionResult:
    text = sentence or f"The judge could not score {check} for this turn."
    return _result(
        check,
        outcome=Outcome.NOT_CHECKED,
        level=Level.PASS,
        reason=Reason(slug=why.value, sentence=text),
        calibrated=calibrated,
        evidence=(Evidence(message_id=turn.message_id, turn_id=turn.id, detail=detail),),
        why=why,
    )


def redacted(result: DimensionResult, codes: Iterable[str]) -> DimensionResult:
    """No access code leaves in clear: the receipt was verified first, then its quote is dropped and
    the judge's own sentence masked (`••21`), as for every deterministic check."""
    if not codes:
        return result
    cleaned = redact(result, codes)
    sentence = code_matcher(codes).mask(cleaned.reason.sentence)
    if sentence == cleaned.reason.sentence:
        return cleaned
    return cleaned.model_copy(update={"reason": cleaned.reason.model_copy(update={"sentence": sentence})})
