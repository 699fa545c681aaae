"""docs/text-matching.md: where v2 could be read two ways, the reading the rubric takes.
Each reading is pinned here, including those the engine already held before v3 (issue 21)."""

from __future__ import annotations

from typing import Any

import pytest

from cerebrus import Rules
from gradecore.model.contract import validate_conversation
from gradecore.model.vocabulary import NotCheckedWhy, Outcome
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check

# --- Times are instants, each with its own offset --------------------------------------------------


def _asked_at(at: str, settled_at: str) -> dict[str, Any]:
    """A question asked at `at`, never answered, settled at `settled_at` (both as written)."""
    document = ConversationBuilder().inbound("When can I tour?").document()
    document["messages"][0]["at"] = at
    document["settled_at"] = settled_at
    return document


@pytest.mark.parametrize(
    ("at", "settled_at", "outcome"),
    [
        # 08:00 at -07:00 is 15:00 UTC: two hours before settling, within the 4 h follow-up time
        # (as wall-clock text, 08:00 to 17:00 would be nine hours).
        ("2026-11-24T08:00:00-07:00", "2026-11-24T17:00:00+00:00", Outcome.PASS),
        # 20:00 at +05:00 is 15:00 UTC: five hours before settling at 20:00 UTC (as text, none).
        ("2026-11-24T20:00:00+05:00", "2026-11-24T20:00:00Z", Outcome.FAIL),
        # The deadline ends at settled_at read the same way: 4 h exactly is still within it.
        ("2026-11-24T09:00:00-06:00", "2026-11-24T13:00:00-02:00", Outcome.PASS),
    ],
)
def test_times_are_compared_as_instants(at: str, settled_at: str, outcome: Outcome) -> None:
    conversation = validate_conversation(_asked_at(at, settled_at))
    assert run_check(conversation, "followup_exists").outcome is outcome


def test_an_escalation_deadline_is_read_as_an_instant() -> None:
    document = ConversationBuilder().inbound("Help").escalation().document()
    # Opened 10:00 at -10:00 (20:00 UTC); settled 12:00 UTC the next day: 16 h, within the 24 h.
    document["escalations"][0]["opened_at"] = "2026-11-24T10:00:00-10:00"
    document["settled_at"] = "2026-11-25T12:00:00Z"
    assert run_check(validate_conversation(document), "escalation_closed").outcome is Outcome.PASS
    document["settled_at"] = "2026-11-25T21:00:00+00:00"  # 25 h
    assert run_check(validate_conversation(document), "escalation_closed").outcome is Outcome.FAIL


# --- An empty fact is missing ----------------------------------------------------------------------


@pytest.mark.parametrize("empty", [None, "", "   ", [], {}])
def test_an_empty_fact_is_missing(empty: Any) -> None:
    rules = Rules.model_validate({"required_facts": {"tour_request": ["pet_policy"]}})
    conversation = (
        ConversationBuilder(facts={"pet_policy": empty})
        .inbound("Can I tour?")
        .reply("Sure!", intent="tour_request")
        .build()
    )
    present = run_check(conversation, "required_facts_present", rules)
    assert present.outcome is Outcome.FAIL
    assert [e.fact_key for e in present.evidence] == ["pet_policy"]
    in_context = run_check(conversation, "required_facts_in_context", rules)
    assert in_context.outcome is Outcome.NOT_CHECKED
    assert in_context.not_checked_why is NotCheckedWhy.DATA_MISSING


# --- A visit promise is backed by this turn or an earlier one --------------------------------------

VISIT = "The plumber will come by at 9 as planned."


def test_a_visit_promise_is_backed_by_a_dispatch_in_an_earlier_turn() -> None:
    dispatched = [claude(stop_reason="tool_use"), tool("dispatch_vendor", result={"ok": True}), claude("x")]
    conversation = (
        ConversationBuilder(role="resident")
        .inbound("My sink is leaking")
        .reply("A plumber is booked for 9.", intent="maintenance_request", steps=dispatched)
        .inbound("Still on for tomorrow?")
        .reply(VISIT, intent="maintenance_request")
        .build()
    )
    assert run_check(conversation, "no_ungrounded_policy_claim", turn=1).outcome is Outcome.PASS


def test_a_visit_promise_is_not_backed_by_a_later_turn_or_a_failed_dispatch() -> None:
    failed = [
        claude(stop_reason="tool_use"),
        tool("dispatch_vendor", status="error", error="down"),
        claude("x"),
    ]
    dispatched = [claude(stop_reason="tool_use"), tool("dispatch_vendor", result={"ok": True}), claude("y")]
    conversation = (
        ConversationBuilder(role="resident")
        .inbound("My sink is leaking")
        .reply(VISIT, intent="maintenance_request", steps=failed)
        .inbound("ok")
        .reply("Booked now.", intent="maintenance_request", steps=dispatched)
        .build()
    )
    assert run_check(conversation, "no_ungrounded_policy_claim", turn=0).outcome is Outcome.FAIL


# --- Retrying a failed call is progress-seeking ----------------------------------------------------


def _calls(*calls: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    steps = [claude(stop_reason="tool_use")]
    for status, call_input in calls:
        steps.append(tool("get_tour_slots", status=status, error="timeout", input=call_input, result={}))
    steps.append(claude("Here are the slots."))
    return steps


@pytest.mark.parametrize(
    "calls",
    [
        # changed input, however often
        [("error", {"day": d}) for d in ("mon", "tue", "wed", "thu", "fri")],
        # the same input twice, then a changed one
        [("error", {"day": "mon"}), ("error", {"day": "mon"}), ("error", {"day": "tue"})],
        # the same input retried until it worked
        [("error", {"day": "mon"})] * 3 + [("success", {"day": "mon"})],
    ],
)
def test_retrying_a_failed_call_is_progress_seeking(calls: list[tuple[str, dict[str, Any]]]) -> None:
    conversation = ConversationBuilder().inbound("Tour?").reply("x", steps=_calls(*calls)).build()
    assert run_check(conversation, "loop_progress").outcome is Outcome.PASS


def test_retries_are_a_loop_when_the_loop_rule_says_so() -> None:
    calls = [("error", {"day": "mon"})] * 3
    conversation = ConversationBuilder().inbound("Tour?").reply("x", steps=_calls(*calls)).build()
    result = run_check(conversation, "loop_progress")
    assert result.outcome is Outcome.FAIL
    assert [e.rule_entry for e in result.evidence] == ["loop.repeated_failure"]


# --- Contractions are matched as written and expanded ----------------------------------------------


def _narration(draft: str, rules: Rules | None = None) -> Outcome:
    conversation = ConversationBuilder().inbound("Balance?").reply(draft).build()
    return run_check(conversation, "no_internal_narration", rules).outcome


@pytest.mark.parametrize(
    "draft",
    [
        "I'm unable to look up your balance.",
        "I am unable to look up your balance.",
        "Im unable to look up your balance.",  # typed without the apostrophe
        "I can't pull up your ledger.",
        "I cannot pull up your ledger.",
        "I can not pull up your ledger.",
        "We couldn't retrieve it.",
        "Our system isn't working.",
        "Our system is not working.",
        "Our system isnt working.",
    ],
)
def test_a_contraction_and_its_expansion_are_one_reading(draft: str) -> None:
    assert _narration(draft) is Outcome.FAIL


@pytest.mark.parametrize(
    "draft",
    [
        "We cant look up the weather for you, sadly.",  # "cant" is an English word: never can't
        "I can look up your balance.",  # `can` never matches "can't" nor "cannot"
    ],
)
def test_bare_words_are_not_read_as_contractions(draft: str) -> None:
    assert _narration(draft) is Outcome.PASS


def test_a_pattern_written_expanded_matches_the_contraction_and_back() -> None:
    rules = Rules.model_validate(
        {
            "narration": [
                {"id": "narration.wont_load", "pattern": "it will not load"},
                {"id": "narration.dont_have", "pattern": "i don't have access"},
            ]
        }
    )
    for draft in (
        "It won't load for me.",
        "It will not load for me.",
        "I do not have access.",
        "I dont have access.",
    ):
        assert _narration(draft, rules) is Outcome.FAIL, draft
    # 's and 'd stay as written: "it'd" is "it would" or "it had", so neither is guessed.
    would = Rules.model_validate({"narration": [{"id": "narration.would", "pattern": "it would not load"}]})
    assert _narration("It'd not load.", would) is Outcome.PASS


def test_a_quote_is_the_contraction_as_written() -> None:
    conversation = (
        ConversationBuilder().inbound("Balance?").reply("Sorry, Im unable to look up that.").build()
    )
    assert quotes(run_check(conversation, "no_internal_narration")) == ["Im unable to look up"]


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("whats the gate code", True),  # whats = what's
        ("dont you have parking", False),  # do not you: no auxiliary + subject
        ("Can't wait to move in.", False),
        ("Well the sink is fine", False),  # never we'll
        ("were you able to fix it", False),  # never we're
        ("its fine now", False),  # never it's
        ("im wondering when the pool opens", False),  # i am: no interrogative first
    ],
)
def test_apostrophe_less_forms_in_questions(text: str, asks: bool) -> None:
    conversation = ConversationBuilder().inbound(text).settled(hours=6).build()
    result = run_check(conversation, "followup_exists")
    assert (result.outcome is Outcome.FAIL) is asks
