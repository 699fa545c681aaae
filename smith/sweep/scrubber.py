"""The replacement engine behind the anonymizer: one pass over a text, every kind of personal data.

All kinds are found on the original text first and replaced in a single pass (leftmost, then
longest wins), so a replacement is never itself rescanned: an e-mail holding a name is replaced as
an e-mail, a phone number holding an access code as a phone number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import JsonValue

from smith.sweep.folding import Folded, fold
from smith.sweep.phones import fake_number, field_pattern, find_phones, phone_key
from smith.sweep.pseudonyms import Pseudonym

CODE_PLACEHOLDER = "0000"
_EMAIL = re.compile(r"[\w.%+\-]+@[\w\-]+(?:\.[\w\-]+)*")
_BOUNDARY_BEFORE = r"(?<![^\W_])"
_BOUNDARY_AFTER = r"(?![^\W_])"
# Ties between spans of equal extent go to the kind listed first.
_EMAIL_RANK, _PHONE_RANK, _NAME_RANK, _CODE_RANK = range(4)


@dataclass(slots=True)
class _Hit:
    start: int
    end: int
    rank: int
    replacement: Callable[[str], str]


@dataclass(slots=True)
class Scrubber:
    """Replaces phones, e-mails, participants' names and access codes, stably within one fixture."""

    pseudonyms: dict[str, Pseudonym]
    access_codes: tuple[str, ...]
    own_phones: dict[str, re.Pattern[str]] = field(default_factory=dict)
    _names: dict[str, str] = field(default_factory=dict)  # folded name word (no separators) → pseudonym word
    _name_pattern: re.Pattern[str] | None = None
    _code_pattern: re.Pattern[str] | None = None
    _emails: dict[str, str] = field(default_factory=dict)  # lower-cased original → replacement
    _phones: dict[str, str] = field(default_factory=dict)  # phone key → fake number
    _strangers: int = 0  # e-mail addresses of no participant seen so far

    def __post_init__(self) -> None:
        alternatives: dict[str, None] = {}
        for pseudonym in self.pseudonyms.values():
            for word, stand_in in zip(pseudonym.name_words, pseudonym.words, strict=True):
                parts = [part for part in re.split(r"[\W_]+", fold(word)) if part]
                # The first person to bear a name word keeps it: "Jordan" alone is the first Jordan.
                self._names.setdefault("".join(parts), stand_in)
                alternatives[r"[\W_]?".join(re.escape(part) for part in parts)] = None
        if alternatives:
            ordered = sorted(alternatives, key=lambda alt: (-len(alt), alt))
            self._name_pattern = re.compile(
                _BOUNDARY_BEFORE + "(?:" + "|".join(ordered) + ")" + _BOUNDARY_AFTER
            )
        codes = sorted({code for code in self.access_codes if code.strip()}, key=lambda c: (-len(c), c))
        if codes:
            escaped = "|".join(re.escape(code) for code in codes)
            self._code_pattern = re.compile(_BOUNDARY_BEFORE + "(?:" + escaped + ")" + _BOUNDARY_AFTER, re.I)

    # --- fields -------------------------------------------------------------------------------------

    def register_phone(self, raw: str) -> str:
        """A participant's phone field: remembered so it is found in texts in any formatting."""
        key = phone_key(raw)
        pattern = field_pattern(raw)
        if pattern is not None:
            self.own_phones.setdefault(key, pattern)
        return self._fake_for(key)

    def register_email(self, raw: str, replacement: str | None) -> str:
        """A participant's e-mail field; `replacement` is the pseudonym's address, if a person's."""
        if replacement is not None:
            self._emails.setdefault(raw.strip().lower(), replacement)
        return self._email_for(raw.strip())

    # --- texts --------------------------------------------------------------------------------------

    def text(self, text: str) -> str:
        hits = self._hits(text)
        if not hits:
            return text
        hits.sort(key=lambda hit: (hit.start, -(hit.end - hit.start), hit.rank))
        pieces: list[str] = []
        position = 0
        for hit in hits:
            if hit.start < position:
                continue  # inside a span already replaced
            pieces.append(text[position : hit.start])
            pieces.append(hit.replacement(text[hit.start : hit.end]))
            position = hit.end
        pieces.append(text[position:])
        return "".join(pieces)

    def json(self, value: JsonValue) -> JsonValue:
        """Every string in free-form JSON (keys too); a number that was personal data becomes a string."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int | float):
            as_text = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
            scrubbed = self.text(as_text)
            return value if scrubbed == as_text else scrubbed
        if isinstance(value, list):
            return [self.json(item) for item in value]
        return {self.text(key): self.json(item) for key, item in value.items()}

    def _hits(self, text: str) -> list[_Hit]:
        hits: list[_Hit] = []
        if "@" in text:
            hits.extend(_Hit(m.start(), m.end(), _EMAIL_RANK, self._email_for) for m in _EMAIL.finditer(text))
        if any(char.isdigit() for char in text):
            for phone in find_phones(text, self.own_phones):
                hits.append(_Hit(phone.start, phone.end, _PHONE_RANK, self._phone_replacer(phone.key)))
            if self._code_pattern is not None:
                hits.extend(
                    _Hit(m.start(), m.end(), _CODE_RANK, lambda _: CODE_PLACEHOLDER)
                    for m in self._code_pattern.finditer(text)
                )
        if self._name_pattern is not None:
            folded = Folded.of(text)
            for start, end in folded.spans(self._name_pattern):
                hits.append(_Hit(start, end, _NAME_RANK, self._name_for))
        return hits

    def _name_for(self, original: str) -> str:
        key = "".join(part for part in re.split(r"[\W_]+", fold(original)) if part)
        # A match always folds back to a registered word; the fallback only guards odd foldings (ß).
        stand_in = self._names.get(key, "Anon")
        if original.isupper() and len(original) > 1:
            return stand_in.upper()
        if original.islower():
            return stand_in.lower()
        return stand_in

    def _email_for(self, original: str) -> str:
        key = original.lower()
        if key not in self._emails:
            if key in self._emails.values():
                return original  # already one of this fixture's stand-ins
            self._strangers += 1
            self._emails[key] = f"contact-{self._strangers}@example.test"
        return self._emails[key]

    def _phone_replacer(self, key: str) -> Callable[[str], str]:
        return lambda _: self._fake_for(key)

    def _fake_for(self, key: str) -> str:
        if key not in self._phones:
            self._phones[key] = fake_number(len(self._phones) + 1)
        return self._phones[key]
