"""Valid contract documents as plain JSON dicts, for tests that break them one rule at a time.

Every document starts as a bundled demo document (known valid), so a rejection in a test is caused by
the one mutation the test made and nothing else.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from gradecore.model.contract import (
    ContractViolation,
    Conversation,
    parse_conversation,
    validate_conversation,
)
from tests.conftest import DEMO_DATA

Doc = dict[str, Any]

DEMO_NAMES = sorted(path.name for path in DEMO_DATA.glob("*.json"))
# camellia-double-send has a prospect, clara and a system participant, three messages and one turn.
BASE = "camellia-double-send.json"


@cache
def _demo(name: str) -> str:
    return (DEMO_DATA / name).read_text(encoding="utf-8")


def demo_doc(name: str = BASE) -> Doc:
    """A fresh, mutable copy of a demo document."""
    loaded: Doc = json.loads(_demo(name))
    return copy.deepcopy(loaded)


def with_participant(doc: Doc, participant_id: str, role: str) -> Doc:
    doc["participants"].append({"id": participant_id, "role": role, "name": f"{role.title()} Person"})
    return doc


def with_message(doc: Doc, message_id: str, author: str, direction: str, text: str = "Hello") -> Doc:
    """Append a message one minute after the last one (so chronology holds)."""
    doc["messages"].append(
        {
            "id": message_id,
            "at": "2026-07-17T17:59:00Z",
            "author": author,
            "direction": direction,
            "text": text,
        }
    )
    return doc


def with_escalation(doc: Doc) -> Doc:
    doc["escalations"].append(
        {"id": "e1", "opened_at": "2026-07-17T17:05:00Z", "closed_at": "2026-07-17T17:30:00Z", "to": "pm"}
    )
    return doc


def valid(doc: Doc) -> Conversation:
    return validate_conversation(doc)


def violations(doc: object) -> list[tuple[str, str]]:
    """The (path, message) pairs a document is rejected with; fails the test if it is accepted."""
    try:
        validate_conversation(doc)
    except ContractViolation as violation:
        return violation.errors
    raise AssertionError("the document was accepted")


def byte_violations(raw: bytes | str) -> list[tuple[str, str]]:
    try:
        parse_conversation(raw)
    except ContractViolation as violation:
        return violation.errors
    raise AssertionError("the document was accepted")


def only_error(doc: object) -> tuple[str, str]:
    """The single error a one-rule mutation must produce."""
    errors = violations(doc)
    assert len(errors) == 1, errors
    return errors[0]
