"""E-mail addresses written to dodge scrapers: `ana (at) gmail (dot) com`, `ana at gmail dot com`,
`ana[at]gmail.com`, `ana arroba gmail punto com`.

Each is read back as the plain address it spells, so the anonymizer gives it the same stand-in as the
same address written normally. The bare-word form ("at", "dot") only counts when it ends in a known
top-level domain, so "meet at noon" never reads as an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ObfuscatedEmail", "find_obfuscated_emails"]

_TLDS = (
    "com", "net", "org", "edu", "gov", "io", "co", "me", "info", "biz", "us", "uk", "ca", "es", "mx",
    "ar", "cl", "pe", "de", "fr", "it", "ch", "app", "dev", "test",
)  # fmt: skip
_OPEN, _CLOSE = r"[(\[{<]", r"[)\]}>]"
_AT_BRACKETED = rf"\s*{_OPEN}\s*(?:at|arroba|@)\s*{_CLOSE}\s*"
_DOT_BRACKETED = rf"\s*{_OPEN}\s*(?:dot|punto|\.)\s*{_CLOSE}\s*"
_AT_WORD = r"\s+(?:at|arroba)\s+"
_DOT_WORD = r"\s+(?:dot|punto)\s+"
_LABEL = r"[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?"
# The local part may be spelled out too: "quinlan dot ashworth at gmail dot com" is one address.
_LOCAL = (
    r"(?<![\w.+\-])(?:[a-z0-9][\w+\-]*(?:\s+(?:dot|punto)\s+|\s*[(\[{<]\s*(?:dot|punto)\s*[)\]}>]\s*))*"
    r"[a-z0-9][\w.+\-]*"
)
_END = r"(?![\w\-@]|\.\w)"
_TLD = "(?:" + "|".join(sorted(_TLDS, key=len, reverse=True)) + ")" + _END
_DOT_ANY = rf"(?:{_DOT_BRACKETED}|{_DOT_WORD}|\.)"
# Mail providers people name in a spelled-out address ("ana at gmail.com"); a bare "at" before any
# other plain domain is more likely a web address ("apply at example.com/apply").
_PROVIDERS = r"(?:gmail|googlemail|yahoo|hotmail|outlook|live|msn|icloud|me|aol|proton|protonmail|gmx)"
# Either the "at" or some "dot" must be disguised: a plain address is the ordinary e-mail scan's.
_FORMS = (
    rf"{_LOCAL}(?:{_AT_BRACKETED}|{_AT_WORD}|@)(?:{_LABEL}{_DOT_ANY})*{_LABEL}(?:{_DOT_BRACKETED}|{_DOT_WORD}){_TLD}",
    rf"{_LOCAL}(?:{_AT_BRACKETED}|{_AT_WORD}|@)(?:{_LABEL}(?:{_DOT_BRACKETED}|{_DOT_WORD}))+(?:{_LABEL}\.)*{_TLD}",
    rf"{_LOCAL}{_AT_BRACKETED}(?:{_LABEL}\.)+[a-z]{{2,24}}{_END}",
    rf"{_LOCAL}{_AT_WORD}{_PROVIDERS}(?:\.{_LABEL})*\.{_TLD}",
)
_PATTERNS = tuple(re.compile(form, re.IGNORECASE) for form in _FORMS)
_AT_ANY = re.compile(rf"{_AT_BRACKETED}|{_AT_WORD}", re.IGNORECASE)
_DOT_DISGUISED = re.compile(rf"{_DOT_BRACKETED}|{_DOT_WORD}", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ObfuscatedEmail:
    start: int
    end: int
    address: str  # the plain address it spells, lower-cased


def find_obfuscated_emails(text: str) -> list[ObfuscatedEmail]:
    found: dict[int, ObfuscatedEmail] = {}
    for pattern in _PATTERNS:
        for match in pattern.finditer(text):
            raw = match.group()
            if "@" in raw and not _DOT_DISGUISED.search(raw):
                continue  # an ordinary address
            address = _DOT_DISGUISED.sub(".", _AT_ANY.sub("@", raw)).replace(" ", "").lower()
            longest = found.get(match.start())
            if longest is None or longest.end < match.end():
                found[match.start()] = ObfuscatedEmail(match.start(), match.end(), address)
    return sorted(found.values(), key=lambda email: email.start)
