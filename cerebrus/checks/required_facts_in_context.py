"""Turn check: the required facts that are on file actually reached Clara (prompt or tool result)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from cerebrus.amounts.mentions import number_pattern
from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import facts_on_file, intent_table, is_empty

IN_CONTEXT = passed("facts_in_context", "Every required fact on file reached Clara's context.")


@check(layer=Layer.CONTEXT, scope=Scope.TURN, level=Level.HOLD)
def required_facts_in_context(view: TurnView) -> Finding:
    """A required fact exists in property.facts but its value appears neither in the final claude_call's
    system_prompt nor in a successful tool result."""
    required = intent_table(view, view.rules.required_facts, "required facts")
    if isinstance(required, Finding):
        return required
    final = view.final_call
    if final is None:
        return data_missing("The trace has no claude_call, so there is no context to look in.")
    _, on_file = facts_on_file(view, required)
    if not on_file:
        return data_missing("None of the required facts is on file, so none could reach the context.")
    step_index, call = final
    context = _Context(call.system_prompt, view)
    absent = [key for key, value in on_file if not context.holds(value)]
    if absent:
        return failed(
            "fact_not_in_context",
            f"{', '.join(absent)} is on file but never reached Clara's context.",
            *(
                Evidence(
                    turn_id=view.turn.id,
                    step_index=step_index,
                    fact_key=key,
                    detail="not in the final system prompt or any successful tool result",
                )
                for key in absent
            ),
        )
    return IN_CONTEXT


class _Context:
    """The texts Clara saw: the final system prompt, then each successful tool result. Strings are
    looked up whitespace- and case-insensitively, numbers in any usual formatting; each lookup is one
    compiled search per text. The prompt is searched first and the tool results (JSON-dumped by the
    view) only when a fact is not in it, so most turns never dump a tool result."""

    __slots__ = ("_lowered", "_prompt", "_view")  # one is built per turn

    def __init__(self, prompt: str, view: TurnView) -> None:
        self._prompt = prompt
        self._view = view
        self._lowered: str | None = None

    def holds(self, value: Any) -> bool:
        if isinstance(value, bool):
            return self._has_text(str(value).lower())
        # isinstance with tuples of types: a `X | Y` union is checked in Python, several times slower.
        if isinstance(value, (int, float)):
            pattern = number_pattern(float(value))
            if pattern.search(self._prompt) is not None:
                return True
            return any(pattern.search(text) is not None for text in self._view.tool_results_json)
        if isinstance(value, str):
            return self._has_text(value)
        if isinstance(value, dict):
            return self._any_holds(value.values())
        if isinstance(value, (list, tuple)):
            return self._any_holds(value)
        return False

    def _any_holds(self, values: Iterable[Any]) -> bool:
        # A plain loop, not any() over a generator: a ledger of amounts is looked up on most turns.
        # A number is never empty: asking `is_empty` of one (the amounts) would only cost its
        # abstract-class checks.
        for item in values:
            if (isinstance(item, (int, float)) or not is_empty(item)) and self.holds(item):
                return True
        return False

    def _has_text(self, text: str) -> bool:
        # Lower-casing the prompt once beats re.IGNORECASE over a prompt of several KB.
        if self._lowered is None:
            self._lowered = self._prompt.lower()
        pattern = _text_pattern(" ".join(text.lower().split()))
        return pattern.search(self._lowered) is not None or any(
            pattern.search(text) is not None for text in self._view.tool_results_lowered
        )


@lru_cache(maxsize=1024)
def _text_pattern(squashed: str) -> re.Pattern[str]:
    # Any run of whitespace in the context matches a space in the fact.
    return re.compile(r"\s+".join(re.escape(word) for word in squashed.split(" ")))
