"""Where someone lives and how to get in: street addresses, unit numbers, and codes named in passing.

- Street addresses: a house number, the street's words and a street type from `usaddress`'s list of
  USPS street suffixes (`742 Evergreen Terrace`, `12 N. Main St.`), or a Spanish street type first
  (`Calle Mayor 12`, `Av. Reforma #123`, `Avenida de la Paz 8`).
- Unit numbers: `Apt 4B`, `unit 12`, `Suite 300`, `depto 3`, `apartamento 317q`, `unidad B-12`,
  `casa 5`, `#305`.
- Codes: any code-like token (three characters or more, with a digit) shortly after a word such as
  code, gate, door, lockbox, keypad, PIN, clave, código — in the ledger of access codes or not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import usaddress

__all__ = ["PLACE_KEYS", "PlaceHit", "find_places", "place_key"]

PlaceKind = Literal["address", "unit", "code"]

# Written as a street type is (`Terrace`, `St`, `AVE`); "is" (island) is left out, it is mostly a verb.
_SUFFIX_WORDS = sorted(
    {
        form
        for suffix in usaddress.STREET_NAMES
        if suffix != "is"
        for form in (suffix.capitalize(), suffix.upper())
    },
    key=lambda word: (-len(word), word),
)
_SUFFIXES = "|".join(re.escape(word) for word in _SUFFIX_WORDS)
_DIRECTION_WORD = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)"
_DIRECTION = rf"(?:{_DIRECTION_WORD}\.?\s+)"
_STREET_WORD = r"(?:[A-Z][\w'\-]*\.?|\d+(?:st|nd|rd|th))"
_US_STREET = re.compile(
    rf"(?<![\w$#:./\-])\d{{1,6}}[A-Za-z]?(?:-\d{{1,4}})?\s+{_DIRECTION}?(?:{_STREET_WORD}\s+){{1,4}}?"
    rf"(?:{_SUFFIXES})\b\.?(?:\s+{_DIRECTION_WORD}\b\.?)?"
)
_ES_TYPES = (
    r"Calle|C/|Avenida|Av\.?|Avda\.?|Paseo|Carrera|Cra\.?|Calzada|Calz\.?|Camino|Plaza|Pza\.?|Ronda"
    r"|Travesía|Carretera|Bulevar|Boulevard|Blvd\.?|Privada|Callejón|Pasaje|Diagonal|Transversal"
)
_ES_STREET = re.compile(
    rf"(?<!\w)(?:{_ES_TYPES})\s+(?:(?:de|del|la|las|los|el|y)\s+|[A-ZÁÉÍÓÚÑ0-9][\w'.\-]*,?\s+){{1,5}}?"
    r"(?:(?:No\.?|Núm\.?|Nº|n\.?º|#)\s*)?\d{1,5}[A-Za-z]?(?!\w)"
)
_UNIT = re.compile(
    r"(?<!\w)(?:apt|apartment|apartamento|apto|unit|unidad|suite|ste|depto|dpto|departamento|piso|flat|room|"
    r"rm|bldg|habitaci[oó]n|hab|casa|interior|int)\.?(?:\s*(?:#|no\.?|number|n[uú]m\.?|nº|n\.º))?"
    r"(?:\s*(?:[A-Za-z]{1,2}-?)?\d[A-Za-z0-9\-]{0,5}|\s+(?-i:[A-Z])(?!\w))"
    r"|(?<![\w&#])#\s?\d{2,5}[A-Za-z]?(?!\w)",
    re.IGNORECASE,
)
_CUE = (
    r"codes?|gate|door|lockbox|lock\s+box|keypad|key\s+box|pin|passcode|password|clave|c[oó]digo|"
    r"contraseña|port[oó]n|puerta|candado"
)
# The cue, up to four short words on the same line ("code for building A is"), then the code itself.
_CODE = re.compile(
    rf"(?<![\w])(?:{_CUE})(?![\w])(?:[^\S\n]*(?:[:=#\-]|[^\W\d]+)){{0,4}}?[^\S\n]*[:=#]?[^\S\n]*"
    r"(?P<code>(?=[A-Za-z\-*#]*\d)[A-Za-z0-9][A-Za-z0-9\-*#]{2,11})(?![\w:/])",
    re.IGNORECASE,
)


# Keys of free-form JSON (tool inputs and results) whose value is a unit number or a code.
PLACE_KEYS: dict[str, PlaceKind] = {
    "unit": "unit", "unit_number": "unit", "unit_id": "unit", "apt": "unit", "apartment": "unit",
    "suite": "unit", "depto": "unit", "unidad": "unit", "apartamento": "unit", "departamento": "unit",
    "room": "unit",
    "address": "address", "street": "address", "street_address": "address", "address_line": "address",
    "address1": "address", "address_line1": "address", "direccion": "address", "dirección": "address",
    "gate_code": "code", "door_code": "code", "lockbox_code": "code", "lockbox": "code", "code": "code",
    "access_code": "code", "entry_code": "code", "keypad_code": "code", "pin": "code", "clave": "code",
}  # fmt: skip
_UNIT_WORD = re.compile(
    r"^(?:apt|apartment|apartamento|apto|unit|unidad|suite|ste|depto|dpto|departamento|piso|flat|room|rm|bldg|"
    r"habitaci[oó]n|hab|casa|interior|int)"
    r"\.?\s*(?:#|no\.?|number|n[uú]m\.?|nº)?\s*|^#\s?",
    re.IGNORECASE,
)


def place_key(kind: PlaceKind, text: str) -> str:
    """What makes two mentions the same place: `Apt 4B`, `unit 4b` and a tool's `"unit": "4B"` are one."""
    if kind == "unit":
        text = _UNIT_WORD.sub("", text.strip())
    return " ".join(re.findall(r"[^\W_]+", text.casefold()))


@dataclass(frozen=True, slots=True)
class PlaceHit:
    start: int
    end: int
    kind: PlaceKind


def find_places(text: str) -> list[PlaceHit]:
    """Every street address, unit number and cued code in a text (spans may overlap)."""
    if not any(char.isdigit() for char in text):
        return [PlaceHit(m.start(), m.end(), "unit") for m in _UNIT.finditer(text)]
    hits = [PlaceHit(m.start(), m.end(), "address") for m in _US_STREET.finditer(text)]
    hits += [PlaceHit(m.start(), m.end(), "address") for m in _ES_STREET.finditer(text)]
    hits += [PlaceHit(m.start(), m.end(), "unit") for m in _UNIT.finditer(text)]
    hits += [PlaceHit(m.start("code"), m.end("code"), "code") for m in _CODE.finditer(text)]
    return hits
