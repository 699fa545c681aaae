"""Which ledger item a sentence names: the labels of each `facts.amounts` key, and the item a money
amount is paired with (the nearest label before it in its sentence, no other amount between).

Labels are derived from the key (`rent_2br` → "2 bedroom", "2-bedroom", "dos recámaras", …) unless
the rules' `amount_labels` gives the key's labels; see docs/amounts.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from cerebrus import defaults
from cerebrus.text import fold

_BEDROOM_KEY = re.compile(r"(?:^|_)(\d)_?(?:br|bd|bed|beds|bedroom|bedrooms)(?:_|$)")
_STUDIO_KEY = re.compile(r"(?:^|_)studio(?:_|$)")
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


@dataclass(frozen=True)
class LabelMatcher:
    """The labels of one ledger, compiled: one pattern, and which keys each folded label names."""

    pattern: re.Pattern[str] | None
    keys_of: Mapping[str, tuple[str, ...]]

    def labels_in(self, folded: str) -> list[tuple[int, int, str]]:
        """Each label in a folded text as (start, end, folded label), left to right; at one position the
        longest label wins ("pet deposit", not "deposit")."""
        if self.pattern is None:
            return []
        return [(m.start(), m.end(), " ".join(m.group().split())) for m in self.pattern.finditer(folded)]


def label_matcher(keys: Sequence[str], overrides: Mapping[str, Sequence[str]]) -> LabelMatcher:
    """The label matcher of a ledger's keys under the rules' `amount_labels`."""
    given = tuple(sorted((key, tuple(labels)) for key, labels in overrides.items() if key in keys))
    return _label_matcher(tuple(keys), given)


@lru_cache(maxsize=256)
def _label_matcher(keys: tuple[str, ...], overrides: tuple[tuple[str, tuple[str, ...]], ...]) -> LabelMatcher:
    given = dict(overrides)
    unlabelled = {fold(word) for word in defaults.UNLABELLED}
    keys_of: dict[str, list[str]] = {}
    for key in keys:
        for label in given.get(key, derived_labels(key)):
            folded = " ".join(fold(label).split())
            if folded and folded not in unlabelled:
                keys_of.setdefault(folded, []).append(key)
    return LabelMatcher(_pattern(keys_of), {label: tuple(found) for label, found in keys_of.items()})


def _pattern(labels: Iterable[str]) -> re.Pattern[str] | None:
    ordered = sorted(labels, key=lambda label: (-len(label), label))
    if not ordered:
        return None
    alternatives = [r"\s+".join(re.escape(word) for word in label.split()) for label in ordered]
    # Whole tokens only: a token may hold internal apostrophes or hyphens, so "deposit" is not a label
    # inside "deposit-free" and "2 bedroom" not inside "12 bedroom".
    return re.compile(r"(?<!\w)(?<!\w['-])(?:" + "|".join(alternatives) + r")(?![\w]|['-]\w)")


def sentence_starts(folded: str) -> list[int]:
    """Where each sentence of a folded text starts (the first at 0)."""
    return [0, *(match.end() for match in _SENTENCE_END.finditer(folded))]


def paired_label(
    labels: Sequence[tuple[int, int, str]], starts: Sequence[int], amount_start: int, previous_end: int
) -> str | None:
    """The label an amount is paired with: the nearest one ending before it, in its sentence, after
    the amount before it (`previous_end`, 0 when none); None when no label qualifies."""
    floor = max(previous_end, max(start for start in starts if start <= amount_start))
    nearest: tuple[int, int, str] | None = None
    for label in labels:
        start, end, _ = label
        if start >= floor and end <= amount_start and (nearest is None or end >= nearest[1]):
            nearest = label
    return nearest[2] if nearest is not None else None
