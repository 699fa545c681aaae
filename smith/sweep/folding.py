"""Case- and accent-folded copies of a text that still point back at the original characters.

The anonymizer matches names on the folded copy (so `MARÍA`, `maria` and `María` are one name) and
replaces the ORIGINAL characters, so everything it does not replace stays byte for byte.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

# Letters that Unicode does not decompose into a base letter plus a mark, but that people drop when
# they type a name without its accents (Søren → Soren, Łukasz → Lukasz).
_UNDECOMPOSED = {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i"}
_APOSTROPHES = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"}


# Bounded: a text holding every Unicode character once must not grow the cache by a hundred megabytes;
# the characters real names use are few and stay cached.
_FOLD_CACHE_SIZE = 4096


@functools.lru_cache(maxsize=_FOLD_CACHE_SIZE)
def fold_char(char: str) -> str:
    """One character folded: lower case, accents stripped; "" for a lone combining mark."""
    lowered = char.lower()
    pieces: list[str] = []
    for low in lowered:
        low = _APOSTROPHES.get(low, low)
        if low in _UNDECOMPOSED:
            pieces.append(_UNDECOMPOSED[low])
            continue
        pieces.extend(part for part in unicodedata.normalize("NFD", low) if not unicodedata.combining(part))
    return "".join(pieces)


def fold(text: str) -> str:
    """The folded form of a text, offsets not kept: for building patterns."""
    return "".join(fold_char(char) for char in text)


@dataclass(frozen=True, slots=True)
class Folded:
    """A text's folded copy and, for each folded character, the offset of the character it came from.

    `origin` is None when folding kept every offset (ASCII, the common case, and 1:1 accents).
    """

    original: str
    folded: str
    origin: tuple[int, ...] | None

    @classmethod
    def of(cls, text: str) -> Folded:
        if text.isascii():
            return cls(text, text.lower().replace("`", "'"), None)
        pieces = [fold_char(char) for char in text]
        if all(len(piece) == 1 for piece in pieces):
            return cls(text, "".join(pieces), None)
        origin: list[int] = []
        for index, piece in enumerate(pieces):
            origin.extend([index] * len(piece))
        return cls(text, "".join(pieces), tuple(origin))

    def spans(self, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        """Each non-empty match over the folded copy, as a half-open span of the ORIGINAL text."""
        found: list[tuple[int, int]] = []
        for match in pattern.finditer(self.folded):
            if match.end() <= match.start():
                continue
            if self.origin is None:
                found.append((match.start(), match.end()))
                continue
            start = self.origin[match.start()]
            stop = self.origin[match.end() - 1] + 1
            # A combining mark after the last letter folded away; it belongs to the name it accents.
            while stop < len(self.original) and not fold_char(self.original[stop]):
                stop += 1
            found.append((start, stop))
        return found
