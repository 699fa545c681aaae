"""Shared builders for the sweep tests: demo documents and a fixture built the way the sweep builds one."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from gradecore.contract import Conversation, parse_conversation
from smith.sweep import AnonymizedConversation, FixtureKind, build_fixture

DEMO_DATA = Path(__file__).resolve().parents[3] / "smith" / "demo_data"
CREATED = datetime(2026, 7, 18, 3, 0, tzinfo=UTC)


def demo(name: str) -> Conversation:
    return parse_conversation((DEMO_DATA / f"{name}.json").read_bytes())


def machine_grade(conversation: Conversation, turn_id: str | None) -> dict[str, JsonValue]:
    """A machine grade at the time whose receipts quote the ORIGINAL texts (as stored grades do)."""
    quoted = conversation.messages[-1]
    return {
        "id": "0b7f5a52-93c1-4c1e-9d4e-2f3f6b1c8a10",
        "level": "block",
        "headline": "tools_succeeded",
        "owner": "ours",
        "source": "cerebrus.deterministic",
        "rubric_version": "cerebrus-1.0.0+rules-2026.07",
        "dimensions": [
            {
                "check": "tools_succeeded",
                "layer": "tools",
                "owner": "ours",
                "kind": "deterministic",
                "scope": "turn",
                "outcome": "fail",
                "level": "hold",
                "reason": {"slug": "tool_failed", "sentence": "A tool call failed and the reply went on."},
                "evidence": [
                    {"turn_id": turn_id, "step_index": 1, "tool_name": "get_tour_slots", "detail": "error"}
                ],
            },
            {
                "check": "no_internal_narration",
                "layer": "output",
                "owner": "clara",
                "kind": "deterministic",
                "scope": "turn",
                "outcome": "fail",
                "level": "repair",
                "reason": {"slug": "internal_narration", "sentence": "The reply narrates internals."},
                "evidence": [{"message_id": quoted.id, "quote": quoted.text}],
            },
            {
                "check": "not_truncated",
                "layer": "output",
                "owner": "clara",
                "kind": "deterministic",
                "scope": "turn",
                "outcome": "pass",
                "level": "pass",
                "reason": {"slug": "complete", "sentence": "Complete."},
                "evidence": [],
            },
        ],
    }


def fixture_from(
    anonymized: AnonymizedConversation,
    original: Conversation,
    *,
    kind: FixtureKind = "ours",
    turn_id: str | None = None,
    reason: str = "Should be HOLD: Jordan Avery's tour lookup failed (415-555-0187).",
) -> dict[str, Any]:
    """A fixture built as the sweep builds it: reason and machine grade scrubbed by the same map."""
    grade = anonymized.scrub_json(machine_grade(original, turn_id))
    assert isinstance(grade, dict)
    return build_fixture(
        kind,
        anonymized.document,
        "hold",
        anonymized.scrub_text(reason),
        grade,
        17,
        ["tool-errors-surface", "no-narration"],
        42,
        CREATED,
        turn_id=turn_id,
    )
