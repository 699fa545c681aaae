"""Benchmark: personal data planted in conversations, through the sweep's anonymizer and leak scan.

Every class of personal data of docs/fixtures.md (v2 and v3) is planted in English and Spanish sentences, in
a generated set of conversations; each is anonymized and built into a fixture exactly as the sweep
does, then judged twice:

- leaked: a planted value is still in the written fixture (compared without case, accents or
  separators, so `4111-1111…` and `4111 1111…` are the same value);
- refused: the independent leak scan would refuse the fixture (nothing written, the act lost for
  calibration).

Traps are conversations holding nothing personal that looks like something (money, order numbers,
meeting times, a `<mailto:…|…>` link to the office, a phone with an extension, a participant whose
name is a common word): they count only towards refusals.

    .venv/bin/python -m bench.pii [--count N] [--seed S] [--show]

Prints one line per class (planted, leaked, refused) and the totals. The bar (docs/fixtures.md): 0
leaks and at most 5% refused.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gradecore.model.contract import Conversation, validate_conversation
from smith.anonymizer import anonymize
from smith.leaks import LeakWatchlist, describe_leaks, find_leaks
from smith.regression_fixtures import build_fixture, fixture_file

CREATED = datetime(2026, 7, 18, 3, 0, tzinfo=UTC)
# (first, last) of the resident; hyphenated and compound surnames on purpose.
PEOPLE = [
    ("Quinlan", "Ashworth"), ("María", "García-López"), ("José Luis", "Pérez Núñez"), ("Ana", "Smith-Jones"),
    ("Lucía", "Fernández"), ("Priya", "Natarajan"), ("Mateo", "Ibáñez-Ruiz"), ("Chloé", "Dubois"),
    ("Dmitri", "Kowalski"), ("Siobhán", "O'Brien"),
]  # fmt: skip


@dataclass(frozen=True)
class Plant:
    kind: str
    sentence: str
    secrets: tuple[str, ...]  # what must not survive


@dataclass
class Tally:
    planted: int = 0
    leaked: int = 0
    refused: int = 0
    examples: list[str] = field(default_factory=list)


def _luhn_complete(prefix: str, rng: random.Random, length: int) -> str:
    body = prefix + "".join(str(rng.randrange(10)) for _ in range(length - len(prefix) - 1))
    for check in "0123456789":
        digits = body + check
        total = 0
        for index, char in enumerate(reversed(digits)):
            value = int(char) * (2 if index % 2 else 1)
            total += value - 9 if value > 9 else value
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable: one check digit always fits")


def _grouped(digits: str, sep: str) -> str:
    return sep.join(digits[i : i + 4] for i in range(0, len(digits), 4))


def _iban(rng: random.Random) -> str:
    bban = "".join(str(rng.randrange(10)) for _ in range(20))
    moved = bban + "ES00"
    numeric = "".join(str(int(ch, 36)) for ch in moved)
    check = 98 - int(numeric) % 97
    return f"ES{check:02d}{bban}"


def _dni(rng: random.Random) -> str:
    number = rng.randrange(10_000_000, 99_999_999)
    return f"{number}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"


def _plants(rng: random.Random, first: str, last: str) -> list[Plant]:
    """One sentence per class, in English or Spanish at random."""
    es = rng.random() < 0.5
    card = _luhn_complete(rng.choice(["4", "51", "37", "6011"]), rng, 16)
    ssn = f"{rng.randrange(100, 899)}-{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}"
    itin = f"9{rng.randrange(10, 99)} {rng.randrange(70, 88)} {rng.randrange(1000, 9999)}"
    day, month, year = rng.randrange(1, 28), rng.randrange(1, 12), rng.randrange(1950, 2004)
    months_en = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                 "October", "November", "December"]  # fmt: skip
    months_es = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                 "octubre", "noviembre", "diciembre"]  # fmt: skip
    routing = rng.choice(["021000021", "011000015", "121000358"])
    account = "".join(str(rng.randrange(10)) for _ in range(rng.randrange(8, 13)))
    iban = _iban(rng)
    passport = f"{rng.choice('XKP')}{rng.randrange(1000000, 9999999)}"
    licence = f"D{rng.randrange(1000, 9999)}-{rng.randrange(1000, 9999)}"
    dni = _dni(rng)
    unit = f"{rng.randrange(100, 999)}{rng.choice('abcq')}"
    # Words no name list holds, so only the e-mail scan can remove them.
    local_words = rng.sample(["tangerine", "kestrel", "marmalade", "quokka", "juniper", "saffron"], 2)
    local = " dot ".join(local_words)
    stranger_first, stranger_last = rng.choice([("Roberto", "Salazar-Vega"), ("Carmen", "Ortiz-Beltrán")])
    other_half = last.split("-")[-1] if "-" in last else last.split()[-1]
    if es:
        return [
            Plant("card", f"mi tarjeta es {_grouped(card, ' ')}", (card,)),
            Plant("ssn", f"mi seguro social es {ssn} y mi ITIN {itin}", (ssn, itin)),
            Plant(
                "birth_date", f"fecha de nacimiento: {day} de {months_es[month - 1]} de {year}", (f"{year}",)
            ),
            Plant("birth_date", f"nací el {day:02d}/{month:02d}/{year}", (f"{day:02d}/{month:02d}/{year}",)),
            Plant("bank", f"cuenta {account}, ruta routing {routing}", (account, routing)),
            Plant("iban", f"mi IBAN es {_grouped(iban, ' ')}", (iban,)),
            Plant("id_document", f"mi DNI es {dni} y el pasaporte {passport}", (dni, passport)),
            Plant("unit_es", f"vivo en el apartamento {unit}", (unit,)),
            Plant("unit_es", f"estoy en la unidad {unit.upper()}", (unit,)),
            Plant("hyphenated_surname", f"soy la Sra. {last}, o sea {other_half}", (other_half,)),
            Plant("spelled_email", f"escríbeme a {local} arroba gmail punto com", tuple(local_words)),
            Plant(
                "mentioned_name",
                f"pregunte por {stranger_first} {stranger_last}",
                tuple(stranger_last.split("-")),
            ),
        ]
    return [
        Plant("card", f"my card is {_grouped(card, '-')}", (card,)),
        Plant("ssn", f"SSN {ssn}, ITIN {itin}", (ssn, itin)),
        Plant("birth_date", f"DOB {month}/{day}/{year}", (f"{month}/{day}/{year}",)),
        Plant("birth_date", f"I was born on {months_en[month - 1]} {day}, {year}", (f"{year}",)),
        Plant("bank", f"routing {routing} and account number {account}", (account, routing)),
        Plant("iban", f"the IBAN is {iban}", (iban,)),
        Plant("id_document", f"driver's license {licence}, passport {passport}", (licence, passport)),
        Plant("unit_es", f"it's apartamento {unit} on the form", (unit,)),
        Plant("unit_es", f"depto. {unit} please", (unit,)),
        Plant("hyphenated_surname", f"ask for Ms. {other_half}", (other_half,)),
        Plant("spelled_email", f"write to {local} at gmail dot com", tuple(local_words)),
        Plant(
            "mentioned_name",
            f"my neighbour {stranger_first} {stranger_last} can sign",
            tuple(stranger_last.split("-")),
        ),
    ]


# Texts with nothing personal in them that a scan could mistake for something: none may be refused.
TRAPS: tuple[tuple[str, str], ...] = (
    ("money", "The deposit is $1,850.00 and the fee is 4,000 dollars in total."),
    ("order_number", "Your work order is WO-2026-0042, ticket 88213."),
    ("meeting_time", "Tour on 07/21/2026 at 3:30 pm; the office opens at 9."),
    ("mailto", "Write to <mailto:office@camellia-homes.com|the office> any time."),
    ("phone_extension", "Call the office at 415-555-0187 ext. 42 tomorrow."),
    ("account_words", "Your account is up to date and the balance is zero."),
    ("born_words", "The building was born of a renovation in 1998."),
)
TRAP_PARTICIPANTS = ("Will Price", "Hope Reason", "Grace Level", "June Smith")


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", _plain(text)).casefold()


def _document(conversation_id: str, name: str, texts: Sequence[str]) -> dict[str, Any]:
    messages = [
        {
            "id": f"m{index}",
            "at": f"2026-07-17T17:{index:02d}:00Z",
            "author": "p1",
            "direction": "inbound",
            "text": text,
        }
        for index, text in enumerate(texts)
    ]
    return {
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
            {"id": "p1", "role": "resident", "name": name, "phone": "+1 (415) 555-0100"},
            {"id": "clara", "role": "clara", "name": "Clara"},
        ],
        "messages": messages,
        "settled_at": "2026-07-18T00:00:00Z",
    }


def _written(conversation: Conversation) -> str:
    anonymized = anonymize(conversation, up_to_turn=None)
    fixture = build_fixture(
        "clara", anonymized.document, "hold", None, {"level": "hold"}, 1, [], 1, CREATED, turn_id=None
    )
    return fixture_file(fixture).payload.decode()


def run(count: int = 60, seed: int = 22) -> dict[str, Tally]:
    """Per class: how many items were planted, how many leaked, how many fixtures were refused."""
    rng = random.Random(seed)
    tallies: dict[str, Tally] = {}
    for index in range(count):
        first, last = PEOPLE[index % len(PEOPLE)]
        plants = _plants(rng, first, last)
        # Each conversation carries one class's sentences (so a refusal is charged to its class) and
        # the resident's own name, which is a participant's and so replaced everywhere.
        kind = plants[index % len(plants)].kind
        chosen = [plant for plant in plants if plant.kind == kind]
        texts = [f"Hi, this is {first} {last}."] + [plant.sentence for plant in chosen]
        conversation = validate_conversation(_document(f"pii-{index}", f"{first} {last}", texts))
        _judge(conversation, kind, [s for plant in chosen for s in plant.secrets], tallies)
    for index, (kind, text) in enumerate(TRAPS * 2):
        name = TRAP_PARTICIPANTS[index % len(TRAP_PARTICIPANTS)]
        conversation = validate_conversation(_document(f"trap-{index}", name, [text]))
        _judge(conversation, f"trap:{kind}", [], tallies)
    return tallies


def _judge(conversation: Conversation, kind: str, secrets: list[str], tallies: dict[str, Tally]) -> None:
    tally = tallies.setdefault(kind, Tally())
    written = _written(conversation)
    squashed = _squash(written)
    tally.planted += max(1, len(secrets))
    for secret in secrets:
        if _squash(secret) in squashed:
            tally.leaked += 1
            tally.examples.append(f"{conversation.conversation_id}: leaked {secret!r}")
    leaks = find_leaks(written, LeakWatchlist.from_conversation(conversation))
    if leaks:
        tally.refused += 1
        tally.examples.append(f"{conversation.conversation_id}: refused ({describe_leaks(leaks)})")


def report(tallies: dict[str, Tally], show: bool) -> str:
    lines = [f"{'class':<28}{'planted':>8}{'leaked':>8}{'refused':>9}"]
    for kind in sorted(tallies):
        tally = tallies[kind]
        lines.append(f"{kind:<28}{tally.planted:>8}{tally.leaked:>8}{tally.refused:>9}")
        if show:
            lines.extend(f"    {example}" for example in tally.examples)
    leaked = sum(t.leaked for t in tallies.values())
    refused = sum(t.refused for t in tallies.values())
    lines.append(f"total: {leaked} leaked, {refused} refused")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: Callable[[str], object] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pii", description=__doc__.split("\n", 1)[0])
    parser.add_argument("--count", type=int, default=60, help="planted conversations (default 60)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--show", action="store_true", help="name each leak and refusal")
    args = parser.parse_args(argv)
    tallies = run(args.count, args.seed)
    out(report(tallies, args.show))
    return 0


if __name__ == "__main__":
    sys.exit(main())
