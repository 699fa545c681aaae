"""A generated corpus of conversations full of personal data, for the anonymizer and the leak scan.

Every conversation is a valid `smith.conversation/v1` document. Names appear in several forms (full,
first alone, last alone, possessive, lower and upper case, with and without accents), phones in
eight formats, e-mails in mixed case, access codes in texts, tools and facts, some text in Spanish.
Generation is seeded: the same seed gives the same corpus.
"""

from __future__ import annotations

import random
import unicodedata
import uuid
from dataclasses import dataclass, field
from typing import Any

FIRST = [
    "Jordan",
    "María",
    "José",
    "Lucía",
    "Chloé",
    "Zoë",
    "Renée",
    "Søren",
    "Łukasz",
    "François",
    "Priya",
    "Chris",
    "Sam",
    "Morgan",
    "Quinn",
    "Harper",
    "Aisha",
    "Mateo",
    "Siobhán",
    "Dmitri",
    "Nguyễn",
    "Ana",
    "Björn",
    "Camille",
]
LAST = [
    "Avery",
    "García",
    "Fernández",
    "Núñez",
    "Müller",
    "O'Brien",
    "Smith-Jones",
    "Okafor",
    "Lee",
    "Natarajan",
    "Bellamy",
    "Kowalski",
    "Peña",
    "Dubois",
    "Ibáñez",
    "Van Dyke",
    "Holloway",
    "Åberg",
    "Sørensen",
    "Whitfield",
]
DOMAINS = ["gmail.com", "Outlook.com", "yahoo.com", "ProtonMail.ch", "icloud.com"]


def phone_formats(area: str, exchange: str, line: str) -> list[str]:
    """One number written eight ways."""
    return [
        f"+1{area}{exchange}{line}",
        f"({area}) {exchange}-{line}",
        f"{area}-{exchange}-{line}",
        f"{area}.{exchange}.{line}",
        f"{area} {exchange} {line}",
        f"+1 {area} {exchange} {line}",
        f"1-{area}-{exchange}-{line}",
        f"+1 ({area}) {exchange}-{line}",
    ]


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@dataclass
class Person:
    id: str
    role: str
    first: str
    last: str
    phones: list[str]  # the same number in several formats; [0] is the participant field
    email: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@dataclass
class Generated:
    document: dict[str, Any]
    people: list[Person]
    codes: list[str]
    # (message index, person id, form) for every name the generator wrote into a message.
    mentions: list[tuple[int, str, str]] = field(default_factory=list)


def _person(rng: random.Random, pid: str, role: str, used: set[str]) -> Person:
    first = rng.choice([f for f in FIRST if f not in used])
    last = rng.choice([name for name in LAST if name not in used])
    used.update({first, last})
    area, exchange, line = (
        rng.choice(["415", "303", "720", "617", "212"]),
        "555",
        f"{rng.randrange(100, 200):04d}",
    )
    formats = phone_formats(area, exchange, line)
    rng.shuffle(formats)
    local = rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}{rng.randrange(10, 99)}"])
    email = strip_accents(local).replace("'", "").replace(" ", "") + "@" + rng.choice(DOMAINS)
    email = "".join(c.upper() if rng.random() < 0.3 else c for c in email)  # mixed case
    return Person(pid, role, first, last, formats, email)


def _mention(rng: random.Random, person: Person) -> tuple[str, str]:
    """A name form and the text for it."""
    form = rng.choice(["full", "first", "last", "possessive", "lower", "upper", "unaccented", "title"])
    text = {
        "full": person.full,
        "first": person.first,
        "last": person.last,
        "possessive": f"{person.first}'s",
        "lower": person.first.lower(),
        "upper": person.full.upper(),
        "unaccented": strip_accents(person.full),
        "title": f"Ms. {person.last}",
    }[form]
    return form, text


def _inbound(rng: random.Random, person: Person, code: str, spanish: bool) -> str:
    phone, email = rng.choice(person.phones), person.email
    if spanish:
        return rng.choice(
            [
                f"Hola, soy {{name}}. Mi número es {phone} y mi correo {email.lower()}. ¿La renta es $1,850?",
                f"Buenas tardes, ¿puedo visitar el martes a las 3:00 PM? Llámame al {phone}. "
                "Gracias, {name}",
            ]
        )
    return rng.choice(
        [
            f"Hi, this is {{name}} ({phone}). Can I tour on 2026-07-17 at 3:00 PM? Rent is $1,850, right?",
            f"Please email me at {email.upper()} or text {phone}. "
            "My brother's number is 303.555.0199. — {name}",
            f"{{name}} here, the gate code {code} didn't work. Call me: {phone}",
        ]
    )


def _outbound(rng: random.Random, person: Person, code: str, spanish: bool) -> str:
    if spanish:
        return f"¡Hola {{name}}! Te llamaremos al {rng.choice(person.phones)}. El código es {code}."
    return rng.choice(
        [
            "Thanks {name}! We have you down for 3:00 PM on July 20; the deposit is $500.",
            f"Hi {{name}}, I've noted {rng.choice(person.phones)} and {person.email} for {{name2}} file.",
            f"Sure {{name}} — use the buzz code #{code} at the front gate. Office: (303) 555-0142.",
        ]
    )


def generate(index: int, seed: int = 8) -> Generated:
    rng = random.Random(seed * 100_003 + index)
    used: set[str] = set()
    lead = _person(rng, f"p{index}", rng.choice(["prospect", "resident"]), used)
    staff = _person(rng, "s1", "staff", used)
    people = [lead, staff]
    codes = [str(rng.randrange(1000, 999_999)) for _ in range(rng.randrange(1, 3))]
    spanish = rng.random() < 0.3
    mentions: list[tuple[int, str, str]] = []
    messages: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for number in range(rng.randrange(2, 6)):
        inbound = number % 2 == 0
        template = (_inbound if inbound else _outbound)(rng, lead, rng.choice(codes), spanish)
        form, name = _mention(rng, lead)
        mentions.append((len(messages), lead.id, form))
        text = template.replace("{name}", name).replace("{name2}", f"{lead.first}'s")
        message_id = f"m{number + 1}"
        at = f"2026-07-17T17:{10 + number:02d}:00Z"
        author = lead.id if inbound else "clara"
        messages.append(
            {
                "id": message_id,
                "at": at,
                "author": author,
                "direction": "inbound" if inbound else "outbound",
                "text": text,
                "language": "es" if spanish else "en",
            }
        )
        if not inbound:
            turns.append(_turn(rng, f"t{len(turns) + 1}", message_id, text, lead, staff, codes))
    document = {
        "schema": "smith.conversation/v1",
        "conversation_id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "channel": rng.choice(["sms", "email"]),
        "property": {
            "id": "camellia",
            "name": "Camellia",
            "timezone": "America/Los_Angeles",
            "locale": "en",
            "facts": {
                "access_codes": codes,
                "amounts": {"rent_2br": 1850},
                "office_hours": "Mon-Sat 9:00-18:00",
                "arrival_instructions": f"Ask for {staff.full} at the desk; gate code {codes[0]}.",
                "manager_contact": {"name": staff.full, "phone": staff.phones[1], "email": staff.email},
            },
        },
        "participants": [
            {
                "id": lead.id,
                "role": lead.role,
                "name": f"Dr. {lead.full}" if rng.random() < 0.1 else lead.full,
                "phone": lead.phones[0],
                "email": lead.email,
            },
            {
                "id": staff.id,
                "role": "staff",
                "name": staff.full,
                "phone": staff.phones[0],
                "email": staff.email,
            },
            {"id": "clara", "role": "clara", "name": "Clara"},
        ],
        "messages": messages,
        "turns": turns,
        "escalations": [{"id": "e1", "opened_at": "2026-07-17T17:12:30Z", "to": f"{staff.first} (leasing)"}]
        if rng.random() < 0.4
        else [],
        "settled_at": "2026-07-18T00:00:00Z",
    }
    return Generated(document, people, codes, mentions)


def _turn(
    rng: random.Random,
    turn_id: str,
    message_id: str,
    draft: str,
    lead: Person,
    staff: Person,
    codes: list[str],
) -> dict[str, Any]:
    prompt = (
        f"You are Clara. You are talking to {lead.full} ({lead.phones[2]}, {lead.email}). "
        f"Escalate to {staff.full} at {staff.phones[3]}. Never share the gate code {codes[-1]}."
    )
    lookup_ok = rng.random() < 0.7
    return {
        "id": turn_id,
        "message_id": message_id,
        "intent": "tour_request",
        "trace": {
            "steps": [
                {
                    "kind": "claude_call",
                    "loop_iteration": 0,
                    "system_prompt": prompt,
                    "stop_reason": "tool_use",
                    "input_tokens": 5200,
                    "output_tokens": 90,
                    "draft": None,
                },
                {
                    "kind": "tool_execution",
                    "loop_iteration": 0,
                    "tool_name": "lookup_contact",
                    "input": {"name": lead.first.lower(), "phone": lead.phones[4]},
                    "status": "success" if lookup_ok else "error",
                    "result": {
                        "contact": {
                            "email": lead.email.lower(),
                            "phone": lead.phones[5],
                            "gate": int(codes[0]),
                        },
                        "notes": f"{lead.last.upper()}'S file; see {staff.email}",
                    }
                    if lookup_ok
                    else None,
                    "error": None if lookup_ok else f"no contact for {lead.phones[6]} ({lead.full})",
                },
                {
                    "kind": "claude_call",
                    "loop_iteration": 1,
                    "system_prompt": prompt,
                    "stop_reason": "end_turn",
                    "input_tokens": 5400,
                    "output_tokens": 160,
                    "draft": draft,
                },
            ]
        },
    }


def corpus(count: int = 520, seed: int = 8) -> list[Generated]:
    return [generate(index, seed) for index in range(count)]
