"""The integration ticket for kind `ours`: its sections, and that it carries no original personal data."""

from __future__ import annotations

from smith.sweep import LeakWatchlist, anonymize, find_leaks, render_ticket
from tests.smith.sweep.helpers import demo, fixture_from


def _ticket() -> str:
    original = demo("camellia-double-send")
    return render_ticket(fixture_from(anonymize(original, up_to_turn="t1"), original, turn_id="t1"))


def test_the_ticket_has_its_sections_in_order() -> None:
    ticket = _ticket()
    headings = [line for line in ticket.splitlines() if line.startswith("#")]
    assert headings == [
        "# Integration: `tools_succeeded`",
        "## Expected level",
        "## Reason",
        "## Layers that failed",
        "## Failing checks and receipts",
        "## Principles",
        "## Conversation excerpt (anonymized)",
        "## The whole fixture",
    ]
    assert "**HOLD** (the machine said BLOCK)" in ticket
    assert "- clara: output\n- ours: tools" in ticket
    assert "**`tools_succeeded`** (tools, ours, HOLD): A tool call failed and the reply went on." in ticket
    assert "turn_id `t1`, step_index `1`, tool_name `get_tour_slots`: error" in ticket
    assert "`not_truncated`" not in ticket.split("## Principles")[0]  # a passing check is no finding
    assert "`tool-errors-surface`, `no-narration`" in ticket
    assert "**m3** · clara · outbound · 2026-07-17T17:03:21Z ← graded turn" in ticket
    assert "1. tool `get_tour_slots` → error — Missing secret TOUR_SLOTS_API_KEY in serving runtime" in ticket
    assert ticket.endswith("and no prompt._\n")


def test_the_ticket_carries_no_original_personal_data() -> None:
    ticket = _ticket()
    assert find_leaks(ticket, LeakWatchlist.from_conversation(demo("camellia-double-send"))) == []
    for secret in ("Jordan", "Avery", "0187", "outlook", "4821"):
        assert secret not in ticket
    assert "+1 000-555-0001" in ticket  # the reason's number, scrubbed to the participant's stand-in


def test_a_ticket_without_per_check_results_says_so() -> None:
    original = demo("birchwood-dead-thread")
    fixture = fixture_from(anonymize(original, up_to_turn=None), original)
    fixture["machine_grade_at_time"] = {"level": "hold", "headline": "followup_exists", "owner": "ours"}
    ticket = render_ticket(fixture)
    assert ticket.startswith("# Integration: `followup_exists`\n")
    assert "- ours: the machine grade at the time holds no per-check results" in ticket
    assert "the whole conversation" in ticket
