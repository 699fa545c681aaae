"""The leak scan's check for identifiers: cards, SSNs/ITINs, birth dates, bank numbers, IBANs, id documents.

It looks for the same classes as the anonymizer's `smith/anonymizer/identifiers.py` (docs/fixtures.md:
the two must agree in what they look for) but shares no code with it: the text is cut into words,
runs of digit groups are put back together word by word, and each class is judged on those runs with its own
arithmetic (the Luhn sum and the IBAN remainder are computed here again, differently).

- card: a run of 13–19 digits starting 2–6 whose Luhn sum is a multiple of ten.
- ssn: a run of groups 3-2-4, or nine digits within four words after ssn/itin/social security/seguro
  social/tax id.
- birth_date: a date (digits with / . -, or a month name with a day and a year) within six words
  after a birth cue (dob, born, birthday, nacimiento, nací, cumpleaños).
- bank: a run of 6–17 digits within five words after routing/aba/account/acct/bank/cuenta/clabe.
- iban: a country code, two digits and 11–30 more letters and digits whose remainder mod 97 is 1.
- id_document: a word of 5–20 letters and digits holding a digit within five words after a licence,
  passport, DNI, NIE, cédula, CURP, INE or "ID number" cue; a DNI/NIE with its right control letter.

The anonymizer's stand-ins (`[card number]`, `[date of birth]`, `+1 000-555-NNNN`) never count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = ["IdentifierLeak", "identifier_leaks"]

IdentifierLeakKind = Literal["card", "ssn", "birth_date", "bank", "iban", "id_document"]
IdentifierLeak = tuple[IdentifierLeakKind, int, str]  # kind, position, masked snippet

_WORD = re.compile(r"[^\s\[\]]+")
_EDGE = "\"'.,;:!?()«»¿¡`*"
_FAKE_PHONE = re.compile(r"1?000555\d{4}")
_SSN_CUES = {("ssn",), ("itin",), ("social", "security"), ("seguro", "social"), ("tax", "id")}
_BIRTH_CUES = {
    ("dob",), ("d.o.b",), ("d.o.b.",), ("born",), ("birthday",), ("birthdate",), ("birth", "date"),
    ("date", "of", "birth"), ("nacimiento",), ("nací",), ("naci",), ("nació",), ("nacio",),
    ("cumpleaños",), ("cumpleanos",),
}  # fmt: skip
_BANK_CUES = {("routing",), ("aba",), ("account",), ("acct",), ("bank",), ("cuenta",), ("clabe",)}
_ID_CUES = {
    ("driver's", "license"), ("driver's", "licence"), ("drivers", "license"), ("driver", "license"),
    ("driving", "licence"), ("licencia",), ("license", "number"), ("license", "no"), ("license", "#"),
    ("passport",), ("pasaporte",), ("dni",), ("nie",), ("cédula",), ("cedula",), ("curp",), ("ine",),
    ("dl",), ("id", "number"), ("id", "no"), ("id", "#"),
}  # fmt: skip
_MONTH_WORDS = frozenset(
    {
        "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul",
        "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec",
        "december", "ene", "enero", "febrero", "marzo", "abr", "abril", "mayo", "junio", "julio", "ago",
        "agosto", "septiembre", "set", "setiembre", "octubre", "noviembre", "dic", "diciembre",
    }
)  # fmt: skip
_NUMERIC_DATE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}")
_DAY_OR_YEAR = re.compile(r"\d{1,2}(?:st|nd|rd|th|º|°)?|(?:19|20)\d\d")
_GROUP_JOINERS = frozenset(" -")
_DNI_CONTROL = "TRWAGMYFPDXBNJZSQVHLCKE"


@dataclass(frozen=True, slots=True)
class _Word:
    start: int
    raw: str

    @property
    def bare(self) -> str:
        return self.raw.strip(_EDGE).lower()


def identifier_leaks(scan: str) -> list[IdentifierLeak]:
    """Every identifier still in the serialized fixture `scan`, by position."""
    if not any(ch.isdigit() for ch in scan):
        return []
    words = [_Word(m.start(), m.group()) for m in _WORD.finditer(scan)]
    found: dict[tuple[IdentifierLeakKind, int], str] = {}
    for kind, position, snippet in (*_runs(scan), *_cued(scan, words), *_ibans(words), *_dnis(words)):
        found.setdefault((kind, position), snippet)
    leaks = [(kind, position, snippet) for (kind, position), snippet in found.items()]
    return sorted(leaks, key=lambda leak: leak[1])


def _digit_runs(scan: str) -> Iterator[tuple[int, list[str]]]:
    """Runs of digit groups joined by one space or dash, each bounded by neither a letter nor a digit."""
    index, length = 0, len(scan)
    while index < length:
        glued = index > 0 and (scan[index - 1].isalnum() or scan[index - 1] in "-_")
        if not scan[index].isdigit() or glued:
            index += 1
            continue
        groups: list[str] = []
        start = cursor = index
        while True:
            end = cursor
            while end < length and scan[end].isdigit():
                end += 1
            groups.append(scan[cursor:end])
            if end + 1 < length and scan[end] in _GROUP_JOINERS and scan[end + 1].isdigit():
                cursor = end + 1
                continue
            break
        if end >= length or not (scan[end].isalpha() or scan[end] in "_"):
            yield start, groups
        index = end + 1


def _runs(scan: str) -> Iterator[IdentifierLeak]:
    for start, groups in _digit_runs(scan):
        digits = "".join(groups)
        if [len(group) for group in groups] == [3, 2, 4]:
            yield "ssn", start, "•••-••-••" + digits[-2:]
        if 13 <= len(digits) <= 19 and digits[0] in "23456" and _luhn_sum(digits) % 10 == 0:
            yield "card", start, "•" * (len(digits) - 4) + digits[-4:]


def _luhn_sum(digits: str) -> int:
    total = 0
    for position, char in enumerate(digits[::-1]):
        doubled = int(char) * (2 if position % 2 else 1)
        total += sum(divmod(doubled, 10))
    return total


def _cued(scan: str, words: list[_Word]) -> Iterator[IdentifierLeak]:
    bare = [word.bare for word in words]
    for index in range(len(words)):
        for cues, reach, judge in (
            (_SSN_CUES, 4, _nine_digits),
            (_BIRTH_CUES, 6, _a_date),
            (_BANK_CUES, 5, _bank_number),
            (_ID_CUES, 5, _document_number),
        ):
            cue = next((c for c in cues if tuple(bare[index : index + len(c)]) == c), None)
            if cue is None:
                continue
            after = index + len(cue)
            for offset in range(after, min(len(words), after + reach)):
                if "\n" in scan[words[index].start : words[offset].start]:
                    break  # what a cue names is on its own line
                kind = judge(words, offset)
                if kind is not None:
                    yield kind, words[offset].start, words[offset].raw[:1] + "•••"
                    break


def _digits_from(words: list[_Word], offset: int) -> str:
    """The digits of this word and of the next ones while they are digit groups (a spaced number)."""
    digits = ""
    for word in words[offset : offset + 5]:
        core = word.raw.strip(_EDGE).lstrip("#")
        if not core or not all(ch.isdigit() or ch == "-" for ch in core):
            break
        digits += core.replace("-", "")
        if word.raw.rstrip()[-1:] in ".,;:!?)":
            break
    return digits


def _nine_digits(words: list[_Word], offset: int) -> IdentifierLeakKind | None:
    return "ssn" if len(_digits_from(words, offset)) == 9 else None


def _bank_number(words: list[_Word], offset: int) -> IdentifierLeakKind | None:
    digits = _digits_from(words, offset)
    if 6 <= len(digits) <= 17 and not _FAKE_PHONE.fullmatch(digits):
        return "bank"
    return None


def _a_date(words: list[_Word], offset: int) -> IdentifierLeakKind | None:
    word = words[offset].bare
    if _NUMERIC_DATE.fullmatch(word):
        return "birth_date"
    if word.rstrip(".") in _MONTH_WORDS:
        near = [w.bare.rstrip(",") for w in words[max(0, offset - 2) : offset + 4]]
        numbers = [w for w in near if _DAY_OR_YEAR.fullmatch(w)]
        if any(len(w) == 4 for w in numbers) and len(numbers) >= 2:
            return "birth_date"
    return None


def _document_number(words: list[_Word], offset: int) -> IdentifierLeakKind | None:
    core = words[offset].raw.strip(_EDGE).lstrip("#")
    compact = core.replace("-", "")
    if 5 <= len(compact) <= 20 and compact.isalnum() and any(ch.isdigit() for ch in compact):
        return None if _FAKE_PHONE.fullmatch(compact) else "id_document"
    return None


def _ibans(words: list[_Word]) -> Iterator[IdentifierLeak]:
    for index, word in enumerate(words):
        head = word.raw.strip(_EDGE)
        if not (len(head) >= 4 and head[:2].isalpha() and head[:2].isupper() and head[2:4].isdigit()):
            continue
        candidate = head
        for following in words[index + 1 : index + 8]:
            piece = following.raw.strip(_EDGE)
            if len(candidate) >= 34 or not (piece.isalnum() and piece.upper() == piece and len(piece) <= 4):
                break
            candidate += piece
        # Spaced groups may run on into other text: every length from 15 to what was gathered is tried.
        for length in range(len(candidate), 14, -1):
            if candidate[:length].isalnum() and _iban_remainder(candidate[:length]) == 1:
                yield "iban", word.start, head[:2] + "••"
                break


def _iban_remainder(compact: str) -> int:
    remainder = 0
    for char in compact[4:] + compact[:4]:
        value = int(char) if char.isdigit() else ord(char.upper()) - 55
        remainder = (remainder * (100 if value > 9 else 10) + value) % 97
    return remainder


def _dnis(words: list[_Word]) -> Iterator[IdentifierLeak]:
    for word in words:
        core = word.raw.strip(_EDGE).replace("-", "").upper()
        if len(core) != 9 or not core[-1].isalpha():
            continue
        number = core[:-1]
        if number[0] in "XYZ":
            number = str("XYZ".index(number[0])) + number[1:]
        if number.isdigit() and _DNI_CONTROL[int(number) % 23] == core[-1]:
            yield "id_document", word.start, "••••" + core[-2:]
