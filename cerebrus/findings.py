"""What a check function returns: an outcome, a reason and its receipts, before the registry adds
the check's identity (id, layer, owner, scope, kind, level) to make a DimensionResult.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gradecore.vocabulary import Evidence, NotCheckedWhy, Outcome, Reason


@dataclass(frozen=True, slots=True)
class Finding:
    outcome: Outcome
    reason: Reason
    evidence: tuple[Evidence, ...] = ()
    why: NotCheckedWhy | None = None


@lru_cache(maxsize=4096)
def reason(slug: str, sentence: str) -> Reason:
    """Reasons repeat across turns; building each once keeps grading cheap."""
    return Reason(slug=slug, sentence=sentence)


def passed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    return Finding(Outcome.PASS, reason(slug, sentence), evidence)


def failed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    """A failure; the registry refuses one without a receipt."""
    return Finding(Outcome.FAIL, reason(slug, sentence), evidence)


def not_checked(why: NotCheckedWhy, sentence: str) -> Finding:
    return Finding(Outcome.NOT_CHECKED, reason(why.value, sentence), (), why)


def not_applicable(sentence: str) -> Finding:
    return not_checked(NotCheckedWhy.NOT_APPLICABLE, sentence)


def data_missing(sentence: str) -> Finding:
    return not_checked(NotCheckedWhy.DATA_MISSING, sentence)
