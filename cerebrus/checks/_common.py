"""Helpers several checks share: reading facts, intent gating, and evidence about the draft."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from cerebrus.findings import Finding, not_applicable
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Span

ERROR_DETAIL_CHARS = 200


def is_empty(value: Any) -> bool:
    """A fact that is missing, blank, or an empty collection is not on file."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value or value.isspace()
    if isinstance(value, Mapping | Sequence):
        return len(value) == 0
    return False


def intent_table(view: TurnView, table: Mapping[str, Sequence[str]], noun: str) -> Sequence[str] | Finding:
    """The intent's entries in a rule table, or why an intent-driven check does not apply."""
    intent = view.turn.intent
    if intent is None:
        return not_applicable(f"The turn has no intent, so no {noun} are defined for it.")
    entries = table.get(intent, ())
    if not entries:
        return not_applicable(f"The intent {intent} has no {noun}.")
    return entries


FactsOnFile = tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]
"""The keys missing from property.facts (absent or empty), and the (key, value) pairs on file."""


def facts_on_file(view: TurnView, keys: Sequence[str]) -> FactsOnFile:
    """Which of `keys` are missing and which are on file, in key order."""
    facts = view.conversation.property.facts
    values = [(key, facts.value(key)) for key in keys]
    return (
        tuple(key for key, value in values if is_empty(value)),
        tuple((key, value) for key, value in values if not is_empty(value)),
    )


def succeeded_so_far(view: TurnView, tool: str) -> bool:
    """Whether the tool succeeded in this turn or in an earlier turn of the conversation (a visit
    dispatched in turn 1 still backs "the plumber will come by at 9 as planned" in turn 2)."""
    first = view.parent.first_successes.get(tool)
    return first is not None and first <= view.number


def draft_evidence(view: TurnView, span: Span, **extra: Any) -> Evidence:
    """A receipt quoting the draft exactly at `span`."""
    return Evidence(
        message_id=view.message.id,
        turn_id=view.turn.id,
        quote=view.draft[span.start : span.end],
        span=span,
        **extra,
    )


def truncate(text: str, limit: int = ERROR_DETAIL_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def humanize(delta: timedelta) -> str:
    """`2 days`, `5 h`, `12 min`: how long something waited, for a reason sentence."""
    seconds = int(delta.total_seconds())
    if seconds >= 2 * 86400:
        return f"{seconds // 86400} days"
    if seconds >= 3600:
        return f"{seconds // 3600} h"
    return f"{max(seconds // 60, 0)} min"
