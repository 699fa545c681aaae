"""Identifiers a resident may type, for the anonymizer: cards, SSNs, birth dates, bank and id numbers.

docs/fixtures.md (v3 anonymization) lists the classes; each is found by its own rule:

- card: 13–19 digits, alone or in groups split by single spaces or dashes, that pass the Luhn check.
- ssn: a US SSN or ITIN written `123-45-6789` / `123 45 6789`, or nine digits named by SSN, ITIN,
  social security, seguro social, tax id.
- birth_date: a date in any usual form (`03/04/1990`, `1990-03-04`, `March 4, 1990`, `4 de marzo de
  1990`, `4 mar 1990`) said as a birth date: after DOB, born, birthday, birth date, nacimiento, nací,
  cumpleaños within a few words.
- bank: a run of 6–17 digits named by routing, ABA, account, acct, bank, cuenta, CLABE.
- iban: two letters, two check digits and 11–30 letters and digits (spaces allowed) that pass mod 97.
- id_document: a token of 5–20 letters and digits with a digit in it, named by driver's licence,
  licencia, passport, pasaporte, DNI, NIE, cédula, CURP, INE, ID number; and a Spanish DNI or NIE
  with its right control letter even when unnamed.

Hand-written rather than presidio-analyzer's pattern recognisers: on the same planted sentences
(bench/pii.py) those left 120 of 600 items (bank numbers, Spanish and spelled-out birth dates) and
scrubbed dates that are no birth dates, and the package brings spaCy (docs/fixtures.md).

The independent leak scan (`smith/leaks/identifiers.py`) looks for the same classes with its
own code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["IDENTIFIER_PLACEHOLDERS", "IdentifierHit", "IdentifierKind", "find_identifiers"]

IdentifierKind = Literal["card", "ssn", "birth_date", "bank", "iban", "id_document"]

# What each class becomes in a fixture: a bracketed word the grader reads as a stand-in.
IDENTIFIER_PLACEHOLDERS: dict[IdentifierKind, str] = {
    "card": "[card number]",
    "ssn": "[ssn]",
    "birth_date": "[date of birth]",
    "bank": "[bank number]",
    "iban": "[iban]",
    "id_document": "[id number]",
}

# Issuers start at 2–6 (an epoch in milliseconds starts with 1 and is no card).
_CARD = re.compile(r"(?<![\w\-])[2-6](?:[ \-]?\d){12,18}(?![\w\-]|[ \-]\d)")
_SSN_SHAPED = re.compile(r"(?<![\w\-])\d{3}([\- ])\d{2}\1\d{4}(?![\w\-])")
_NINE_DIGITS = r"\d{3}[\- ]?\d{2}[\- ]?\d{4}"
_SSN_CUE = r"ssn|itin|social\s+security(?:\s+(?:number|no\.?|#))?|seguro\s+social|tax\s+id|n[uú]mero\s+fiscal"
_SSN_NAMED = re.compile(rf"(?i)(?<!\w)(?:{_SSN_CUE})\b[^\d\n]{{0,20}}?(?P<value>{_NINE_DIGITS})(?!\d)")

_MONTHS_EN = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_MONTHS_ES = (
    r"ene(?:ro)?|feb(?:rero)?|mar(?:zo)?|abr(?:il)?|may(?:o)?|jun(?:io)?|jul(?:io)?|ago(?:sto)?"
    r"|sep(?:tiembre)?|set(?:iembre)?|oct(?:ubre)?|nov(?:iembre)?|dic(?:iembre)?"
)
_MONTH = rf"(?:{_MONTHS_EN}|{_MONTHS_ES})\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th|º|°)?"
_YEAR = r"(?:19|20)\d{2}"
_DATE = (
    rf"(?:\d{{1,2}}[/.\-]\d{{1,2}}[/.\-](?:\d{{4}}|\d{{2}})"
    rf"|{_YEAR}[/.\-]\d{{1,2}}[/.\-]\d{{1,2}}"
    rf"|{_MONTH}\s+{_DAY},?\s+{_YEAR}"
    rf"|{_DAY}\s+(?:de\s+)?{_MONTH},?\s+(?:de\s+|del\s+)?{_YEAR}"
    rf"|{_DAY}[/\-]{_MONTH}[/\-]{_YEAR})"
)
_BIRTH_CUE = (
    r"d\.?o\.?b\.?|born|birth\s*day|birthdate|birth\s+date|date\s+of\s+birth|nacimiento|nac[ií]|"
    r"naci[oó]|cumplea[nñ]os|f\.\s*nac\.?"
)
_BIRTH = re.compile(
    rf"(?i)(?<!\w)(?:{_BIRTH_CUE})(?!\w)(?:[^\S\n]*[:=\-]|[^\S\n]+(?:on|is|was|el|es|fue|de|en|the|:)){{0,3}}"
    rf"[^\S\n]*(?P<value>{_DATE})(?!\w)"
)
_BANK_CUE = r"routing|aba|account|acct|bank|cuenta|clabe|iban"
_BANK = re.compile(
    rf"(?i)(?<!\w)(?:{_BANK_CUE})(?!\w)(?:[^\S\n]*(?:[:#=]|no\.?|number|num\.?|n[uú]m\.?|n[uú]mero|de|is|es|"
    rf"[^\W\d]{{1,12}})){{0,4}}?[^\S\n]*#?[^\S\n]*(?P<value>\d(?:[ \-]?\d){{5,16}})(?![\w\-])"
)
_IBAN = re.compile(r"(?<![\w])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}(?![\w])")
_ID_CUE = (
    r"driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e\s+(?:no\.?|number|#)|licencia(?:\s+de\s+conducir)?|"
    r"passport|pasaporte|dni|nie|c[eé]dula|curp|ine|id\s+(?:no\.?|number|#)|n[uú]mero\s+de\s+identificaci[oó]n|"
    r"\bdl"
)
_ID_NAMED = re.compile(
    rf"(?i)(?<!\w)(?:{_ID_CUE})(?!\w)(?:[^\S\n]*(?:[:#=]|no\.?|number|num\.?|n[uú]mero|de|is|es|mi|my|[^\W\d]{{1,10}})){{0,4}}?"
    r"[^\S\n]*#?[^\S\n]*(?P<value>(?=[A-Za-z\-]*\d)[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){4,19})(?![\w\-])"
)
_DNI = re.compile(r"(?<![\w\-])(?P<value>[XYZxyz]?\d{7,8})[\- ]?(?P<letter>[A-Za-z])(?![\w\-])")
_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


@dataclass(frozen=True, slots=True)
class IdentifierHit:
    start: int
    end: int
    kind: IdentifierKind


def find_identifiers(text: str) -> list[IdentifierHit]:
    """Every identifier of the classes above in `text` (spans may overlap; the scrubber picks)."""
    if not any(char.isdigit() for char in text):
        return []
    hits: list[IdentifierHit] = []
    for match in _CARD.finditer(text):
        if luhn_valid(_digits(match.group())):
            hits.append(IdentifierHit(match.start(), match.end(), "card"))
    hits += [IdentifierHit(m.start(), m.end(), "ssn") for m in _SSN_SHAPED.finditer(text)]
    hits += [_value_hit(m, "ssn") for m in _SSN_NAMED.finditer(text)]
    hits += [_value_hit(m, "birth_date") for m in _BIRTH.finditer(text)]
    hits += [_value_hit(m, "bank") for m in _BANK.finditer(text)]
    for match in _IBAN.finditer(text):
        if iban_valid(match.group()):
            hits.append(IdentifierHit(match.start(), match.end(), "iban"))
    hits += [_value_hit(m, "id_document") for m in _ID_NAMED.finditer(text)]
    for match in _DNI.finditer(text):
        if dni_valid(match.group("value"), match.group("letter")):
            hits.append(IdentifierHit(match.start(), match.end(), "id_document"))
    return hits


def luhn_valid(digits: str) -> bool:
    """The Luhn check every payment card number passes (13–19 digits)."""
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def iban_valid(raw: str) -> bool:
    """ISO 13616: the country and check digits moved to the end, letters as numbers, mod 97 is 1."""
    compact = raw.replace(" ", "").upper()
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    as_number = "".join(str(int(char, 36)) for char in moved)
    return int(as_number) % 97 == 1


def dni_valid(number: str, letter: str) -> bool:
    """A Spanish DNI (8 digits) or NIE (X/Y/Z + 7 digits) and its control letter."""
    head = number.upper()
    if head[0] in "XYZ":
        if len(head) != 8:
            return False
        head = str("XYZ".index(head[0])) + head[1:]
    elif len(head) != 8:
        return False
    return _DNI_LETTERS[int(head) % 23] == letter.upper()


def _value_hit(match: re.Match[str], kind: IdentifierKind) -> IdentifierHit:
    return IdentifierHit(match.start("value"), match.end("value"), kind)


def _digits(text: str) -> str:
    return "".join(char for char in text if char.isdigit())
