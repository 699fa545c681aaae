"""Which ledger item a sentence names: the labels of each `facts.amounts` key, and the item a money
amount is paired with (the nearest label before it in its sentence, no other amount between).

Labels are derived from the key (`rent_2br` → "2 bedroom", "2-bedroom", "dos recámaras", …) unless
the rules' `amount_labels` gives the key's labels; see docs/amounts.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from cerebrus import defaults
from cerebrus.text import fold

_BEDROOM_KEY = re.compile(r"(?:^|_)(\d)_?(?:br|bd|bed|beds|bedroom|bedrooms)(?:_|$)")
_STUDIO_KEY = re.compile(r"(?:^|_)studio(?:_|$)")
# A token: letters and digits with internal apostrophes or hyphens (`2-bedroom`, `can't` are one).
_TOKEN = re.compile(r"\w+(?:['-]\w+)*")
# Sentences end at `.`, `!` or `?` followed by white space, or at a line break: `$1,950.00` is no end.
_SENTENCE_END = re.compile(r"[.!?]+(?=\s)|\n")


def derived_labels(key: str) -> tuple[str, ...]:
    """The default labels of a ledger key (before the rules' overrides)."""
    if key in defaults.AMOUNT_LABELS:
        return tuple(defaults.AMOUNT_LABELS[key])
    words = key.split("_")
    bedrooms = _BEDROOM_KEY.search(key)
    if bedrooms is not None and ("rent" in words or bedrooms.group().strip("_") == key):
        return _bedroom_labels(int(bedrooms.group(1)))
    if _STUDIO_KEY.search(key) and ("rent" in words or key == "studio"):
        return tuple(defaults.AMOUNT_LABELS["studio_rent"])
    return (" ".join(key.replace("_", " ").split()),)


def _bedroom_labels(count: int) -> tuple[str, ...]:
    words = {
        language: words[count - 1] if 0 < count <= len(words) else str(count)
        for language, words in defaults.COUNT_WORDS.items()
    }
    return tuple(
        dict.fromkeys(
            template.format(n=count, en=words["en"], es=words["es"]) for template in defaults.BEDROOM_LABELS
        )
    )


# A ledger has a handful of distinct values, so a matcher needs a handful of screens.
_SCREENS_LIMIT = 64

LabelEntry = tuple[tuple[str, ...], tuple[str, ...]]
"""A label as a token sequence, and the ledger keys it names."""


@dataclass(frozen=True)
class LabelMatcher:
    """The labels of one ledger as token sequences, found by their first token (matching stays linear
    in the text; at one position the longest label wins: "pet deposit", not "deposit")."""

    by_first_token: Mapping[str, tuple[LabelEntry, ...]]
    # Built on first need (see `screen_without`): the matcher is shared by every ledger of its keys.
    _screens: dict[frozenset[str], re.Pattern[str] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def screen_without(self, keys: frozenset[str]) -> re.Pattern[str] | None:
        """A pattern finding, as a substring, the first token of every label that names none of
        `keys`; None when every label names one of them. A text stretch it finds nothing in holds no
        such label, so the label nearest an amount there names one of `keys` or there is none."""
        try:
            return self._screens[keys]
        except KeyError:
            pass
        firsts = sorted(
            first
            for first, entries in self.by_first_token.items()
            if any(keys.isdisjoint(named) for _, named in entries)
        )
        screen = re.compile("|".join(map(re.escape, firsts))) if firsts else None
        if len(self._screens) < _SCREENS_LIMIT:
            self._screens[keys] = screen
        return screen

    def paired_keys(self, folded: str, amount_start: int, previous_end: int) -> tuple[str, ...]:
        """The ledger keys an amount starting at `amount_start` in a folded text is paired with: those
        of the nearest label before it in its sentence with no other amount between them
        (`previous_end`: where the amount before it ends, 0 when none); () when no label qualifies.

        Only that stretch of text is read: a label elsewhere cannot pair with this amount."""
        if not self.by_first_token:
            return ()
        floor = previous_end
        for end in _SENTENCE_END.finditer(folded, previous_end, amount_start):
            floor = end.end()
        tokens = _TOKEN.findall(folded, floor, amount_start)
        by_first = self.by_first_token
        nearest: tuple[str, ...] = ()
        # Left to right, a label's tokens cannot start another label; only the tokens some label begins
        # with are looked at (most tokens of a sentence begin none, and skipping them is done in C).
        free = 0
        for position in [index for index, token in enumerate(tokens) if token in by_first]:
            if position < free:
                continue
            for words, keys in by_first[tokens[position]]:
                if tuple(tokens[position : position + len(words)]) == words:
                    nearest, free = keys, position + len(words)
                    break
        return nearest


def label_matcher(keys: Sequence[str], overrides: Mapping[str, Sequence[str]]) -> LabelMatcher:
    """The label matcher of a ledger's keys under the rules' `amount_labels`."""
    given = tuple(sorted((key, tuple(labels)) for key, labels in overrides.items() if key in keys))
    return _label_matcher(tuple(keys), given)


@lru_cache(maxsize=256)
def _label_matcher(keys: tuple[str, ...], overrides: tuple[tuple[str, tuple[str, ...]], ...]) -> LabelMatcher:
    given = dict(overrides)
    unlabelled = {(fold(word),) for word in defaults.UNLABELLED}
    keys_of: dict[tuple[str, ...], list[str]] = {}
    for key in keys:
        for label in given.get(key, derived_labels(key)):
            words = tuple(_TOKEN.findall(fold(label)))
            if words and words not in unlabelled and key not in keys_of.get(words, ()):
                keys_of.setdefault(words, []).append(key)
    by_first: dict[str, list[LabelEntry]] = {}
    # Longest first, so that at one position the longest label is the one that matches.
    for words in sorted(keys_of, key=lambda words: (-len(words), words)):
        by_first.setdefault(words[0], []).append((words, tuple(keys_of[words])))
    return LabelMatcher({first: tuple(entries) for first, entries in by_first.items()})
