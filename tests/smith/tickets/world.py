"""Conversations that fail for one of six root causes owned by us, at any of four properties.

Each is Oakridge's clean maintenance conversation with one thing broken in its trace or its facts,
with the variable parts a real failure has (timeouts, ids, request numbers) varied per conversation,
so that grouping has to see through them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from gradecore.model.contract import Conversation, parse_conversation
from gradecore.persistence.store import Store
from tests.conftest import load_demo
from tests.scheduling.world import OAKRIDGE, add_grader, ingest, react

PROPERTIES = ("oakridge", "camellia", "birchwood", "lampliter")
CAUSES = ("secret", "timeout", "lease_missing", "truncated", "budget", "no_amounts")
# How many conversations of each cause the 200-verdict world holds.
SPREAD = {"secret": 50, "timeout": 40, "lease_missing": 35, "truncated": 30, "budget": 25, "no_amounts": 20}


def _failed_tool(name: str, error: str) -> dict[str, Any]:
    return {
        "kind": "tool_execution",
        "loop_iteration": 0,
        "tool_name": name,
        "input": {"unit": "12B"},
        "status": "error",
        "result": None,
        "error": error,
    }


def failing_conversation(cause: str, index: int, *, settled_at: datetime) -> Conversation:
    """Conversation number `index` failing for `cause`, at property PROPERTIES[index % 4]."""
    document = json.loads(load_demo(f"{OAKRIDGE}.json"))
    prop = PROPERTIES[index % len(PROPERTIES)]
    document["conversation_id"] = f"tickets-{cause}-{index:04d}"
    document["property"] |= {"id": prop, "name": prop.capitalize()}
    steps = document["turns"][0]["trace"]["steps"]
    if cause == "secret":
        steps.insert(
            -1, _failed_tool("get_unit_profile", "Missing secret UNIT_PROFILE_API_KEY in serving runtime")
        )
    elif cause == "timeout":
        error = f"Timeout after {10 + index % 20}s calling https://units.internal/v2/{index:08x}-4a2b"
        steps.insert(-1, _failed_tool("get_unit_profile", error))
    elif cause == "lease_missing":
        steps.insert(
            -1, _failed_tool("lookup_lease", f"Lease L-{4000 + index} not found (request {index:012x})")
        )
    elif cause == "truncated":
        steps[-1]["stop_reason"] = "max_tokens"
    elif cause == "budget":
        steps[0]["input_tokens"] = 61_000 + index
    elif cause == "no_amounts":
        document["turns"][0]["intent"] = "rent_question"
        document["property"]["facts"]["amounts"] = {}
    else:
        raise ValueError(cause)
    last = datetime.fromisoformat(document["messages"][-1]["at"].replace("Z", "+00:00"))
    shift = settled_at - datetime.fromisoformat(document["settled_at"].replace("Z", "+00:00"))
    for message in document["messages"]:
        moved = datetime.fromisoformat(message["at"].replace("Z", "+00:00")) + shift
        message["at"] = moved.isoformat()
    assert last + shift < settled_at
    document["settled_at"] = settled_at.isoformat()
    return parse_conversation(json.dumps(document).encode())


@dataclass(frozen=True)
class World:
    grader: int
    settled: datetime


def confirm_failures(store: Store, settled: datetime, spread: dict[str, int] = SPREAD) -> World:
    """Ingest each cause's conversations (settled at `settled`) and record a grader's 👍 on each turn."""
    grader = add_grader(store)
    ingested_at = settled + timedelta(hours=1)
    index = 0
    for cause, count in spread.items():
        for _ in range(count):
            conversation = failing_conversation(cause, index, settled_at=settled)
            ingest(store, conversation, when=ingested_at, keep_settled_at=True)
            react(store, conversation.conversation_id, "up", when=ingested_at, grader=grader, turn_id="t1")
            index += 1
    return World(grader, settled)


def occur_again(store: Store, cause: str, index: int, *, settled_at: datetime) -> None:
    """One more conversation failing for `cause`, graded but not reviewed by anyone."""
    ingest(
        store,
        failing_conversation(cause, index, settled_at=settled_at),
        when=settled_at + timedelta(minutes=5),
        keep_settled_at=True,
    )
