"""Finding phone numbers for the anonymizer, and the fake `+1 000` numbers that replace them.

Two finders, because either alone misses some: the `phonenumbers` matcher (region US, POSSIBLE
leniency) finds any plausibly-dialable number, and a pattern per participant finds that person's own
number in any formatting (spaces, dots, brackets, with or without the country code).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import phonenumbers
from phonenumbers import Leniency, PhoneNumberMatcher

FAKE_PREFIX = "+1 000-555-"
_FAKE_DIGITS = re.compile(r"1?000555\d{4}")
_GAP = r"[\s().\-]*"
# An identifier that happens to hold a digit run (a UUID, a content hash) is not a phone number.
_IDENTIFIER = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[0-9a-f]*[a-f])[0-9a-f]{16,}",
    re.IGNORECASE,
)
_TOKEN_CHARS = re.compile(r"[0-9A-Za-z\-]")
_ID_LETTERS = re.compile(r"[A-Za-z]{2,}")
_PHONE_LABELS = frozenset(
    {"tel", "ph", "phone", "cell", "mob", "mobile", "fax", "ext", "call", "sms", "wa", "num"}
)


@dataclass(frozen=True, slots=True)
class PhoneHit:
    start: int
    end: int
    key: str  # the same number in any formatting has the same key


def fake_number(index: int) -> str:
    """The `index`-th fake number of a fixture (1-based): `+1 000-555-0001`."""
    if not 1 <= index <= 9999:
        raise ValueError("a fixture holds at most 9,999 distinct phone numbers")
    return f"{FAKE_PREFIX}{index:04d}"


def phone_key(raw: str) -> str:
    """A formatting-independent key for a number: E.164 when it parses, else its digits."""
    try:
        number = phonenumbers.parse(raw, "US")
    except phonenumbers.NumberParseException:
        return "digits:" + "".join(ch for ch in raw if ch.isdigit())
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def field_pattern(raw: str) -> re.Pattern[str] | None:
    """A pattern for one participant's number in any formatting, or None if it holds too few digits."""
    try:
        number = phonenumbers.parse(raw, "US")
        digits = phonenumbers.national_significant_number(number)
        # An opening bracket belongs to the number only when it closes after the area code.
        prefix = rf"(?:\+?{number.country_code}{_GAP})?(?:\((?=\d{{3}}\)))?"
    except phonenumbers.NumberParseException:
        digits, prefix = "".join(ch for ch in raw if ch.isdigit()), ""
    if len(digits) < 7:
        return None
    return re.compile(r"(?<!\d)" + prefix + _GAP.join(digits) + r"(?!\d)")


def is_fake(raw: str) -> bool:
    return _FAKE_DIGITS.fullmatch("".join(ch for ch in raw if ch.isdigit())) is not None


def find_phones(text: str, own: dict[str, re.Pattern[str]]) -> list[PhoneHit]:
    """Every phone number in `text`; `own` maps a participant's phone key to its pattern."""
    hits: list[PhoneHit] = []
    for match in PhoneNumberMatcher(text, "US", leniency=Leniency.POSSIBLE):
        if _exempt(text, match.start, match.end, match.raw_string):
            continue
        key = phonenumbers.format_number(match.number, phonenumbers.PhoneNumberFormat.E164)
        # "(call 415 555 0126)": the matcher takes the sentence's bracket; leave it to the sentence.
        raw = match.raw_string
        unbalanced = raw.startswith("(") and raw.count("(") > raw.count(")")
        start = match.start + 1 if unbalanced else match.start
        hits.append(PhoneHit(start, match.end, _owned_key(key, own)))
    for key, pattern in own.items():
        hits.extend(
            PhoneHit(m.start(), m.end(), key) for m in pattern.finditer(text) if not is_fake(m.group())
        )
    return hits


def _owned_key(key: str, own: dict[str, re.Pattern[str]]) -> str:
    """A local seven-digit number that is the tail of a participant's number is that number."""
    digits = key.lstrip("+")
    if len(digits) == 8 and digits.startswith("1"):
        for known in own:
            if known.startswith("+1") and known.endswith(digits[1:]):
                return known
    return key


def _exempt(text: str, start: int, end: int, raw: str) -> bool:
    if is_fake(raw) or ":" in raw:
        return True
    before = text[:start].rstrip()
    if before.endswith(("$", "€", "£")):
        return True
    token_start, token_end = start, end
    while token_start > 0 and _TOKEN_CHARS.match(text[token_start - 1]):
        token_start -= 1
    while token_end < len(text) and _TOKEN_CHARS.match(text[token_end]):
        token_end += 1
    token = text[token_start:token_end]
    if _IDENTIFIER.fullmatch(token) is not None:
        return True
    # An id holding a digit run (`col1796136155`) is not a phone number: ids are kept as they are.
    # A one-letter or phone-label prefix (`x4155550123`, `tel4155550123`) is a number all the same.
    label = _ID_LETTERS.match(token)
    return label is not None and label.group().lower() not in _PHONE_LABELS and raw.isdigit()
