"""Which ledger item a sentence names: the labels of each `facts.amounts` key, and the item a money
amount is paired with (the label right after it, else the nearest label before it in its sentence that
no other amount stands between or has already taken; docs/amounts.md).

Labels are derived from the key (`rent_2br` → "2 bedroom", "2-bedroom", "dos recámaras", …) unless
the rules' `amount_labels` gives the key's labels; see docs/amounts.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from cerebrus import defaults
from cerebrus.text.folding import fold

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
    # Built on first need (see `may_have_label_after`): one pattern, or None when there is no label.
    _after_screen: list[re.Pattern[str] | None] = field(default_factory=list, compare=False, repr=False)

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

    def may_have_label_after(self, folded: str, amount_end: int) -> bool:
        """Whether a label may stand right after an amount ending at `amount_end`: False rules
        `label_after` out with one C-level match (most amounts are followed by "per month." or
        "al mes", no label), True means `label_after` must look."""
        screen = self._after_screen
        if not screen:
            firsts = sorted(self.by_first_token, key=lambda first: (-len(first), first))
            fillers = "|".join(map(re.escape, sorted(_FILLERS, key=lambda word: (-len(word), word))))
            # The same gaps and fillers `label_after` allows, then any label's first token as a prefix:
            # it finds everything `label_after` could (and may find a little more, which it then rules out).
            starts = "|".join(map(re.escape, firsts))
            gap = r"[ \t/]*"
            screen.append(
                re.compile(rf"{gap}(?:(?:{fillers})(?!\w){gap}){{0,{_MAX_FILLERS}}}(?:{starts})")
                if firsts
                else None
            )
        pattern = screen[0]
        return pattern is not None and pattern.match(folded, amount_end) is not None

    def label_after(self, folded: str, amount_end: int) -> Pairing | None:
        """The label right after an amount ending at `amount_end` in a folded text: the first label met
        reading on, with only filler tokens (`defaults.LABEL_FILLERS`) before it and nothing but spaces,
        tabs or `/` around the tokens ("a $150 admin fee", "$30 monthly pet rent", "$250 de depósito").
        A comma, bracket, line break or any other word ends the look: None.

        A handful of tokens right after the amount are read, never the rest of the text."""
        by_first = self.by_first_token
        if not by_first:
            return None
        position = amount_end
        for _ in range(_MAX_FILLERS + 1):
            token = _NEXT_TOKEN.match(folded, position)
            if token is None:
                return None
            entries = by_first.get(token.group(1))
            if entries is not None:
                found = self._label_at(folded, token, entries)
                if found is not None:
                    return found
            if token.group(1) not in _FILLERS:
                return None
            position = token.end()
        return None

    @staticmethod
    def _label_at(folded: str, first: re.Match[str], entries: tuple[LabelEntry, ...]) -> Pairing | None:
        """The longest of `entries` whose words follow on from the token `first`, or None."""
        for words, keys in entries:
            end = first.end()
            for word in words[1:]:
                token = _NEXT_TOKEN.match(folded, end)
                if token is None or token.group(1) != word:
                    break
                end = token.end()
            else:
                return Pairing(keys, first.start(1), end)
        return None

    def label_before(self, folded: str, amount_start: int, floor: int) -> Pairing | None:
        """The nearest label before an amount starting at `amount_start` in a folded text, in its
        sentence and after `floor` (where the amount before it ends, or the label that amount took
        ends: no other amount, and no label already paired, stands between); None when there is none.

        Only that stretch of text is read: a label elsewhere cannot pair with this amount."""
        if not self.by_first_token:
            return None
        for end in _SENTENCE_END.finditer(folded, floor, amount_start):
            floor = end.end()
        tokens = _TOKEN.findall(folded, floor, amount_start)
        by_first = self.by_first_token
        nearest: tuple[str, ...] = ()
        at = 0
        # Left to right, a label's tokens cannot start another label; only the tokens some label begins
        # with are looked at (most tokens of a sentence begin none, and skipping them is done in C).
        free = 0
        for position in [index for index, token in enumerate(tokens) if token in by_first]:
            if position < free:
                continue
            for words, keys in by_first[tokens[position]]:
                if tuple(tokens[position : position + len(words)]) == words:
                    nearest, at, free = keys, position, position + len(words)
                    break
        if not nearest:
            return None
        # Where the label stands, for its receipt: worked out only for a label found (few are).
        places = list(_TOKEN.finditer(folded, floor, amount_start))
        return Pairing(nearest, places[at].start(), places[free - 1].end())


@dataclass(frozen=True)
class Pairing:
    """The label an amount is paired with: the ledger keys it names and where it stands in the folded
    text (for the receipt, and so that the next amount cannot pair with it again)."""

    keys: tuple[str, ...]
    start: int
    end: int


# The next token after an offset with only spaces, tabs or `/` before it (`$35/month`): what "right
# after" allows; a comma, bracket or line break in front of it is no match.
_NEXT_TOKEN = re.compile(r"[ \t/]*(\w+(?:['-]\w+)*)")
_FILLERS = frozenset(fold(word) for word in defaults.LABEL_FILLERS)
_MAX_FILLERS = 6


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
