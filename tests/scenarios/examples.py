"""The bundled example conversations as the delivery scenarios use them: their channels in the fake
Slack, a grown re-send of one of them, and how a parent's headline reads from Slack's side."""

from __future__ import annotations

import json
from typing import Any

from gradecore.model.contract import Conversation, parse_conversation
from gradecore.persistence.store import Store
from tests.conftest import load_demo

# Each demo property's apartment channel in the fake workspace.
CHANNELS = {
    "lampliter": "C0LAMPLITER",
    "camellia": "C0CAMELLIA",
    "birchwood": "C0BIRCHWOOD",
    "oakridge": "C0OAKRIDGE",
}


def demo(name: str) -> Conversation:
    return parse_conversation(load_demo(f"{name}.json"))


def map_channels(store: Store, conversation: Conversation) -> str:
    """Give the conversation's property its channel before ingest, as `smith properties set` would."""
    prop = conversation.property
    channel = CHANNELS[prop.id]
    with store.unit() as unit:
        unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id=channel)
    return channel


def header_text(blocks: list[dict[str, Any]] | None) -> str:
    assert blocks, "a Smith post always has blocks"
    first = blocks[0]
    assert first["type"] == "header"
    return str(first["text"]["text"])


def grown_lampliter() -> Conversation:
    """Lampliter's conversation re-sent later: the prospect asks how to get in, Clara gives the door code."""
    doc = json.loads(load_demo("lampliter-unbacked-promise.json"))
    doc["messages"] += [
        {
            "id": "m3",
            "at": "2026-11-24T15:10:00Z",
            "author": "p1",
            "direction": "inbound",
            "text": "Thanks! How do I get into the building?",
            "language": "en",
        },
        {
            "id": "m4",
            "at": "2026-11-24T15:10:30Z",
            "author": "clara",
            "direction": "outbound",
            "text": "The front door code is 7315.",
            "language": "en",
        },
    ]
    doc["turns"].append(
        {
            "id": "t2",
            "message_id": "m4",
            "intent": "access",
            "trace": {
                "steps": [
                    {
                        "kind": "claude_call",
                        "loop_iteration": 0,
                        "system_prompt": "You are Clara, the leasing assistant for Lampliter.",
                        "stop_reason": "end_turn",
                        "input_tokens": 4200,
                        "output_tokens": 20,
                        "cache_read_tokens": 4000,
                        "draft": "The front door code is 7315.",
                    }
                ]
            },
        }
    )
    doc["settled_at"] = "2026-11-24T16:30:00Z"
    return parse_conversation(json.dumps(doc).encode())
