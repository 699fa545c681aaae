"""Hypothesis strategies for valid `smith.conversation/v1` documents that stress the grader:
accented and decomposed text, money in every format, access codes, promises, internal vocabulary,
tool errors quoted back, missing language fields, staff and template messages."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from hypothesis import strategies as st

from gradecore.model.contract import Conversation, validate_conversation
from tests.cerebrus.builders import BASE_TIME

PHRASES = [
    "The 2 bedroom is $1,950 per month.",
    "Rent is $1850.00 and the fee is 45 dollars.",
    "Cuesta 1.950 dólares al mes.",
    "USD 1850 due on the 1st.",
    "Use the buzz code 4821 at the gate.",
    "We'll text you access instructions soon.",
    "Te enviaremos las instrucciones de acceso.",
    "A technician will be there tomorrow.",
    "Un técnico pasará mañana.",
    "Our system had an error and I can't look up tour times.",
    "El sistema no responde.",
    "upstream timeout after 30s",
    "Co\u0301digo ﬁnal İstanbul ß",
    "Is the pool open this weekend?",
    "¿Cuándo vence la renta?",
    "Thanks!",
    "",
]
TOOLS = ["get_tour_slots", "create_work_order", "dispatch_vendor", "lookup"]
ROLES = ["prospect", "resident", "vendor", "staff", "system"]


# Any text the contract accepts (no NUL, no lone surrogate), accents and symbols included.
_SURROGATE: tuple[Literal["Cs"]] = ("Cs",)
_FREE_TEXT = st.text(st.characters(blacklist_categories=_SURROGATE, blacklist_characters="\x00"), max_size=30)


def _text() -> st.SearchStrategy[str]:
    return st.lists(st.one_of(st.sampled_from(PHRASES), _FREE_TEXT), min_size=0, max_size=4).map(" ".join)


@st.composite
def _step(draw: st.DrawFn, iteration: int) -> dict[str, Any]:
    if draw(st.booleans()):
        return {
            "kind": "claude_call",
            "loop_iteration": iteration,
            "system_prompt": draw(_text()),
            "stop_reason": draw(st.sampled_from(["end_turn", "tool_use", "max_tokens", "refusal"])),
            "input_tokens": draw(st.integers(0, 70_000)),
            "output_tokens": draw(st.integers(0, 2_000)),
            "draft": None,
        }
    ok = draw(st.booleans())
    return {
        "kind": "tool_execution",
        "loop_iteration": iteration,
        "tool_name": draw(st.sampled_from(TOOLS)),
        "input": draw(st.dictionaries(st.sampled_from(["date", "unit"]), st.integers(0, 3), max_size=2)),
        "status": "success" if ok else "error",
        "result": draw(
            st.one_of(
                st.none(),
                st.integers(0, 3000),
                st.dictionaries(st.sampled_from(["a", "b"]), _text(), max_size=2),
            )
        )
        if ok
        else None,
        "error": None if ok else draw(_text()),
    }


@st.composite
def conversations(draw: st.DrawFn) -> Conversation:
    """A valid conversation of up to a dozen messages, some of them Clara's turns."""
    others = draw(st.lists(st.sampled_from(ROLES), min_size=1, max_size=3))
    participants = [{"id": "clara", "role": "clara"}] + [
        {"id": f"u{i}", "role": role} for i, role in enumerate(others)
    ]
    inbound_authors = [p["id"] for p in participants if p["role"] not in ("clara", "system")]
    outbound_authors = [p["id"] for p in participants]
    clock = BASE_TIME
    messages: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for index in range(draw(st.integers(0, 12))):
        clock += timedelta(seconds=draw(st.integers(0, 6 * 3600)))
        inbound = bool(inbound_authors) and draw(st.booleans())
        author = draw(st.sampled_from(inbound_authors if inbound else outbound_authors))
        message: dict[str, Any] = {
            "id": f"m{index}",
            "at": clock.isoformat(),
            "author": author,
            "direction": "inbound" if inbound else "outbound",
            "text": draw(_text()),
        }
        language = draw(st.sampled_from([None, "en", "es", "es-MX", "fr"]))
        if language is not None:
            message["language"] = language
        messages.append(message)
        if author == "clara" and not inbound and draw(st.booleans()):
            steps = [draw(_step(i)) for i in range(draw(st.integers(0, 9)))]
            turn: dict[str, Any] = {"id": f"t{index}", "message_id": message["id"], "trace": {"steps": steps}}
            intent = draw(
                st.sampled_from([None, "tour_request", "rent_question", "maintenance_request", "general"])
            )
            if intent is not None:
                turn["intent"] = intent
            turns.append(turn)
    escalations = [
        {
            "id": f"e{i}",
            "opened_at": BASE_TIME.isoformat(),
            "closed_at": None if open_ else clock.isoformat(),
            "to": "pm",
        }
        for i, open_ in enumerate(draw(st.lists(st.booleans(), max_size=2)))
    ]
    facts = {
        "arrival_instructions": draw(st.sampled_from([None, "", "Check in at the office."])),
        "office_hours": draw(st.sampled_from([None, "Mon-Fri 9:00-17:00"])),
        "access_codes": draw(st.sampled_from([[], ["4821"], ["4821", "0007"]])),
        "amounts": draw(st.sampled_from([{}, {"rent_2br": 1850}, {"rent_2br": 1850, "fee": 45}])),
    }
    document = {
        "schema": "smith.conversation/v1",
        "conversation_id": "generated",
        "channel": "sms",
        "property": {"id": "p", "name": "P", "timezone": "UTC", "locale": "en", "facts": facts},
        "participants": participants,
        "messages": messages,
        "turns": turns,
        "escalations": escalations,
        "settled_at": (clock + timedelta(seconds=draw(st.integers(0, 3 * 86400)))).isoformat(),
    }
    return validate_conversation(document)
