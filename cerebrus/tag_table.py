"""`TagTable`: what a language tag stands for, worked out once per tag and then found by a plain dict
look-up (cheaper than an lru_cache call, which counts for look-ups made on nearly every turn)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

V = TypeVar("V")

TAGS_KEPT = 256


class TagTable(dict[str, V]):
    """A dict that fills itself: `table[tag]` computes a missing entry and keeps it. Bounded, though tags
    are the platform's: when full it starts afresh, which is always correct (entries are recomputed)."""

    def __init__(self, compute: Callable[[str], V], limit: int = TAGS_KEPT) -> None:
        super().__init__()
        self._compute = compute
        self._limit = limit

    def __missing__(self, tag: str) -> V:
        value = self._compute(tag)
        if len(self) >= self._limit:
            self.clear()
        self[tag] = value
        return value
