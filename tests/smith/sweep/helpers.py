"""Shared builders for the sweep tests: demo documents and a fixture built the way the sweep builds one."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from gradecore.model.contract import Conversation, parse_conversation, validate_conversation
from smith.anonymizer import AnonymizedConversation, anonymize
from smith.regression_fixtures import FixtureKind, build_fixture, fixture_file

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


def one_message(
    text: str, *, conversation_id: str, role: str = "resident", name: str = "Jordan Avery"
) -> Conversation:
    """A conversation of one inbound message at Camellia (an access code on file, a phone on the
    participant): what the anonymizer and the leak scan are probed with."""
    document: dict[str, Any] = {
        "schema": "smith.conversation/v1",
        "conversation_id": conversation_id,
        "channel": "sms",
        "property": {
            "id": "camellia",
            "name": "Camellia",
            "timezone": "America/Los_Angeles",
            "locale": "en",
            "facts": {"access_codes": ["4821"]},
        },
        "participants": [
            {"id": "p1", "role": role, "name": name, "phone": "+1 (415) 555-0187"},
            {"id": "clara", "role": "clara", "name": "Clara"},
        ],
        "messages": [
            {"id": "m1", "at": "2026-07-17T17:00:00Z", "author": "p1", "direction": "inbound", "text": text}
        ],
        "settled_at": "2026-07-18T00:00:00Z",
    }
    return validate_conversation(document)


def written_fixture(conversation: Conversation) -> str:
    """The fixture file the sweep would write for this conversation, as text."""
    anonymized = anonymize(conversation, up_to_turn=None)
    return fixture_file(fixture_from(anonymized, conversation, kind="grader", reason="fine")).payload.decode()
