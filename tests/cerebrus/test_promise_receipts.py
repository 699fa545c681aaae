"""The promise check's receipts: which promise, and for an unbacked one what is missing."""

from __future__ import annotations

from typing import Any

import pytest

from gradecore.model.vocabulary import Outcome
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import run_check


def _receipt(
    draft: str, *, facts: dict[str, Any] | None = None, status: str | None = None
) -> tuple[Any, ...]:
    steps = (
        None if status is None else [claude(stop_reason="tool_use"), tool("dispatch_vendor", status=status)]
    )
    conversation = ConversationBuilder(facts=facts).inbound("Hi").reply(draft, steps=steps).build()
    result = run_check(conversation, "no_ungrounded_policy_claim")
    (evidence,) = result.evidence
    return result.outcome, evidence.detail, evidence.fact_key, evidence.tool_name, evidence.rule_entry


ARRIVAL = "We'll text you access instructions about an hour before."
VISIT = "The plumber will come by at 9."


@pytest.mark.parametrize(
    ("draft", "facts", "status", "expected"),
    [
        (
            ARRIVAL,
            {"arrival_instructions": None},
            None,
            (
                Outcome.FAIL,
                "promise arrival_instructions: no arrival_instructions on file",
                "arrival_instructions",
                None,
                "arrival.active_en",
            ),
        ),
        (
            ARRIVAL,
            None,
            None,
            (Outcome.PASS, "promise arrival_instructions", "arrival_instructions", None, "arrival.active_en"),
        ),
        (
            VISIT,
            None,
            "error",
            (
                Outcome.FAIL,
                "promise vendor_visit: no successful dispatch_vendor call in this turn or before",
                None,
                "dispatch_vendor",
                "visit.trade_en",
            ),
        ),
        (
            VISIT,
            None,
            "success",
            (Outcome.PASS, "promise vendor_visit", None, "dispatch_vendor", "visit.trade_en"),
        ),
    ],
)
def test_a_receipt_names_the_promise_and_what_is_missing(
    draft: str, facts: dict[str, Any] | None, status: str | None, expected: tuple[Any, ...]
) -> None:
    assert _receipt(draft, facts=facts, status=status) == expected
