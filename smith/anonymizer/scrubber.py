"""The replacement engine behind the anonymizer: one pass over a text, every kind of personal data.

All kinds are found on the original text first and replaced in a single pass (leftmost, then
longest wins), so a replacement is never itself rescanned: an e-mail holding a name is replaced as
an e-mail, a phone number holding an access code as a phone number. Numbers said in words and
disguised e-mail addresses are read as what they spell first, so they get the same stand-in as the
same number or address written plainly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import JsonValue

from cerebrus.text.folding import FoldedText, fold
from smith.anonymizer.identifiers import IDENTIFIER_PLACEHOLDERS, IdentifierKind, find_identifiers
from smith.anonymizer.obfuscated_emails import find_obfuscated_emails
from smith.anonymizer.phones import fake_number, field_pattern, find_phones, phone_key
from smith.anonymizer.places import PLACE_KEYS, PlaceKind, find_places, place_key
from smith.anonymizer.pseudonyms import Pseudonym, stranger_pseudonym
from smith.anonymizer.spoken_numbers import find_spoken_numbers
from smith.anonymizer.strangers import find_mentioned_names

CODE_PLACEHOLDER = "0000"
_EMAIL = re.compile(r"(?<![\w.%+\-])[\w.%+\-]+@[\w\-]+(?:\.[\w\-]+)*")  # starts at a run's start: linear
_BOUNDARY_BEFORE = r"(?<![^\W_])"
_BOUNDARY_AFTER = r"(?![^\W_])"
# Ties between spans of equal extent go to the kind listed first: an identifier (a card number)
# before the phone number the same digits could also be.
_IDENTIFIER_RANK = -1
_EMAIL_RANK, _PHONE_RANK, _ADDRESS_RANK, _NAME_RANK, _MENTIONED_RANK, _UNIT_RANK, _CODE_RANK = range(7)
_PLACE_RANKS: dict[PlaceKind, int] = {"address": _ADDRESS_RANK, "unit": _UNIT_RANK, "code": _CODE_RANK}
_PLACE_WORDS: dict[PlaceKind, str] = {"address": "address", "unit": "unit"}


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
    conversation_id: str = ""  # seeds the stand-ins of names mentioned in passing
    keep_words: frozenset[str] = frozenset()  # folded words that are never a mentioned name (Clara)
    own_phones: dict[str, re.Pattern[str]] = field(default_factory=dict)
    _names: dict[str, str] = field(default_factory=dict)  # folded name word (no separators) → pseudonym word
    _name_pattern: re.Pattern[str] | None = None
    _code_pattern: re.Pattern[str] | None = None
    _emails: dict[str, str] = field(default_factory=dict)  # lower-cased original → replacement
    _phones: dict[str, str] = field(default_factory=dict)  # phone key → fake number
    _strangers: int = 0  # e-mail addresses of no participant seen so far
    _mentioned: dict[tuple[bool, str], str] = field(default_factory=dict)  # (surname?, folded) → stand-in
    _places: dict[tuple[PlaceKind, str], str] = field(default_factory=dict)  # (kind, key) → placeholder
    _taken: set[str] = field(default_factory=set)  # folded pseudonym words in use
    _forbidden: frozenset[str] = frozenset()  # folded parts of the participants' real names

    def __post_init__(self) -> None:
        alternatives: dict[str, None] = {}
        for pseudonym in self.pseudonyms.values():
            for word, stand_in in zip(pseudonym.name_words, pseudonym.words, strict=True):
                parts = [part for part in re.split(r"[\W_]+", fold(word)) if part]
                # The first person to bear a name word keeps it: "Jordan" alone is the first Jordan.
                self._names.setdefault("".join(parts), stand_in)
                alternatives[r"[\W_]?".join(re.escape(part) for part in parts)] = None
                if len(parts) > 1 and "-" in word:
                    # Each half of "Smith-Jones" alone is the name too ("Ms. Jones"); it takes the
                    # whole surname's stand-in.
                    for part in parts:
                        if len(part) > 1:
                            self._names.setdefault(part, stand_in)
                            alternatives[re.escape(part)] = None
        if alternatives:
            ordered = sorted(alternatives, key=lambda alt: (-len(alt), alt))
            self._name_pattern = re.compile(
                _BOUNDARY_BEFORE + "(?:" + "|".join(ordered) + ")" + _BOUNDARY_AFTER
            )
        self._taken = {fold(word) for pseudonym in self.pseudonyms.values() for word in pseudonym.words}
        self._forbidden = frozenset(self._names)
        self.keep_words = self.keep_words | frozenset(self._names)
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
        return {self.text(key): self._json_entry(key, item) for key, item in value.items()}

    def _json_entry(self, key: str, value: JsonValue) -> JsonValue:
        """A value under a key such as `unit` or `gate_code` is that place or code, whatever it looks like."""
        kind = PLACE_KEYS.get(key.strip().casefold())
        if kind is None or isinstance(value, bool) or not isinstance(value, str | int | float):
            return self.json(value)
        as_text = str(value).strip()
        if not as_text or as_text == CODE_PLACEHOLDER or as_text.startswith("["):
            return value
        return self._place_replacer(kind)(as_text)

    def _hits(self, text: str) -> list[_Hit]:
        hits: list[_Hit] = []
        if "@" in text:
            hits.extend(_Hit(m.start(), m.end(), _EMAIL_RANK, self._email_for) for m in _EMAIL.finditer(text))
        for disguised in find_obfuscated_emails(text):
            hits.append(
                _Hit(disguised.start, disguised.end, _EMAIL_RANK, self._email_spelled(disguised.address))
            )
        for spoken in find_spoken_numbers(text):
            hits.append(
                _Hit(spoken.start, spoken.end, _PHONE_RANK, self._phone_replacer(phone_key(spoken.digits)))
            )
        ledger_codes = (
            [m.span() for m in self._code_pattern.finditer(text)] if self._code_pattern is not None else []
        )
        for place in find_places(text):
            if place.kind == "unit" and any(place.start <= a and b <= place.end for a, b in ledger_codes):
                continue  # "#4821" where 4821 is a known access code: the code's placeholder says more
            replacement = self._place_replacer(place.kind)
            hits.append(_Hit(place.start, place.end, _PLACE_RANKS[place.kind], replacement))
        for name in find_mentioned_names(text, self.keep_words):
            hits.append(_Hit(name.start, name.end, _MENTIONED_RANK, self._mentioned_replacer(name.surname)))
        for identifier in find_identifiers(text):
            replacement = _identifier_replacer(identifier.kind)
            hits.append(_Hit(identifier.start, identifier.end, _IDENTIFIER_RANK, replacement))
        if any(char.isdigit() for char in text):
            for phone in find_phones(text, self.own_phones):
                hits.append(_Hit(phone.start, phone.end, _PHONE_RANK, self._phone_replacer(phone.key)))
            hits.extend(_Hit(a, b, _CODE_RANK, lambda _: CODE_PLACEHOLDER) for a, b in ledger_codes)
        if self._name_pattern is not None:
            for span, _ in FoldedText(text).finditer(self._name_pattern):
                hits.append(_Hit(span.start, span.end, _NAME_RANK, self._name_for))
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

    def _email_spelled(self, address: str) -> Callable[[str], str]:
        return lambda _: self._email_for(address)

    def _place_replacer(self, kind: PlaceKind) -> Callable[[str], str]:
        def replace(original: str) -> str:
            if kind == "code":
                return CODE_PLACEHOLDER
            key = (kind, place_key(kind, fold(original)))
            if key not in self._places:
                # Numbered, so two different addresses stay different (a check comparing them still can).
                count = sum(1 for known in self._places if known[0] == kind)
                self._places[key] = f"[{_PLACE_WORDS[kind]} {count + 1}]"
            return self._places[key]

        return replace

    def _mentioned_replacer(self, surname: bool) -> Callable[[str], str]:
        def replace(original: str) -> str:
            key = (surname, fold(original))
            if key not in self._mentioned:
                self._mentioned[key] = stranger_pseudonym(
                    self.conversation_id,
                    original,
                    surname=surname,
                    forbidden=self._forbidden,
                    taken=self._taken,
                )
            stand_in = self._mentioned[key]
            return stand_in.upper() if original.isupper() and len(original) > 1 else stand_in

        return replace

    def _phone_replacer(self, key: str) -> Callable[[str], str]:
        return lambda _: self._fake_for(key)

    def _fake_for(self, key: str) -> str:
        if key not in self._phones:
            self._phones[key] = fake_number(len(self._phones) + 1)
        return self._phones[key]


def _identifier_replacer(kind: IdentifierKind) -> Callable[[str], str]:
    placeholder = IDENTIFIER_PLACEHOLDERS[kind]
    return lambda _: placeholder
