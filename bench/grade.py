"""Benchmark: grading throughput next to validation throughput, measured side by side in one run.

Generates a realistic corpus in memory (system prompts of a few KB, drafts of a few hundred chars,
2-5 trace steps per turn, some Spanish, a few messages without a language field), then times
`parse_conversation` alone and `parse_conversation` + `cerebrus.grade` over the same JSON bytes, and
prints turns/second for both and their ratio (goal: grading keeps at least half the throughput,
i.e. grading costs no more than parsing).

Both sides are timed in the same process over the same bytes, after a warm-up, chunk by chunk in
alternating order, best of several passes each. The default clock is this process's CPU time, so a
neighbour stealing the CPU on a shared machine does not show up on either side (`--clock wall` for
elapsed time).

    .venv/bin/python bench/grade.py [--turns 10000] [--repeat 5] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import cerebrus
from cerebrus.language import detect
from gradecore.contract import parse_conversation

GOAL_RATIO = 0.5

_EN_DRAFTS = [
    "Thanks for reaching out, {name}! The 2 bedroom is ${rent:,} per month and the application fee is "
    "${fee}. Tours run {hours}; I can hold a slot for you tomorrow afternoon if that works. Let me know "
    "which time suits you best and I will confirm it right away.",
    "Hi {name}, I've created a work order for the leak, and a technician will be there tomorrow between "
    "9 and 11 AM. If anything changes before then, just reply here and we'll update the visit window.",
    "Good news, {name}: we have openings this week. Our office is open {hours}, and you can stop by any "
    "time during those hours to see the model unit and the amenities, including the gym and the pool.",
]
_ES_DRAFTS = [
    "¡Hola {name}! El departamento de 2 habitaciones cuesta {rent:,} dólares al mes y la solicitud cuesta "
    "{fee} dólares. Nuestra oficina abre {hours}; con gusto le reservo una visita para mañana por la tarde.",
    "Hola {name}, ya creé la orden de trabajo para la fuga y un técnico pasará mañana entre las 9 y las 11. "
    "Si algo cambia antes, responda aquí y actualizamos el horario de la visita.",
]
_EN_ASKS = [
    "How much is the 2 bedroom and is there an application fee?",
    "My sink is leaking, can someone come?",
]
_ES_ASKS = ["¿Cuánto cuesta el departamento de 2 habitaciones?", "Tengo una fuga en el baño, ¿pueden venir?"]
_INTENTS = ["rent_question", "maintenance_request", "tour_request", "general"]
_TOOLS = ["get_tour_slots", "create_work_order", "dispatch_vendor", "lookup_unit", "get_pricing"]


def _system_prompt(rng: random.Random, rent: int, fee: int, hours: str) -> str:
    policy = " ".join(
        f"Policy {i}: answer politely, cite the ledger, never invent amounts, and escalate when unsure."
        for i in range(rng.randint(25, 50))
    )
    return f"You are Clara, the leasing assistant. Office hours: {hours}. 2BR rent ${rent:,}/month. " + (
        f"Application fee ${fee}. {policy}"
    )


def _turn_steps(rng: random.Random, prompt: str, draft: str, intent: str) -> list[dict[str, Any]]:
    """One or two tool rounds, so 3 or 5 steps, always ending in the claude_call that wrote the draft."""
    steps: list[dict[str, Any]] = []
    tools = rng.randint(1, 2)
    for iteration in range(tools + 1):
        last = iteration == tools
        call = {
            "kind": "claude_call",
            "loop_iteration": iteration,
            "system_prompt": prompt,
            "stop_reason": "end_turn" if last else "tool_use",
            "input_tokens": rng.randint(2000, 9000),
            "output_tokens": rng.randint(40, 300),
            "cache_read_tokens": 1500,
            "draft": draft if last else None,
        }
        steps.append(call)
        if not last:
            tool = (
                "create_work_order"
                if intent == "maintenance_request" and iteration == 0
                else rng.choice(_TOOLS)
            )
            ok = rng.random() > 0.05
            steps.append(
                {
                    "kind": "tool_execution",
                    "loop_iteration": iteration,
                    "tool_name": tool,
                    "input": {"unit": f"{rng.randint(1, 40)}B", "n": iteration},
                    "status": "success" if ok else "error",
                    "result": {"ok": True, "id": rng.randint(1000, 9999)} if ok else None,
                    "error": None if ok else "upstream timeout after 30s calling service",
                }
            )
    return steps


def _conversation(rng: random.Random, index: int, turns: int) -> dict[str, Any]:
    spanish = rng.random() < 0.25
    rent, fee, hours = rng.choice([1450, 1850, 2100]), rng.choice([35, 45, 50]), "Mon-Sat 9:00-18:00"
    prompt = _system_prompt(rng, rent, fee, hours)
    at = datetime(2026, 11, 1, 15, tzinfo=UTC) + timedelta(minutes=index)
    messages: list[dict[str, Any]] = []
    turn_docs: list[dict[str, Any]] = []
    for number in range(turns):
        ask = rng.choice(_ES_ASKS if spanish else _EN_ASKS)
        draft = rng.choice(_ES_DRAFTS if spanish else _EN_DRAFTS).format(
            name="Sam", rent=rent, fee=fee, hours=hours
        )
        # A few platforms send no language field: those messages go through the language identifier.
        language = None if rng.random() < 0.03 else ("es" if spanish else "en")
        in_id, out_id = f"m{2 * number + 1}", f"m{2 * number + 2}"
        messages.append(
            {
                "id": in_id,
                "at": at.isoformat(),
                "author": "p1",
                "direction": "inbound",
                "text": ask,
                "language": language,
            }
        )
        at += timedelta(seconds=30)
        messages.append(
            {
                "id": out_id,
                "at": at.isoformat(),
                "author": "clara",
                "direction": "outbound",
                "text": draft,
                "language": language,
            }
        )
        at += timedelta(minutes=20)
        intent = rng.choice(_INTENTS)
        turn_docs.append(
            {
                "id": f"t{number + 1}",
                "message_id": out_id,
                "intent": intent,
                "trace": {"steps": _turn_steps(rng, prompt, draft, intent)},
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


Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"cpu": time.process_time, "wall": time.perf_counter}


def _measure(documents: list[bytes], repeat: int, clock: Clock, chunk: int = 50) -> list[tuple[float, float]]:
    """(validation seconds, validation + grading seconds) over the whole corpus, for each pass.

    The two sides are interleaved chunk by chunk, so both see the same machine state (a busy neighbour
    slows both alike instead of skewing the ratio), and they swap order every pass, so neither always
    finds the chunk's bytes freshly touched by the other.
    """
    passes: list[tuple[float, float]] = []
    for number in range(repeat):
        validate = full = 0.0
        for start in range(0, len(documents), chunk):
            part = documents[start : start + chunk]
            for side in (0, 1) if number % 2 == 0 else (1, 0):
                began = clock()
                if side == 0:
                    for document in part:
                        parse_conversation(document)
                    validate += clock() - began
                else:
                    for document in part:
                        cerebrus.grade(parse_conversation(document))
                    full += clock() - began
        passes.append((validate, full))
    return passes


def _warm_up(documents: list[bytes]) -> None:
    """Untimed: first-use costs (compiled rules, caches, the language identifier's models)."""
    for document in documents[:200]:
        cerebrus.grade(parse_conversation(document))
    detect("Warming up the language models before timing anything.", cerebrus.Rules().languages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=10_000, help="turns in the generated corpus")
    parser.add_argument("--repeat", type=int, default=5, help="passes per measurement; the best counts")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: this process's CPU time (robust on a shared machine); wall: elapsed time",
    )
    args = parser.parse_args()
    documents, turns = build_corpus(args.turns)
    size = sum(len(d) for d in documents)
    print(f"corpus: {len(documents):,} conversations, {turns:,} turns, {size / 1e6:.1f} MB of JSON")
    _warm_up(documents)
    passes = _measure(documents, args.repeat, CLOCKS[args.clock])
    validate = min(v for v, _ in passes)
    full = min(f for _, f in passes)
    validate_rate, full_rate = turns / validate, turns / full
    ratio = full_rate / validate_rate
    print(f"validation alone:     {validate_rate:>10,.0f} turns/s  ({1e6 / validate_rate:.0f} us/turn)")
    print(f"validation + grading: {full_rate:>10,.0f} turns/s  ({1e6 / full_rate:.0f} us/turn)")
    verdict = "ok" if ratio >= GOAL_RATIO else "BELOW GOAL"
    print(f"ratio:                {ratio:>10.2f}  (goal >= {GOAL_RATIO})  {verdict}")
    per_pass = sorted(v / f for v, f in passes)
    print(
        f"per-pass ratios:      {', '.join(f'{r:.2f}' for r in per_pass)}"
        f"  (median {statistics.median(per_pass):.2f}, {args.clock} clock, best of {args.repeat})"
    )


if __name__ == "__main__":
    main()
