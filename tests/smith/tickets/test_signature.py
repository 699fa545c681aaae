"""Root-cause signatures: the same cause is one signature wherever and however it varies; different
causes are different signatures."""

from __future__ import annotations

from typing import Any

from smith.tickets.signature import normalise_error, signatures_of


def tool_failure(tool: str, error: str, *, owner: str = "ours") -> dict[str, Any]:
    return {
        "check": "tools_succeeded",
        "layer": "tools",
        "owner": owner,
        "outcome": "fail",
        "reason": {"slug": "tool_failed", "sentence": f"The {tool} tool failed."},
        "evidence": [{"turn_id": "t1", "step_index": 2, "tool_name": tool, "detail": error}],
    }


def test_the_same_secret_error_from_two_properties_is_one_signature() -> None:
    at_camellia = signatures_of(
        [tool_failure("get_tour_slots", "Missing secret TOUR_SLOTS_API_KEY in serving runtime")]
    )
    at_birchwood = signatures_of(
        [tool_failure("get_tour_slots", "Missing secret TOUR_SLOTS_API_KEY in serving runtime")]
    )
    assert at_camellia == at_birchwood
    assert [s.cause for s in at_camellia] == [
        "tool get_tour_slots → missing secret tour_slots_api_key in serving runtime"
    ]


def test_two_tools_with_the_same_error_are_two_signatures() -> None:
    slots = signatures_of([tool_failure("get_tour_slots", "Missing secret API_KEY")])
    units = signatures_of([tool_failure("get_unit_profile", "Missing secret API_KEY")])
    assert slots[0].id != units[0].id


def test_variable_parts_of_an_error_are_stripped() -> None:
    first = "Timeout after 30s calling https://units.internal/v2/0000001f-4a2b at 2026-11-30T10:15:02Z"
    second = "Timeout after 12s calling https://units.internal/v2/00000a3c-4a2b at 2026-12-01T08:00:59Z"
    assert normalise_error(first) == normalise_error(second) == "timeout after <n> calling <url> at <time>"
    assert normalise_error("Lease L-4012 not found (request 9f3a2c1b00d4)") == normalise_error(
        "Lease L-4999 not found (request 00000000abcd)"
    )
    assert normalise_error("Vendor 'Desert Flow Plumbing' rejected job 88213") == normalise_error(
        'Vendor "Front Range" rejected job 12'
    )
    # A different cause stays different after normalising.
    assert normalise_error("Lease L-1 not found") != normalise_error("Lease L-1 expired")


def test_only_failing_dimensions_owned_by_us_have_signatures() -> None:
    clara = tool_failure("get_tour_slots", "boom", owner="clara")
    passing = {**tool_failure("get_tour_slots", "boom"), "outcome": "pass"}
    assert signatures_of([clara, passing]) == []


def test_fact_truncation_and_budget_causes_are_named() -> None:
    dimensions = [
        {
            "check": "required_facts_present",
            "layer": "truth",
            "owner": "ours",
            "outcome": "fail",
            "evidence": [
                {"turn_id": "t1", "fact_key": "amounts"},
                {"turn_id": "t1", "fact_key": "office_hours"},
            ],
        },
        {
            "check": "not_truncated",
            "layer": "shape",
            "owner": "ours",
            "outcome": "fail",
            "evidence": [{"turn_id": "t1", "step_index": 3, "detail": "stop_reason max_tokens"}],
        },
        {
            "check": "token_budget",
            "layer": "shape",
            "owner": "ours",
            "outcome": "fail",
            "evidence": [{"turn_id": "t1", "step_index": 0, "detail": "61,000 tokens > 60,000"}],
        },
        {
            "check": "escalation_closed",
            "layer": "handoff",
            "owner": "ours",
            "outcome": "fail",
            "reason": {"slug": "escalation_left_open"},
            "evidence": [{"detail": "escalation e1 to pm open for 3 days"}],
        },
    ]
    assert [s.key for s in signatures_of(dimensions)] == [
        "required_facts_present · truth · fact amounts",
        "required_facts_present · truth · fact office_hours",
        "not_truncated · shape · stop reason max_tokens",
        "token_budget · shape · over budget at step 0",
        "escalation_closed · handoff · escalation_left_open",
    ]


def test_signature_ids_are_stable_and_short() -> None:
    signature = signatures_of([tool_failure("get_tour_slots", "Missing secret X")])[0]
    assert signature.id == signatures_of([tool_failure("get_tour_slots", "Missing secret X")])[0].id
    assert len(signature.id) == 16 and int(signature.id, 16) >= 0


def test_a_persons_name_in_an_error_never_reaches_a_signature() -> None:
    first = normalise_error("Resident Priya Natarajan not found in unit 12B")
    second = normalise_error("Resident José O'Brien-Díaz not found in unit 4")
    assert first == second == "resident <name> not found in unit <n>"
    assert (
        "priya"
        not in signatures_of([tool_failure("get_resident", "Resident Priya Natarajan not found")])[0].key
    )
