"""Phone numbers said in words, or in words and digits mixed, in English and Spanish.

"six four six seven five one two three four four", "dos uno tres, cuatro cinco seis…", "6 four 6 7
five 1…", "six four six, seven five one, twenty-three forty-four": a run of number words and digit
groups that adds up to seven digits or more is read as the digits it says, so the phone scan can treat
it like any written number. A run needs at least one word (digits alone are the phone scanner's) and
breaks at anything that is not a number or a separator, so "two kids and 3 dogs" is never a run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SpokenNumber", "find_spoken_numbers"]

MIN_DIGITS = 7
# A run holding a long digit group needs more said in words: "one 2026-12-01" is a date after a word.
MIN_SPOKEN_DIGITS_BESIDE_LONG_GROUPS = 3

_UNITS = {
    # English; "oh" is how people say a zero inside a number.
    "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9,
    # Spanish
    "cero": 0, "uno": 1, "una": 1, "un": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9,
}  # fmt: skip
_WHOLE = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15, "dieciséis": 16,
    "dieciseis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20,
    "veintiuno": 21, "veintiún": 21, "veintidós": 22, "veintidos": 22, "veintitrés": 23, "veintitres": 23,
    "veinticuatro": 24, "veinticinco": 25, "veintiséis": 26, "veintiseis": 26, "veintisiete": 27,
    "veintiocho": 28, "veintinueve": 29,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
    "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80,
    "noventa": 90,
}  # fmt: skip

_WORDS = sorted({*_UNITS, *_WHOLE, *_TENS}, key=lambda word: (-len(word), word))
_WORD = "(?:" + "|".join(_WORDS) + ")"
# A token: a digit group, or a word (tens may take a unit: "forty-four", "cuarenta y cuatro").
_TOKEN = rf"(?:\d+|{_WORD}(?:(?:-|\s+y\s+){_WORD})?)"
_GAP = r"(?:[\s,.\-/]|\(|\))+"
_RUN = re.compile(rf"(?<![\w$€£]){_TOKEN}(?:{_GAP}{_TOKEN})*(?![\w])", re.IGNORECASE)
_PIECE = re.compile(rf"\d+|{_WORD}", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SpokenNumber:
    start: int
    end: int
    digits: str  # what the run says, as digits


def find_spoken_numbers(text: str) -> list[SpokenNumber]:
    """Every run of seven digits or more that holds number words, with the digits it says."""
    found: list[SpokenNumber] = []
    for match in _RUN.finditer(text):
        run = match.group()
        if not any(char.isalpha() for char in run):
            continue
        digits = _digits_of(run)
        groups = re.findall(r"\d+", run)
        spoken = len(digits) - sum(len(group) for group in groups)
        enough_words = spoken >= MIN_SPOKEN_DIGITS_BESIDE_LONG_GROUPS or all(len(g) < 4 for g in groups)
        if len(digits) >= MIN_DIGITS and enough_words:
            start, end = match.span()
            found.append(SpokenNumber(start, end, digits))
    return found


def _digits_of(run: str) -> str:
    """The digits a run says: each unit a digit, "forty-four" 44, a digit group as written."""
    out: list[str] = []
    pending_tens: int | None = None
    for piece in _PIECE.findall(run):
        word = piece.lower()
        if piece.isdigit():
            out.append(_flush(pending_tens))
            pending_tens = None
            out.append(piece)
        elif word in _TENS:
            out.append(_flush(pending_tens))
            pending_tens = _TENS[word]
        elif word in _UNITS and pending_tens is not None and _UNITS[word] > 0:
            out.append(str(pending_tens + _UNITS[word]))
            pending_tens = None
        else:
            out.append(_flush(pending_tens))
            pending_tens = None
            out.append(str(_UNITS.get(word, _WHOLE.get(word, 0))))
    out.append(_flush(pending_tens))
    return "".join(out)


def _flush(tens: int | None) -> str:
    return "" if tens is None else str(tens)
