"""What a check function returns: an outcome, its reason (a slug and a sentence) and its receipts, before
the registry adds the check's identity (id, layer, owner, scope, kind, level) to make a DimensionResult.

A finding is plain data (strings and enum members): the registry validates it into a grade's models.
"""

from __future__ import annotations

from typing import NamedTuple

from gradecore.model.vocabulary import Evidence, NotCheckedWhy, Outcome


class Finding(NamedTuple):
    outcome: Outcome
    slug: str
    sentence: str
    evidence: tuple[Evidence, ...] = ()
    why: NotCheckedWhy | None = None


def passed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    return Finding(Outcome.PASS, slug, sentence, evidence)


def failed(slug: str, sentence: str, *evidence: Evidence) -> Finding:
    """A failure; the registry refuses one without a receipt."""
    return Finding(Outcome.FAIL, slug, sentence, evidence)


def not_checked(why: NotCheckedWhy, sentence: str) -> Finding:
    return Finding(Outcome.NOT_CHECKED, why.value, sentence, (), why)


def not_applicable(sentence: str) -> Finding:
    return not_checked(NotCheckedWhy.NOT_APPLICABLE, sentence)


def data_missing(sentence: str) -> Finding:
    return not_checked(NotCheckedWhy.DATA_MISSING, sentence)
