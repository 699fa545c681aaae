"""A generated corpus of conversations with every wider class of personal data planted, for the sweep.

Each conversation plants, in English or Spanish and in varied formats: a phone number said in words
(or words and digits mixed), a disguised e-mail address, a street address, a unit number, a code named
after a word such as "gate" or "clave" (not in the ledger), and people who are not participants (a
given name with a surname, or a title and a surname). Conversation ids hold a 10-digit run (an epoch
timestamp), which is an identifier, not a phone number. Seeded: the same seed gives the same corpus.

`python -m tests.scenarios.pii_corpus` sweeps the corpus on a temporary SQLite database and prints
planted against leaked per class.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from gradecore.model.contract import Conversation, parse_conversation
from tests.conftest import load_demo

CLASSES = ("spoken_phone", "disguised_email", "address", "unit", "code", "mentioned_name")

_EN_DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_ES_DIGITS = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
_EN_TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = {
    2: "twenty",
    3: "thirty",
    4: "forty",
    5: "fifty",
    6: "sixty",
    7: "seventy",
    8: "eighty",
    9: "ninety",
}
_ES_TENS = {
    3: "treinta",
    4: "cuarenta",
    5: "cincuenta",
    6: "sesenta",
    7: "setenta",
    8: "ochenta",
    9: "noventa",
}
_ES_TWENTIES = [
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
]
_ES_TEENS = [
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
]

GIVEN = [
    "Maria",
    "Roberto",
    "Kevin",
    "Lucía",
    "Carmen",
    "Javier",
    "Megan",
    "Tyler",
    "Aaliyah",
    "Guadalupe",
    "Hannah",
    "Miguel",
    "Sofia",
    "Daniel",
    "Ethan",
    "Rosa",
    "Luis",
    "Patrick",
    "Isabella",
    "Marcus",
]
SURNAMES = [
    "Lopez",
    "Salazar",
    "Gómez",
    "Patel",
    "Nguyen",
    "Whitaker",
    "Ramírez",
    "Okafor",
    "Delgado",
    "Brennan",
    "Schultz",
    "Moreno",
]
_PROVIDERS = ["gmail", "outlook", "hotmail", "yahoo", "icloud"]
_EN_STREETS = ["Evergreen", "Maple", "Juniper", "Cedar Ridge", "N. Lamar", "Old Mill", "Sunset"]
_EN_SUFFIXES = ["Terrace", "Ave", "Street", "Blvd", "Rd", "Lane", "Dr", "Court"]
_ES_STREETS = ["Mayor", "Reforma", "Insurgentes", "Juárez", "Hidalgo", "Libertad"]


@dataclass
class Planted:
    """One conversation's planted items: per class, the exact strings that must not survive."""

    document: dict[str, object]
    language: str
    note: str
    items: dict[str, list[str]] = field(default_factory=dict)

    @property
    def conversation(self) -> Conversation:
        return parse_conversation(json.dumps(self.document).encode())


def pii_corpus(size: int, seed: int = 10) -> list[Planted]:
    rng = random.Random(seed)
    return [_conversation(rng, index) for index in range(size)]


def _conversation(rng: random.Random, index: int) -> Planted:
    document = json.loads(load_demo("oakridge-clean-maintenance.json"))
    document["conversation_id"] = f"col{1796136155 + index * 7919}"  # an epoch timestamp in an id
    spanish = index % 2 == 1
    items: dict[str, list[str]] = {name: [] for name in CLASSES}
    phone = _phone(rng, spanish, index)
    email = _email(rng, spanish, index)
    address = _address(rng, spanish)
    unit = rng.choice(["Apt 4B", "unit 12", "#305", "depto 3", "Suite 210", "apt. 7C", "Unit 1402"])
    code = rng.choice(["4821", "7733", "55A9", "902#", "31415", "K9-22", "6060"])
    code_sentence = rng.choice(
        ["la clave de la puerta es {c}", "código del portón: {c}", "el candado de la caja es {c}"]
        if spanish
        else ["the gate code is {c}", "lockbox {c}", "door code: {c}", "keypad code for the side door is {c}"]
    ).format(c=code)
    given, surname = rng.choice(GIVEN), rng.choice(SURNAMES)
    other = rng.choice([g for g in GIVEN if g != given])
    people = rng.choice(
        [
            f"pregunta por {given} {surname} en la recepción, mi hermano {other} también viene",
            f"la Sra. {surname} me dijo que {given} tiene las llaves",
        ]
        if spanish
        else [
            f"ask for {given} {surname} at the front desk, my husband {other} will be home",
            f"Dr. {surname} said {given} has the spare keys",
        ]
    )
    if spanish:
        text = (
            f"Hola, se me rompió el fregadero. Llámame al {phone} o escribe a {email}. Vivo en {address}, "
            f"{unit}; {code_sentence}. Y {people}."
        )
    else:
        text = (
            f"Hi, my kitchen sink is leaking. Call me at {phone} or write to {email}. I live at {address}, "
            f"{unit}; {code_sentence}. Also {people}."
        )
    messages = document["messages"]
    messages[0]["text"] = text
    messages[0]["language"] = "es" if spanish else "en"
    items["spoken_phone"].append(phone)
    items["disguised_email"].append(email)
    items["address"].append(address)
    items["unit"].append(unit)
    items["code"].append(code)
    items["mentioned_name"] += [given, surname] + ([other] if other in people else [])
    # A person the graders name in their reason, and a code they quote.
    note = f"Should hold: {given} was never called back and the code {code} should never be repeated."
    return Planted(document, "es" if spanish else "en", note, items)


def _phone(rng: random.Random, spanish: bool, index: int) -> str:
    digits = [rng.randint(2, 9), *(rng.randint(0, 9) for _ in range(9))]
    style = index // 2 % 3
    words = _ES_DIGITS if spanish else _EN_DIGITS
    if style == 0:  # every digit a word
        return " ".join(words[d] for d in digits)
    if style == 1:  # digits and words mixed
        return " ".join(words[d] if i % 2 else str(d) for i, d in enumerate(digits))
    # grouped: "six four six, seven five one, twenty-three forty-four"
    head = " ".join(words[d] for d in digits[:3]) + ", " + " ".join(words[d] for d in digits[3:6])
    return head + ", " + _pair(digits[6], digits[7], spanish) + " " + _pair(digits[8], digits[9], spanish)


def _pair(tens: int, unit: int, spanish: bool) -> str:
    words = _ES_DIGITS if spanish else _EN_DIGITS
    if tens == 0:
        return f"{'cero' if spanish else 'oh'} {words[unit]}"
    if tens == 1:
        return (_ES_TEENS if spanish else _EN_TEENS)[unit]
    if spanish:
        if tens == 2:
            return _ES_TWENTIES[unit]
        return _ES_TENS[tens] + (f" y {words[unit]}" if unit else "")
    return _EN_TENS[tens] + (f"-{words[unit]}" if unit else "")


def _email(rng: random.Random, spanish: bool, index: int) -> str:
    local = f"{rng.choice(['ana', 'jo', 'lee', 'sam', 'rio'])}.{rng.choice(['vega', 'moss', 'kerr'])}{index}"
    provider = rng.choice(_PROVIDERS)
    forms = (
        [f"{local} arroba {provider} punto com", f"{local} (arroba) {provider} (punto) es"]
        if spanish
        else [
            f"{local} (at) {provider} (dot) com",
            f"{local} at {provider} dot com",
            f"{local}[at]{provider}.com",
            f"{local} {{at}} {provider} [dot] net",
        ]
    )
    return rng.choice(forms)


def _address(rng: random.Random, spanish: bool) -> str:
    number = rng.randint(2, 9899)
    if spanish:
        street = rng.choice(_ES_STREETS)
        return rng.choice(
            [f"Calle {street} {number}", f"Av. {street} #{number}", f"Avenida {street} {number}"]
        )
    return f"{number} {rng.choice(_EN_STREETS)} {rng.choice(_EN_SUFFIXES)}"


def leaked_items(planted: Planted, written: str) -> dict[str, list[str]]:
    """The planted strings still in a written fixture (case-insensitive; names as whole words)."""
    folded = written.casefold()
    leaked: dict[str, list[str]] = {name: [] for name in CLASSES}
    for kind, values in planted.items.items():
        for value in values:
            if kind == "mentioned_name" or kind == "code":
                # Whole tokens: a code inside a UUID's group (`…-6060-…`) or a longer number is not it.
                pattern = rf"(?<![\w\-]){re.escape(value.casefold())}(?![\w\-])"
                if re.search(pattern, folded):
                    leaked[kind].append(value)
            elif value.casefold() in folded:
                leaked[kind].append(value)
    return leaked


def main() -> None:  # pragma: no cover - a report for people, exercised by the test's own table
    import tempfile

    from gradecore.persistence.db import create_db_engine, upgrade
    from gradecore.persistence.store import Store
    from tests.scenarios.test_sweep_pii_corpus import CORPUS_SIZE, sweep_corpus

    with tempfile.TemporaryDirectory() as directory:
        engine = create_db_engine(f"sqlite:///{Path(directory) / 'smith.db'}")
        upgrade(engine)
        table = sweep_corpus(Store(engine), Path(directory) / "fixtures", pii_corpus(CORPUS_SIZE))
        engine.dispose()
    print(table.render())


if __name__ == "__main__":  # pragma: no cover
    main()
