"""What a check function returns: an outcome, a reason and its receipts, before the registry adds
the check's identity (id, layer, owner, scope, kind, level) to make a DimensionResult."""

from __future__ import annotations

from dataclasses import dataclass

from gradecore.model.vocabulary import Evidence, NotCheckedWhy, Outcome, Reason


@dataclass(frozen=True, slots=True)
class Finding:
    outcome: Outcome
    reason: Reason
    evidence: tuple[Evidence, ...] = ()
    why: NotCheckedWhy | None = None


def passed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    return Finding(Outcome.PASS, Reason(slug=slug, sentence=sentence), evidence)


def failed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    """A failure; the registry refuses one without a receipt."""
    return Finding(Outcome.FAIL, Reason(slug=slug, sentence=sentence), evidence)


def not_checked(why: NotCheckedWhy, sentence: str) -> Finding:
    return Finding(Outcome.NOT_CHECKED, Reason(slug=why.value, sentence=sentence), (), why)


def not_applicable(sentence: str) -> Finding:
    return not_checked(NotCheckedWhy.NOT_APPLICABLE, sentence)


def data_missing(sentence: str) -> Finding:
    return not_checked(NotCheckedWhy.DATA_MISSING, sentence)
