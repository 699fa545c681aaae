"""The generated corpus for bench/grade.py: realistic conversations as JSON bytes, reproducible by seed.

Sizes follow the issue: system prompts of a few KB, drafts of a few hundred characters, 3 or 5 trace
steps per turn (one or two tool rounds), 1-5 turns per conversation, a quarter in Spanish, and a few
messages without a language field (so the language identifier runs now and then). Turns are coherent
(intent, question, tools and answer agree) and carry the faults real traffic has: a tool erroring
now and then, and a maintenance answer promising a technician nobody dispatched.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class _Topic:
    """What one kind of turn looks like: the question, Clara's answer (a few hundred characters), the
    intent the platform tags it with, and the tool rounds Clara runs before answering."""

    intent: str
    asks: dict[str, tuple[str, ...]]
    drafts: dict[str, tuple[str, ...]]
    tool_rounds: tuple[tuple[str, ...], ...]


# Coherent turns (intent, question, tools and answer agree), with the faults real traffic has: a tool
# that errors now and then, and a maintenance answer promising a technician before anyone dispatched one.
_TOPICS: tuple[tuple[_Topic, float], ...] = (
    (
        _Topic(
            intent="rent_question",
            asks={
                "en": ("How much is the 2 bedroom and is there an application fee?",),
                "es": ("¿Cuánto cuesta el departamento de 2 habitaciones?",),
            },
            drafts={
                "en": (
                    "Thanks for reaching out, {name}! The 2 bedroom is ${rent:,} per month and the "
                    "application fee is ${fee}. Tours run {hours}; I can hold a slot for you tomorrow "
                    "afternoon if that works. Let me know which time suits you best and I will confirm it "
                    "right away.",
                ),
                "es": (
                    "¡Hola {name}! El departamento de 2 habitaciones cuesta {rent:,} dólares al mes y la "
                    "solicitud cuesta {fee} dólares. Nuestra oficina abre {hours}; con gusto le reservo una "
                    "visita para mañana por la tarde.",
                ),
            },
            tool_rounds=(("get_pricing",), ("lookup_unit", "get_pricing")),
        ),
        0.35,
    ),
    (
        _Topic(
            intent="maintenance_request",
            asks={
                "en": ("My sink is leaking, can someone come?",),
                "es": ("Tengo una fuga en el baño, ¿pueden venir?",),
            },
            drafts={
                "en": (
                    "Hi {name}, I've created a work order for the leak, and a technician will be there "
                    "tomorrow between 9 and 11 AM. If anything changes before then, just reply here and "
                    "we'll update the visit window.",
                ),
                "es": (
                    "Hola {name}, ya creé la orden de trabajo para la fuga y un técnico pasará mañana "
                    "entre las 9 y las 11. Si algo cambia antes, responda aquí y actualizamos el horario de "
                    "la visita.",
                ),
            },
            # Mostly dispatched before promising the visit; one in six is not (an unbacked promise).
            tool_rounds=(("create_work_order", "dispatch_vendor"),) * 5 + (("create_work_order",),),
        ),
        0.25,
    ),
    (
        _Topic(
            intent="tour_request",
            asks={
                "en": ("Can I come see the apartment this week?",),
                "es": ("¿Puedo ver el departamento esta semana?",),
            },
            drafts={
                "en": (
                    "Good news, {name}: we have openings this week. Our office is open {hours}, and you can "
                    "stop by any time during those hours to see the model unit and the amenities, including "
                    "the gym and the pool.",
                ),
                "es": (
                    "¡Hola {name}! Tenemos disponibilidad esta semana. Nuestra oficina abre {hours} y puede "
                    "pasar a ver el departamento modelo, el gimnasio y la piscina cuando guste; con gusto le "
                    "reservo una visita.",
                ),
            },
            tool_rounds=(("get_tour_slots",), ("lookup_unit", "get_tour_slots")),
        ),
        0.25,
    ),
    (
        _Topic(
            intent="general",
            asks={
                "en": ("Do you allow pets? And is parking included?",),
                "es": ("¿Aceptan mascotas? ¿El estacionamiento está incluido?",),
            },
            drafts={
                "en": (
                    "Hi {name}, pets are welcome here: cats and dogs under 40 pounds, up to two per home. "
                    "Parking is included with every lease, and the gym and pool are open daily from 6 AM to "
                    "10 PM for residents and their guests.",
                ),
                "es": (
                    "Hola {name}, sí aceptamos mascotas: gatos y perros de hasta 18 kilos, máximo dos por "
                    "departamento. El estacionamiento está incluido en el contrato y el gimnasio abre todos "
                    "los días de 6 a 22 horas.",
                ),
            },
            tool_rounds=(("lookup_unit",), ("lookup_unit", "get_pricing")),
        ),
        0.15,
    ),
)
TOOL_ERROR_RATE = 0.05
SPANISH_RATE = 0.25
# A few platforms send no language field: those messages go through the language identifier.
NO_LANGUAGE_RATE = 0.03


def _system_prompt(rng: random.Random, rent: int, fee: int, hours: str) -> str:
    policy = " ".join(
        f"Policy {i}: answer politely, cite the ledger, never invent amounts, and escalate when unsure."
        for i in range(rng.randint(25, 50))
    )
    return f"You are Clara, the leasing assistant. Office hours: {hours}. 2BR rent ${rent:,}/month. " + (
        f"Application fee ${fee}. {policy}"
    )


def _turn_steps(rng: random.Random, prompt: str, draft: str, tools: tuple[str, ...]) -> list[dict[str, Any]]:
    """One claude_call per tool round plus the final one that wrote the draft: 3 or 5 steps."""
    steps: list[dict[str, Any]] = []
    for iteration in range(len(tools) + 1):
        last = iteration == len(tools)
        steps.append(
            {
                "kind": "claude_call",
                "loop_iteration": iteration,
                "system_prompt": prompt,
                "stop_reason": "end_turn" if last else "tool_use",
                "input_tokens": rng.randint(2000, 9000),
                "output_tokens": rng.randint(40, 300),
                "cache_read_tokens": 1500,
                "draft": draft if last else None,
            }
        )
        if not last:
            ok = rng.random() > TOOL_ERROR_RATE
            steps.append(
                {
                    "kind": "tool_execution",
                    "loop_iteration": iteration,
                    "tool_name": tools[iteration],
                    "input": {"unit": f"{rng.randint(1, 40)}B", "n": iteration},
                    "status": "success" if ok else "error",
                    "result": {"ok": True, "id": rng.randint(1000, 9999)} if ok else None,
                    "error": None if ok else "upstream timeout after 30s calling service",
                }
            )
    return steps


def _message(
    rng: random.Random, message_id: str, at: datetime, author: str, text: str, tag: str
) -> dict[str, Any]:
    return {
        "id": message_id,
        "at": at.isoformat(),
        "author": author,
        "direction": "inbound" if author == "p1" else "outbound",
        "text": text,
        "language": None if rng.random() < NO_LANGUAGE_RATE else tag,
    }


def _conversation(rng: random.Random, index: int, turns: int) -> dict[str, Any]:
    tag = "es" if rng.random() < SPANISH_RATE else "en"
    rent, fee, hours = rng.choice([1450, 1850, 2100]), rng.choice([35, 45, 50]), "Mon-Sat 9:00-18:00"
    prompt = _system_prompt(rng, rent, fee, hours)
    at = datetime(2026, 11, 1, 15, tzinfo=UTC) + timedelta(minutes=index)
    topics, weights = zip(*_TOPICS, strict=True)
    messages: list[dict[str, Any]] = []
    turn_docs: list[dict[str, Any]] = []
    for number in range(turns):
        topic = rng.choices(topics, weights)[0]
        ask = rng.choice(topic.asks[tag])
        draft = rng.choice(topic.drafts[tag]).format(name="Sam", rent=rent, fee=fee, hours=hours)
        in_id, out_id = f"m{2 * number + 1}", f"m{2 * number + 2}"
        messages.append(_message(rng, in_id, at, "p1", ask, tag))
        at += timedelta(seconds=30)
        messages.append(_message(rng, out_id, at, "clara", draft, tag))
        at += timedelta(minutes=20)
        tools = rng.choice(topic.tool_rounds)
        turn_docs.append(
            {
                "id": f"t{number + 1}",
                "message_id": out_id,
                "intent": topic.intent,
                "trace": {"steps": _turn_steps(rng, prompt, draft, tools)},
            }
        )
    return {
        "schema": "smith.conversation/v1",
        "conversation_id": f"bench-{index}",
        "channel": "sms",
        "property": {
            "id": "bench",
            "name": "Bench",
            "timezone": "America/New_York",
            "locale": "en",
            "facts": {
                "arrival_instructions": None,
                "office_hours": hours,
                "access_codes": ["4821"],
                "amounts": {"rent_2br": rent, "application_fee": fee},
            },
        },
        "participants": [{"id": "p1", "role": "prospect", "name": "Sam"}, {"id": "clara", "role": "clara"}],
        "messages": messages,
        "turns": turn_docs,
        "escalations": [],
        "settled_at": at.isoformat(),
    }


def build_corpus(turns: int, seed: int = 7) -> tuple[list[bytes], int]:
    """JSON documents holding at least `turns` turns, and the exact number of turns."""
    rng = random.Random(seed)
    documents: list[bytes] = []
    total = 0
    while total < turns:
        count = rng.randint(1, 5)
        documents.append(json.dumps(_conversation(rng, len(documents), count)).encode())
        total += count
    return documents, total
