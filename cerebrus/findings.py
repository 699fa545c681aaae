"""What a check function returns: an outcome, a reason and its receipts, before the registry adds
the check's identity (id, layer, owner, scope, kind, level) to make a DimensionResult.

A finding without receipts is built once per (outcome, reason) and then shared: the same object comes
back every time, so the registry can recognise it by identity and hand back the DimensionResult it
already made for it instead of building (and hashing) anything per turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gradecore.model.vocabulary import Evidence, NotCheckedWhy, Outcome, Reason


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


# Bounded like `reason`: a sentence may carry a value (a stop reason, an intent name).
@lru_cache(maxsize=4096)
def _plain_pass(slug: str, sentence: str) -> Finding:
    return Finding(Outcome.PASS, reason(slug, sentence))


@lru_cache(maxsize=4096)
def _plain_not_checked(why: NotCheckedWhy, sentence: str) -> Finding:
    return Finding(Outcome.NOT_CHECKED, reason(why.value, sentence), (), why)


@lru_cache(maxsize=4096)
def not_applicable(sentence: str) -> Finding:
    return _plain_not_checked(NotCheckedWhy.NOT_APPLICABLE, sentence)


@lru_cache(maxsize=4096)
def data_missing(sentence: str) -> Finding:
    return _plain_not_checked(NotCheckedWhy.DATA_MISSING, sentence)


def passed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    if not evidence:
        return _plain_pass(slug, sentence)
    return Finding(Outcome.PASS, reason(slug, sentence), evidence)


def failed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    """A failure; the registry refuses one without a receipt."""
    return Finding(Outcome.FAIL, reason(slug, sentence), evidence)


def not_checked(why: NotCheckedWhy, sentence: str) -> Finding:
    return _plain_not_checked(why, sentence)
