"""Hypothesis strategies: valid `smith.conversation/v1` documents, and arbitrary JSON for the contract.

`conversation_docs()` builds documents that satisfy every structural rule by construction: unique ids,
authors that exist, chronological aware timestamps, turns only on Clara's outbound messages.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import strategies as st

from gradecore.model.contract import SCHEMA_ID

Doc = dict[str, Any]

ROLES_OF_OTHERS = ["prospect", "resident", "vendor", "staff", "system"]
STOP_REASONS = ["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal"]
TIMEZONES = ["America/Los_Angeles", "America/New_York", "Europe/Madrid", "UTC", "Asia/Kolkata"]

# Any Unicode but NUL (refused by the contract: PostgreSQL text cannot hold it); surrogates are excluded
# by Hypothesis already.
characters = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
texts = st.text(characters, max_size=40)
identifiers = st.text(characters, min_size=1, max_size=12)
language_tags = st.from_regex(r"[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,2}", fullmatch=True)
finite_floats = st.floats(allow_nan=False, allow_infinity=False)
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(lambda m: timezone(timedelta(minutes=m)))

json_scalars = st.none() | st.booleans() | st.integers() | finite_floats | texts
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=12,
)


def _stamp(moment: datetime, offset: timezone) -> str:
    return moment.astimezone(offset).isoformat()


@st.composite
def _instants(draw: st.DrawFn, count: int) -> list[datetime]:
    """`count` chronological UTC instants (ties allowed: two messages may share a second)."""
    start = draw(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1)))
    gaps = draw(st.lists(st.integers(min_value=0, max_value=86_400), min_size=count, max_size=count))
    moments, current = [], start.replace(tzinfo=UTC)
    for gap in gaps:
        current += timedelta(seconds=gap)
        moments.append(current)
    return moments


@st.composite
def _steps(draw: st.DrawFn) -> list[Doc]:
    steps: list[Doc] = []
    for iteration in range(draw(st.integers(min_value=0, max_value=4))):
        steps.append(
            {
                "kind": "claude_call",
                "loop_iteration": iteration,
                "system_prompt": draw(texts),
                "stop_reason": draw(st.sampled_from(STOP_REASONS)),
                "input_tokens": draw(st.integers(min_value=0, max_value=200_000)),
                "output_tokens": draw(st.integers(min_value=0, max_value=8_000)),
                "cache_read_tokens": draw(st.integers(min_value=0, max_value=200_000)),
                "draft": draw(st.none() | texts),
            }
        )
        if draw(st.booleans()):
            failed = draw(st.booleans())
            steps.append(
                {
                    "kind": "tool_execution",
                    "loop_iteration": iteration,
                    "tool_name": draw(identifiers),
                    "input": draw(st.dictionaries(texts, json_values, max_size=3)),
                    "status": "error" if failed else "success",
                    "result": None if failed else draw(json_values),
                    "error": draw(texts) if failed else None,
                }
            )
    return steps


@st.composite
def conversation_docs(draw: st.DrawFn) -> Doc:
    """A valid contract document as decoded JSON."""
    ids = draw(st.lists(identifiers, min_size=16, max_size=16, unique=True))
    others = draw(st.lists(st.sampled_from(ROLES_OF_OTHERS), min_size=0, max_size=3))
    participants: list[Doc] = [{"id": ids[0], "role": "clara"}]
    for index, role in enumerate(others, start=1):
        participant: Doc = {"id": ids[index], "role": role}
        if draw(st.booleans()):
            participant.update(name=draw(texts), phone=draw(st.none() | texts), email=draw(st.none() | texts))
        participants.append(participant)

    count = draw(st.integers(min_value=0, max_value=6))
    moments = draw(_instants(count + 1))
    message_ids = draw(st.lists(identifiers, min_size=count, max_size=count, unique=True))
    messages: list[Doc] = []
    for message_id, moment in zip(message_ids, moments, strict=False):
        author = draw(st.sampled_from(participants))
        outbound = author["role"] in ("clara", "system") or draw(st.booleans())
        message: Doc = {
            "id": message_id,
            "at": _stamp(moment, draw(offsets)),
            "author": author["id"],
            "direction": "outbound" if outbound else "inbound",
            "text": draw(texts),
        }
        if draw(st.booleans()):
            message["language"] = draw(language_tags)
        messages.append(message)

    clara_outbound = [m["id"] for m in messages if m["author"] == ids[0] and m["direction"] == "outbound"]
    graded = draw(st.lists(st.sampled_from(clara_outbound), unique=True)) if clara_outbound else []
    turn_ids = draw(st.lists(identifiers, min_size=len(graded), max_size=len(graded), unique=True))
    turns = [
        {
            "id": turn_id,
            "message_id": message_id,
            "intent": draw(st.none() | identifiers),
            "trace": {"steps": draw(_steps())},
        }
        for turn_id, message_id in zip(turn_ids, graded, strict=True)
    ]

    escalations: list[Doc] = []
    for index in range(draw(st.integers(min_value=0, max_value=2))):
        opened = moments[0] + timedelta(minutes=draw(st.integers(min_value=0, max_value=10_000)))
        closed = draw(st.none() | st.integers(min_value=0, max_value=10_000))
        escalations.append(
            {
                "id": f"e{index}",
                "opened_at": _stamp(opened, draw(offsets)),
                "closed_at": None if closed is None else _stamp(opened + timedelta(minutes=closed), UTC),
                "to": draw(identifiers),
            }
        )

    facts: Doc = {
        "arrival_instructions": draw(st.none() | texts),
        "office_hours": draw(st.none() | texts),
        "access_codes": draw(st.lists(st.text(characters, min_size=1, max_size=8), max_size=3)),
        "amounts": draw(
            st.dictionaries(identifiers, finite_floats | st.integers(-(10**9), 10**9), max_size=3)
        ),
    }
    facts.update(draw(st.dictionaries(st.sampled_from(["pet_policy", "parking", "extra"]), json_values)))
    return {
        "schema": SCHEMA_ID,
        "conversation_id": draw(st.text(characters, min_size=1, max_size=128)),
        "channel": draw(st.sampled_from(["email", "sms", "voice"])),
        "property": {
            "id": draw(identifiers),
            "name": draw(st.text(characters, min_size=1, max_size=30)),
            "timezone": draw(st.sampled_from(TIMEZONES)),
            "locale": draw(language_tags),
            "facts": facts,
        },
        "participants": participants,
        "messages": messages,
        "turns": turns,
        "escalations": escalations,
        "settled_at": _stamp(moments[-1], draw(offsets)),
    }
