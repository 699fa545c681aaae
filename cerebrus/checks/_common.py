"""Helpers several checks share: reading facts, intent gating, and evidence about the draft."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from functools import lru_cache
from typing import Any

from cerebrus.construct import new_evidence
from cerebrus.findings import Finding, not_applicable
from cerebrus.views import TurnView
from gradecore.contract import ToolExecutionStep
from gradecore.vocabulary import Evidence, Span

ERROR_DETAIL_CHARS = 200


def is_empty(value: Any) -> bool:
    """A fact that is missing, blank, or an empty collection is not on file."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value or value.isspace()
    # JSON values first: the abstract-class checks below are several times slower (and a tuple of
    # types is checked in C, a `X | Y` union in Python).
    if isinstance(value, (dict, list, tuple)):
        return len(value) == 0
    if isinstance(value, (Mapping, Sequence)):
        return len(value) == 0
    return False


def intent_table(view: TurnView, table: Mapping[str, Sequence[str]], noun: str) -> Sequence[str] | Finding:
    """The intent's entries in a rule table, or why an intent-driven check does not apply."""
    intent = view.turn.intent
    if intent is None:
        return _no_intent(noun)
    entries = table.get(intent, ())
    if not entries:
        return _intent_without(intent, noun)
    return entries


# The findings of turns an intent-driven check does not apply to: cached, so no sentence is formatted
# per turn (bounded like the findings they return, since an intent name is the platform's).
@lru_cache(maxsize=64)
def _no_intent(noun: str) -> Finding:
    return not_applicable(f"The turn has no intent, so no {noun} are defined for it.")


@lru_cache(maxsize=4096)
def _intent_without(intent: str, noun: str) -> Finding:
    return not_applicable(f"The intent {intent} has no {noun}.")


FactsOnFile = tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]
"""The keys missing from property.facts (absent or empty), and the (key, value) pairs on file."""


def facts_on_file(view: TurnView, keys: Sequence[str]) -> FactsOnFile:
    """Which of `keys` are missing and which are on file, in key order: once per conversation and
    key list (the turns of one intent ask the same question of the same facts)."""
    memo_key = ("facts_on_file", tuple(keys))
    derived = view.parent.derived
    known: FactsOnFile | None = derived.get(memo_key)
    if known is None:
        fact = view.parent.fact
        values = [(key, fact(key)) for key in keys]
        known = (
            tuple(key for key, value in values if is_empty(value)),
            tuple((key, value) for key, value in values if not is_empty(value)),
        )
        derived[memo_key] = known
    return known


def succeeded_so_far(view: TurnView) -> frozenset[str]:
    """The tools that succeeded in this turn or in an earlier turn of the conversation (a visit
    dispatched in turn 1 still backs "the plumber will come by at 9 as planned" in turn 2)."""
    memo_key = ("succeeded_so_far", ())
    derived = view.parent.derived
    cumulative: list[frozenset[str]] | None = derived.get(memo_key)
    if cumulative is None:
        cumulative = derived[memo_key] = []
    # Worked out turn by turn as far as asked (turns are graded in order), once per conversation.
    if len(cumulative) < view.number:
        turns = view.conversation.turns
        seen = set(cumulative[-1]) if cumulative else set()
        for turn in turns[len(cumulative) : view.number]:
            for step in turn.trace.steps:
                if isinstance(step, ToolExecutionStep) and step.status == "success":
                    seen.add(step.tool_name)
            cumulative.append(frozenset(seen))
    return cumulative[view.number - 1]


def draft_evidence(view: TurnView, span: Span, **extra: Any) -> Evidence:
    """A receipt quoting the draft exactly at `span`."""
    return new_evidence(
        {
            "message_id": view.message.id,
            "turn_id": view.turn.id,
            "quote": view.draft[span.start : span.end],
            "span": span,
            **extra,
        }
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
