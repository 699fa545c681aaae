"""The independent leak scan every fixture passes before it is written (docs/jobs.md).

It shares no code with the anonymizer: it scans the SERIALIZED fixture (JSON or markdown) with its
own tokenizer and folding, so a mistake in one is not repeated in the other. (The two share data only:
the given-name list and the pseudonym lists of the format.) What counts as a leak:

- phone: any `phonenumbers` match at POSSIBLE leniency (region US) — except the fake numbers
  (`+1 000-555-NNNN`, digits `1000555NNNN`), a match preceded by a currency sign or followed by
  `USD`/`dollars` (money), a match holding `:` or shaped like a date (`2026-07-17`, `7/17/2026`), a
  match inside an ISO-8601 timestamp (`…T16:49:13.318290+00:00` holds `13.318290`), and a match inside
  a UUID, a 16+ character hex digest or an id that starts with two letters or more
  (`col1796136155`: identifiers, not numbers anyone dials). Every other match is a leak, even a
  number that merely could be one: the scan errs towards refusing.
- email: any `local@domain` whose domain is not exactly `example.test`.
- name: an original participant's full, first, last or middle name as whole words, ignoring case
  and accents (`María` = `MARIA`); `Jordan's` holds `Jordan`, `Jordanian` does not.
- access_code: an original access code as whole tokens (`0000`, the placeholder, is never watched;
  nor is the value of a typed counter such as `"input_tokens": 4821`).
- phone said in words, disguised email, address, unit, code named in passing, mentioned_name: see
  `smith/leaks/wider.py`.
- card, ssn, birth_date, bank, iban, id_document: see `smith/leaks/identifiers.py`.

A leak names its kind and position and shows a masked snippet, never the value itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from phonenumbers import Leniency, PhoneNumberMatcher
from pydantic import BaseModel

from gradecore.model import contract, grades, vocabulary
from gradecore.model.contract import Conversation
from smith.leaks.identifiers import identifier_leaks
from smith.leaks.wider import fold_token, wider_leaks

__all__ = ["Leak", "LeakKind", "LeakWatchlist", "describe_leaks", "find_leaks"]

LeakKind = Literal[
    "phone",
    "email",
    "name",
    "access_code",
    "address",
    "unit",
    "code",
    "mentioned_name",
    "card",
    "ssn",
    "birth_date",
    "bank",
    "iban",
    "id_document",
]

_TOKEN = re.compile(r"[^\W_]+")
# Starts only where a run of address characters starts: trying every position inside a long run
# without an "@" would take quadratic time.
# A "|" ends an address: Slack writes a link as `<mailto:ana@x.com|label>`.
_EMAIL = re.compile(
    r"(?<![^\s@\"'<>()\[\]{},;:\\/|])[^\s@\"'<>()\[\]{},;:\\/|]+@[^\s@\"'<>()\[\]{},;:\\/!?|]+"
)
# The format's own words are no one's name: a participant called Smith is not leaked by
# "smith.fixture/v1", nor one called Reason by the `"reason":` key. Only these exact strings are
# blanked, so a tool's own key holding a name is still scanned.
_FORMAT_MODULES = (contract, grades, vocabulary)
_FORMAT_KEYS = frozenset(
    name
    for module in _FORMAT_MODULES
    for model in vars(module).values()
    if isinstance(model, type) and issubclass(model, BaseModel) and model.__module__ == module.__name__
    for field_name, info in model.model_fields.items()
    for name in (field_name, info.alias or field_name)
) | {
    # The fixture's own keys and the machine grade as frozen with an act (smith/listening/acts.py).
    "format", "kind", "verdict_id", "created_at", "conversation_id", "turn_id", "expected_level", "reason",
    "machine_grade_at_time", "grader_user_id", "principles", "input", "level", "headline", "owner",
    "source", "rubric_version", "dimensions",
}  # fmt: skip
_FORMAT_WORDS = re.compile(
    r'"(?:' + "|".join(sorted(map(re.escape, _FORMAT_KEYS), key=len, reverse=True)) + r')"(?=\s*:)'
    r"|\bsmith\.(?:fixture|conversation)/v\d+\b"
)
_JSON_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|[\"\\/bfnrt])")
_FAKE = re.compile(r"1?000555\d{4}")
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}")
# A timestamp as the contract and the fixture format write it; its fraction of a second can look
# like a number anyone dials.
_TIMESTAMP = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?"
)
_UUID = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", re.I)
_DIGEST = re.compile(r"(?=[0-9a-f]*[a-f])[0-9a-f]{16,}", re.I)
_NOT_A_NAME = frozenset(
    {"mr", "mrs", "ms", "mx", "miss", "dr", "prof", "sr", "sra", "srta", "jr", "ii", "iii", "iv"}
)
_UNWATCHED_ROLES = frozenset({"clara", "system"})
_LEADING_LETTERS = re.compile(r"[A-Za-z]{2,}")
_PHONE_LABELS = frozenset(
    {"tel", "ph", "phone", "cell", "mob", "mobile", "fax", "ext", "call", "sms", "wa", "num"}
)
_PLACEHOLDER_CODE = ("0000",)
# Typed counters of the contract and the fixture; a code that equals a token count reveals nothing.
_COUNTER = re.compile(
    r'"(?:input_tokens|output_tokens|cache_read_tokens|loop_iteration|step_index|verdict_id|grader_user_id|'
    r'start|end|score)"\s*:\s*$'
)


@dataclass(frozen=True, slots=True)
class Leak:
    kind: LeakKind
    snippet: str  # masked: never the original value
    position: int  # character offset in the scanned text
    detail: str = ""


@dataclass(frozen=True, slots=True)
class LeakWatchlist:
    """What the original conversation held that must not survive: names and codes, as folded tokens."""

    names: frozenset[tuple[str, ...]] = field(default_factory=frozenset)
    codes: frozenset[tuple[str, ...]] = field(default_factory=frozenset)
    # Folded words that are never a mentioned person here: the property's name, Clara's name.
    kept: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_conversation(cls, conversation: Conversation) -> LeakWatchlist:
        names: set[tuple[str, ...]] = set()
        kept = {fold_token(word) for word in _TOKEN.findall(conversation.property.name)}
        for participant in conversation.participants:
            if participant.role in _UNWATCHED_ROLES and participant.name:
                kept.update(fold_token(word) for word in _TOKEN.findall(participant.name))
            if participant.role in _UNWATCHED_ROLES or not participant.name:
                continue
            words = [_tokens_of(word) for word in participant.name.split()]
            words = [w for w in words if w and not (len(w) == 1 and (len(w[0]) < 2 or w[0] in _NOT_A_NAME))]
            names.update(words)
            if words:
                names.add(tuple(token for word in words for token in word))
            # Each part of a hyphenated surname alone ("Jones" of "Smith-Jones") is watched too.
            names.update((part,) for word in words if len(word) > 1 for part in word if len(part) > 1)
        watchlist = cls(frozenset(names), frozenset(), frozenset(kept))
        return watchlist.with_codes(*conversation.property.facts.access_codes)

    def with_codes(self, *raw_codes: str) -> LeakWatchlist:
        """This watchlist plus more original access codes."""
        extra = {_tokens_of(code) for code in raw_codes}
        codes = self.codes | {c for c in extra if c and c != _PLACEHOLDER_CODE}
        return LeakWatchlist(self.names, codes, self.kept)

    def with_names(self, *raw_names: str) -> LeakWatchlist:
        """This watchlist plus more original names (each word and the whole name)."""
        extra = {_tokens_of(word) for name in raw_names for word in name.split()}
        extra |= {_tokens_of(name) for name in raw_names}
        return LeakWatchlist(self.names | {e for e in extra if e}, self.codes, self.kept)


def find_leaks(text: str, originals: LeakWatchlist) -> list[Leak]:
    """Every leak in a serialized fixture, in order of position."""
    scan = _JSON_ESCAPE.sub(_blank_escape, text)
    leaks, safe = _phone_leaks(scan)
    leaks.extend(_email_leaks(scan))
    leaks.extend(_watched_leaks(scan, originals, safe))
    # One report per place: a participant's name is not also a "mentioned" one, a ledger code not also
    # a cued one.
    reported = {leak.position for leak in leaks}
    wider: set[tuple[LeakKind, int]] = set()
    for kind, position, snippet in (*identifier_leaks(scan), *wider_leaks(scan, originals.kept)):
        if position not in reported and (kind, position) not in wider:
            wider.add((kind, position))
            leaks.append(Leak(kind, snippet, position, f"a {kind.replace('_', ' ')} (wider scan)"))
    return sorted(leaks, key=lambda leak: (leak.position, leak.kind))


def describe_leaks(leaks: list[Leak], limit: int = 5) -> str:
    """One line for a refusal report: `2 leaks: phone •••-•••-••87 at 120; name J••• at 301`."""
    shown = "; ".join(f"{leak.kind} {leak.snippet} at {leak.position}" for leak in leaks[:limit])
    more = f"; and {len(leaks) - limit} more" if len(leaks) > limit else ""
    return f"{len(leaks)} leak{'s' if len(leaks) != 1 else ''}: {shown}{more}"


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _blank_escape(match: re.Match[str]) -> str:
    # Same length, so positions stay true: `\nJordan` must read as a break before a name.
    escape = match.group()
    if escape.startswith("\\u"):
        return " " * 5 + chr(int(escape[2:], 16))
    return " " + {"n": "\n", "t": "\t", "r": "\r", "b": " ", "f": " "}.get(escape[1], escape[1])


def _phone_leaks(scan: str) -> tuple[list[Leak], list[range]]:
    leaks: list[Leak] = []
    fakes: list[range] = []
    timestamps = [range(found.start(), found.end()) for found in _TIMESTAMP.finditer(scan)]
    for match in PhoneNumberMatcher(scan, "US", leniency=Leniency.POSSIBLE):
        raw: str = match.raw_string
        digits = "".join(ch for ch in raw if ch.isdigit())
        if _FAKE.fullmatch(digits):
            fakes.append(range(match.start, match.end))
            continue
        harmless = (
            _is_money(scan, match.start, match.end)
            or _is_time_or_date(raw)
            or _inside_timestamp(timestamps, match.start, match.end)
            or _inside_identifier(scan, match.start, match.end)
        )
        if not harmless:
            leaks.append(Leak("phone", _mask_digits(raw), match.start, "a possible phone number"))
    return leaks, fakes


def _is_money(scan: str, start: int, end: int) -> bool:
    before = scan[max(0, start - 3) : start].rstrip()
    after = scan[end : end + 9].lstrip().lower()
    return before.endswith(("$", "€", "£")) or after.startswith(("usd", "dollars"))


def _is_time_or_date(raw: str) -> bool:
    return ":" in raw or _DATE.fullmatch(raw.strip()) is not None


def _inside_timestamp(timestamps: list[range], start: int, end: int) -> bool:
    return any(start in stamp and end - 1 in stamp for stamp in timestamps)


def _inside_identifier(scan: str, start: int, end: int) -> bool:
    left = start
    while left > 0 and (scan[left - 1].isascii() and (scan[left - 1].isalnum() or scan[left - 1] == "-")):
        left -= 1
    right = end
    while right < len(scan) and scan[right].isascii() and (scan[right].isalnum() or scan[right] == "-"):
        right += 1
    token = scan[left:right]
    if _UUID.fullmatch(token) or _DIGEST.fullmatch(token):
        return True
    # An id with a digit run in it (`col1796136155`, `conv-1796136`): one unbroken run of digits inside
    # a token that starts with two letters or more, not a phone label (`tel5551234567`, `x4155550123`).
    label = _LEADING_LETTERS.match(token)
    return label is not None and label.group().lower() not in _PHONE_LABELS and scan[start:end].isdigit()


def _email_leaks(scan: str) -> list[Leak]:
    leaks: list[Leak] = []
    for match in _EMAIL.finditer(scan):
        local, _, domain = match.group().partition("@")
        if domain.rstrip(".").lower() != "example.test":
            masked = f"{local[:1]}•••@•••{domain[domain.rfind('.') :] if '.' in domain else ''}"
            leaks.append(Leak("email", masked, match.start(), "an address outside example.test"))
    return leaks


def _watched_leaks(scan: str, originals: LeakWatchlist, safe: list[range]) -> list[Leak]:
    words = _FORMAT_WORDS.sub(_blank, scan)  # same length: positions stay true
    tokens = [(m.start(), fold_token(m.group())) for m in _TOKEN.finditer(words)]
    folded = [token for _, token in tokens]
    watched: list[tuple[LeakKind, tuple[str, ...]]] = [("name", n) for n in originals.names]
    watched += [("access_code", c) for c in originals.codes]
    by_first: dict[str, list[tuple[LeakKind, tuple[str, ...]]]] = {}
    for kind, sequence in watched:
        by_first.setdefault(sequence[0], []).append((kind, sequence))
    leaks: list[Leak] = []
    covered = 0  # tokens before this index belong to a leak already reported
    for index, token in enumerate(folded):
        matched = [
            (kind, seq)
            for kind, seq in by_first.get(token, ())
            if tuple(folded[index : index + len(seq)]) == seq
        ]
        position = tokens[index][0]
        if index < covered or not matched or any(position in zone for zone in safe):
            continue  # nothing new here, or a digit group of a fake number (not a code)
        # One report per occurrence: "Jordan Avery" is one leak, not also a "Jordan" and an "Avery" one.
        kind, sequence = max(matched, key=lambda pair: len(pair[1]))
        if kind == "access_code" and _COUNTER.search(scan, max(0, position - 40), position):
            continue
        covered = index + len(sequence)
        leaks.append(Leak(kind, _mask_watched(kind, scan, position), position, f"an original {kind}"))
    return leaks


def _tokens_of(text: str) -> tuple[str, ...]:
    return tuple(fold_token(token) for token in _TOKEN.findall(text))


def _mask_digits(raw: str) -> str:
    digits_seen = sum(ch.isdigit() for ch in raw)
    shown: list[str] = []
    for ch in raw:
        if ch.isdigit():
            digits_seen -= 1
            shown.append(ch if digits_seen < 2 else "•")
        else:
            shown.append(ch)
    return "".join(shown)


def _mask_watched(kind: LeakKind, scan: str, position: int) -> str:
    if kind == "access_code":
        token = _TOKEN.match(scan, position)
        value = token.group() if token else ""
        return "••" + value[-2:] if len(value) >= 4 else "••"
    return scan[position] + "•••"
