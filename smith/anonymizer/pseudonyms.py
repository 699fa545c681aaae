"""Stable pseudonyms for the people in one conversation.

A pseudonym is drawn from fixed lists of neutral names by a hash of the conversation id and the
participant id, so the same input always gives the same fixture. Within a conversation every
pseudonym is distinct, and none shares a word with any real name in it: otherwise the leak scan
could not tell a pseudonym from the name it replaced.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cerebrus.text.folding import fold
from gradecore.model.contract import Conversation, Participant

# Neutral, uncommon-as-a-word names; the lists are part of the fixture format (changing them changes
# every fixture's bytes), so add at the end only.
FIRST_NAMES: tuple[str, ...] = (
    "Alex", "Bailey", "Cameron", "Dakota", "Emerson", "Finley", "Harper", "Hayden", "Jamie", "Kendall",
    "Logan", "Marlow", "Noel", "Oakley", "Parker", "Peyton", "Quinn", "Reese", "Remy", "Rowan",
    "Sasha", "Skyler", "Tatum", "Toby", "Val", "Wren", "Ellis", "Arden", "Blair", "Corey",
    "Devon", "Elliot", "Frankie", "Jessie", "Kai", "Lane", "Morgan", "Nico", "Robin", "Shay",
)  # fmt: skip
LAST_NAMES: tuple[str, ...] = (
    "Ashdown", "Bellamy", "Calloway", "Dunmore", "Ellery", "Fairbank", "Garrick", "Holloway",
    "Ingram", "Kendrick", "Lockwood", "Marchetti", "Northcott", "Oakes", "Pemberton", "Radcliffe",
    "Sterling", "Thornbury", "Underhill", "Whitlock", "Yardley", "Aldridge", "Brennan", "Castellano",
    "Delacroix", "Everett", "Fenwick", "Galloway", "Hartigan", "Iverson",
)  # fmt: skip

# Roles whose "names" are product names, not people (Clara's prompts say "You are Clara").
NAMELESS_ROLES = frozenset({"clara", "system"})
# Titles and suffixes in a name field are not the person's name and stay as they are.
HONORIFICS = frozenset(
    {"mr", "mrs", "ms", "mx", "miss", "dr", "prof", "sr", "sra", "srta", "jr", "ii", "iii", "iv"}
)
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")


@dataclass(frozen=True, slots=True)
class Pseudonym:
    participant_id: str
    first: str
    last: str
    # The real name's words in order (titles and initials dropped) and the pseudonym word for each.
    name_words: tuple[str, ...]
    words: tuple[str, ...]

    @property
    def full(self) -> str:
        return " ".join(self.words) if self.words else f"{self.first} {self.last}"

    @property
    def email(self) -> str:
        return f"{self.first}.{self.last}@example.test".lower().replace("-", ".")


def name_words(name: str | None) -> tuple[str, ...]:
    """The words of a name field that identify the person: no titles, no initials."""
    if not name:
        return ()
    words = [word for word in _WORD.findall(name) if len(fold(word)) > 1]
    return tuple(word for word in words if fold(word) not in HONORIFICS)


def named_participants(conversation: Conversation) -> list[Participant]:
    """The participants who are people with personal data (not Clara, not the platform)."""
    return [p for p in conversation.participants if p.role not in NAMELESS_ROLES]


def assign_pseudonyms(conversation: Conversation) -> dict[str, Pseudonym]:
    """A pseudonym per person in the conversation, keyed by participant id."""
    people = named_participants(conversation)
    # No pseudonym word may share a part with a real name (the leak scan would take it for the name).
    forbidden = frozenset(fold(part) for p in people for word in name_words(p.name) for part in _parts(word))
    taken: set[str] = set()
    assigned: dict[str, Pseudonym] = {}
    for person in people:
        real = name_words(person.name)
        first = _pick(FIRST_NAMES, _seed(conversation.conversation_id, person.id, "first"), forbidden, taken)
        last = _pick(LAST_NAMES, _seed(conversation.conversation_id, person.id, "last"), forbidden, taken)
        middles = [
            _pick(FIRST_NAMES, _seed(conversation.conversation_id, person.id, f"middle{i}"), forbidden, taken)
            for i in range(max(len(real) - 2, 0))
        ]
        words = (first,) if len(real) == 1 else (first, *middles, last) if real else ()
        assigned[person.id] = Pseudonym(person.id, first, last, real, words)
    return assigned


def stranger_pseudonym(
    conversation_id: str, name: str, *, surname: bool, forbidden: frozenset[str], taken: set[str]
) -> str:
    """A stable stand-in for a person who is not a participant (a name only mentioned in a text)."""
    names = LAST_NAMES if surname else FIRST_NAMES
    part = ("surname:" if surname else "given:") + fold(name)
    return _pick(names, _seed(conversation_id, "\x00mentioned", part), forbidden | {fold(name)}, taken)


def _parts(word: str) -> list[str]:
    return [part for part in re.split(r"['’\-]", word) if part]


def _seed(conversation_id: str, participant_id: str, part: str) -> int:
    digest = hashlib.sha256(f"{conversation_id}\x1f{participant_id}\x1f{part}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _pick(names: Sequence[str], seed: int, forbidden: frozenset[str], taken: set[str]) -> str:
    """The first free name at or after the seeded position (probing keeps the choice stable).

    A free name shares no part with a real name and is not already a pseudonym word here; it is then
    marked taken. A conversation crowded enough to exhaust the list gets hyphenated pairs.
    """
    size = len(names)
    singles = (names[(seed + step) % size] for step in range(size))
    pairs = (
        f"{names[(seed + i) % size]}-{names[(seed + i + 1 + j) % size]}"
        for i in range(size)
        for j in range(size - 1)
    )
    for candidate in itertools.chain(singles, pairs):
        if fold(candidate) not in taken and forbidden.isdisjoint(fold(part) for part in _parts(candidate)):
            taken.add(fold(candidate))
            return candidate
    raise ValueError("too many people in one conversation for the pseudonym lists")
