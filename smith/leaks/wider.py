"""The leak scan's checks for the wider classes of personal data, each by its own method.

Like the rest of the leak scan, none of this shares code with the anonymizer:

- phone, said in words: each line is read through `text2num` (English, then Spanish); a run of seven
  digits or more that the reading made and the line did not hold is a number said in words.
- email, disguised: `(at)`/`[at]`/`arroba` and `(dot)`/`punto` are put back as `@` and `.`, and the
  bare `at … dot …` form too, then the ordinary address pattern runs over the result.
- address: `usaddress`'s CRF model tags the words after each house number; a number, a street name and
  a street type in a row is an address. Spanish addresses: a street type word with a house number
  within five words.
- unit: a unit word (apt, unit, suite, depto, …) before a token with a digit, or `#` before digits.
- code: a token of three to twelve letters and digits with a digit in it, within five words after
  code, gate, door, lockbox, keypad, PIN, clave, código… on the same line; `0000` is the placeholder.
- mentioned_name: a capitalised word on the given-name list, or any capitalised word after a title
  (Dr., Sra., …), that is not a pseudonym of the fixture format, nor a word of the property's or
  Clara's name.

Placeholders the anonymizer writes (`[address 1]`, `[unit 2]`, `0000`) never count.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Literal

import usaddress
from text_to_num import alpha2digit

from smith.anonymizer.given_names import is_given_name
from smith.anonymizer.pseudonyms import FIRST_NAMES, LAST_NAMES

__all__ = ["WiderLeak", "fold_token", "wider_leaks"]

WiderKind = Literal["phone", "email", "address", "unit", "code", "mentioned_name"]
WiderLeak = tuple[WiderKind, int, str]  # kind, position, masked snippet

_DIGIT_RUN = re.compile(r"\d(?:[ ,.\-/()]{0,3}\d){6,}")
_FAKE = re.compile(r"1?000555\d{4}")
_LINE = re.compile(r"[^\n]+")
_SPOKEN_ZERO = re.compile(r"\boh\b", re.IGNORECASE)

_BRACKETED_AT = re.compile(r"\s*[(\[{<]\s*(?:at|arroba)\s*[)\]}>]\s*", re.I)
_BRACKETED_DOT = re.compile(r"\s*[(\[{<]\s*(?:dot|punto)\s*[)\]}>]\s*", re.I)
_WORD_DOT = re.compile(r"(?<=[a-z0-9])\s+(?:dot|punto)\s+(?=[a-z])", re.I)
_WORD_AT = re.compile(
    r"(?<=[a-z0-9])\s+(?:at|arroba)\s+(?=(?:gmail|googlemail|yahoo|hotmail|outlook|live|msn|icloud|me|aol|"
    r"proton|protonmail|gmx)\.|[a-z][\w-]*\.[a-z][\w-]*(?:\.[a-z][\w-]*)*\s*(?:\)|$|\s|,))",
    re.I,
)
# Starts only where a run of address characters starts (linear time on a long run with no "@").
_ADDRESS = re.compile(
    r"(?<![^\s@\"'<>()\[\]{},;:\\/|])[^\s@\"'<>()\[\]{},;:\\/|]+@[^\s@\"'<>()\[\]{},;:\\/!?|]+"
)

_HOUSE_NUMBER = re.compile(r"(?<![\w$#:./\-\[+])\d{1,6}[A-Za-z]?(?=\s+(?:[A-Z]|\d+(?:st|nd|rd|th)\b))")
_ES_STREET = re.compile(
    r"(?<!\w)(?:calle|c/|avenida|av|avda|paseo|carrera|cra|calzada|calz|camino|plaza|pza|ronda|travesía|"
    r"carretera|bulevar|boulevard|blvd|privada|callejón|pasaje|diagonal|transversal)\b\.?"
    r"(?P<rest>(?:\s+[^\s]+){1,6})",
    re.I,
)
_UNIT_WORDS = frozenset(
    [
        "apt",
        "apartment",
        "apartamento",
        "unidad",
        "casa",
        "interior",
        "int",
        "apto",
        "unit",
        "suite",
        "ste",
        "depto",
        "dpto",
        "departamento",
        "piso",
        "flat",
        "room",
        "rm",
        "bldg",
        "habitacion",
        "habitación",
        "hab",
    ]
)
_UNIT_FILLERS = frozenset({"#", "no", "no.", "number", "num", "num.", "núm", "núm.", "nº", "n.º"})
_UNIT_ID = re.compile(r"(?:[A-Za-z]{1,2}-?)?\d[A-Za-z0-9\-]{0,5}")
_HASH_NUMBER = re.compile(r"(?<![\w&#])#\s?(?P<digits>\d{2,5})[A-Za-z]?(?!\w)")
_CODE_CUES = frozenset(
    [
        "code",
        "codes",
        "gate",
        "door",
        "lockbox",
        "keypad",
        "pin",
        "passcode",
        "password",
        "clave",
        "código",
        "codigo",
        "contraseña",
        "portón",
        "porton",
        "puerta",
        "candado",
    ]
)
_CODE_TOKEN = re.compile(r"(?=[A-Za-z#*\-]*\d)[A-Za-z0-9][A-Za-z0-9#*\-]{2,11}")
_WORDS = re.compile(r"\S+")
_ADDRESS_MAX = 320  # the longest e-mail address there is
_TRIM = ".,;:!?)\"'`*]»"
_TITLED = re.compile(r"(?<![\w])(?:mr|mrs|ms|mx|dr|dra|prof|sr|sra|srta)\.?[ \t]+$", re.IGNORECASE)
_CAPITALISED = re.compile(r"(?<![\w'’])[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:['’][a-zß-öø-ÿ]+)?(?![\w'’])")


_LATIN_EXTRAS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"}
)


@functools.lru_cache(maxsize=8192)
def fold_token(token: str) -> str:
    """The leak scan's folding (its own, not the anonymizer's): case, accents and ø-like letters dropped."""
    decomposed = unicodedata.normalize("NFKD", token)
    return (
        "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().translate(_LATIN_EXTRAS)
    )


_FORMAT_NAMES = frozenset(fold_token(name) for name in (*FIRST_NAMES, *LAST_NAMES))


def wider_leaks(scan: str, kept_words: frozenset[str]) -> list[WiderLeak]:
    """Every leak of the wider classes in `scan`; `kept_words` are folded words that are no name."""
    found: list[WiderLeak] = []
    checks: tuple[Callable[[str], Iterator[WiderLeak]], ...] = (
        _spoken_phones,
        _disguised_emails,
        _addresses,
        _units,
        _codes,
    )
    for check in checks:
        found.extend(check(scan))
    found.extend(_mentioned_names(scan, kept_words))
    return found


def _spoken_phones(scan: str) -> Iterator[WiderLeak]:
    for line in _LINE.finditer(scan):
        text = line.group()
        if not re.search(r"[a-zA-Z]", text):
            continue
        # "oh" is a spoken zero inside a number ("oh eight eighty-five"); text2num reads it as a word.
        read = alpha2digit(alpha2digit(_SPOKEN_ZERO.sub("zero", text), "en"), "es")
        if read == text:
            continue
        written = {_digits(run) for run in _DIGIT_RUN.findall(text)}
        for run in _DIGIT_RUN.findall(read):
            digits = _digits(run)
            said = digits not in written and not any(digits in known for known in written)
            if said and not _FAKE.fullmatch(digits):
                yield "phone", line.start(), "•" * (len(digits) - 2) + digits[-2:]


def _disguised_emails(scan: str) -> Iterator[WiderLeak]:
    for line in _LINE.finditer(scan):
        text = line.group()
        if not re.search(r"(?i)\b(?:at|arroba|dot|punto)\b", text):
            continue
        plain = _WORD_DOT.sub(".", _BRACKETED_DOT.sub(".", _BRACKETED_AT.sub("@", text)))
        plain = _WORD_AT.sub("@", plain)
        before = {m.group().rstrip(".") for m in _ADDRESS.finditer(text)}
        for match in _ADDRESS.finditer(plain):
            address = match.group().rstrip(".")
            local, _, domain = address.partition("@")
            # An example.test address is a stand-in only as written: "quinlan dot contact-1@example.test"
            # reads as "quinlan.contact-1@…", which keeps part of a spelled-out local part.
            if address in before or "." not in domain:
                continue
            where = text.find(local)
            yield "email", line.start() + max(where, 0), f"{local[:1]}•••@•••"


def _addresses(scan: str) -> Iterator[WiderLeak]:
    for match in _HOUSE_NUMBER.finditer(scan):
        window = scan[match.start() : match.start() + 80].split("\n", 1)[0]
        words = window.split()[:7]
        if len(words) < 3:
            continue
        tagged = usaddress.parse(" ".join(words))
        if tagged[:1] and tagged[0][1] == "AddressNumber" and _street_after(tagged[1:]):
            yield "address", match.start(), "•" * len(match.group())
    for match in _ES_STREET.finditer(scan):
        rest = match.group("rest").split("\n", 1)[0]
        words = [word.strip(_TRIM + ",") for word in rest.split()]
        if any(re.fullmatch(r"#?\d{1,5}[A-Za-z]?", word) for word in words[:6]):
            yield "address", match.start(), match.group()[:3] + "•••"


def _street_after(tagged: list[tuple[str, str]]) -> bool:
    """A street name, then a street type that is one (the model alone takes "1 PM today" for a street)."""
    named = 0
    for word, label in tagged:
        if label in {"StreetNamePreDirectional", "StreetNamePreType", "StreetNamePreModifier"}:
            continue
        if label == "StreetName":
            # A street's name is capitalised, short and unbroken by a clause ("1 PM today. Once …").
            if not (word[:1].isupper() or word[:1].isdigit()) or word.upper() in {"AM", "PM"}:
                return False
            if word.endswith((",", ".", ";", ":", "!", "?")) or named == 4:
                return False
            named += 1
        elif label == "StreetNamePostType":
            return named > 0 and word.strip(_TRIM + ",").lower() in usaddress.STREET_NAMES
        else:
            return False
    return False


def _units(scan: str) -> Iterator[WiderLeak]:
    for line in _LINE.finditer(scan):
        words = [(m.start(), m.group()) for m in _WORDS.finditer(line.group())]
        for index, (offset, word) in enumerate(words):
            bare = word.lower().lstrip("(\"'").rstrip("\"'")
            if bare.endswith((",", ";", ")", "!", "?")) or (
                bare.endswith(".") and bare[:-1] not in _UNIT_WORDS
            ):
                continue  # the clause ends here: "(tool library, package room), 4th floor"
            bare = bare.rstrip(".:")
            if bare.startswith("[") or bare not in _UNIT_WORDS:
                continue  # not a unit word, or the anonymizer's own `[unit N]`
            following = [w for _, w in words[index + 1 : index + 3]]
            following = [w for w in following if w.lower() not in _UNIT_FILLERS][:1]
            number = following[0].lstrip("#").rstrip(_TRIM + ",") if following else ""
            if _UNIT_ID.fullmatch(number) and number != "0000":
                yield "unit", line.start() + offset, word[:1] + "•••"
    for match in _HASH_NUMBER.finditer(scan):
        if match.group("digits") != "0000":
            yield "unit", match.start(), "#•••"


def _codes(scan: str) -> Iterator[WiderLeak]:
    for line in _LINE.finditer(scan):
        words = [(m.start(), m.group()) for m in _WORDS.finditer(line.group())]
        for index, (_, word) in enumerate(words):
            if word.lower().strip(_TRIM + "(¿¡\"'") not in _CODE_CUES:
                continue
            # The first token with a digit in the same clause is what the cue names.
            for offset, candidate in words[index + 1 : index + 6]:
                token = candidate.strip(_TRIM + "(#")
                if any(ch.isdigit() for ch in token):
                    named = not (token.startswith("$") or ":" in token or "/" in token or "," in token)
                    stand_in = _FAKE.fullmatch(_digits(token)) or token == "0000"
                    if named and not stand_in and _CODE_TOKEN.fullmatch(token):
                        yield "code", line.start() + offset, "••" + token[-2:]
                    break
                if candidate.endswith((".", ";", "!", "?")):
                    break


def _mentioned_names(scan: str, kept_words: frozenset[str]) -> Iterator[WiderLeak]:
    for match in _CAPITALISED.finditer(scan):
        word = match.group()
        if "@" in _whitespace_token(scan, match.start()):
            continue  # part of an e-mail address: the e-mail check's to report
        if "'" in word or "’" in word:
            base, _, suffix = word.replace("’", "'").partition("'")
            if suffix.lower() != "s":
                continue
            word = base
        folded = fold_token(word)
        if folded in _FORMAT_NAMES or folded in kept_words:
            continue
        # A given name, or any capitalised word after a title: "Dr. Okonkwo" is on no list.
        titled = _TITLED.search(scan, max(0, match.start() - 8), match.start()) is not None
        if titled or is_given_name(word) or _joined_to_stand_in(scan, match.start()):
            yield "mentioned_name", match.start(), word[:1] + "•••"


def _joined_to_stand_in(scan: str, position: int) -> bool:
    """The second half of a hyphenated surname whose first half became a pseudonym ("Underhill-López")."""
    if position < 2 or scan[position - 1] not in "-‐":
        return False
    before = re.search(r"[^\W\d_]+$", scan[max(0, position - 40) : position - 1])
    return before is not None and fold_token(before.group()) in _FORMAT_NAMES


def _whitespace_token(scan: str, position: int) -> str:
    """The run of non-space characters around `position`, looked for within an address's length."""
    window_start = max(0, position - _ADDRESS_MAX)
    before = scan[window_start:position]
    start = window_start + max(before.rfind(" "), before.rfind("\n")) + 1
    after = scan[position : position + _ADDRESS_MAX]
    ends = [end for end in (after.find(" "), after.find("\n")) if end >= 0]
    return scan[start : position + (min(ends) if ends else len(after))]


def _digits(run: str) -> str:
    return "".join(ch for ch in run if ch.isdigit())
