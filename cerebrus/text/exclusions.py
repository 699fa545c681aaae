"""Exclusions: phrase patterns that take a narration or promise match back, by where they stand.

A pattern fires on words; whether those words narrate Clara's machinery or promise a visit can
depend on what surrounds them. "If the app isn't working for you, pay by check" holds a failure
clause governed by "if"; "if you'd like, we'll send someone" is an offer; "your replacement filter is
on the way" has a non-trade subject. An exclusion is a phrase pattern (same language as every other,
docs/text-matching.md) with the check it applies to and where it must stand relative to the match:

- `before`: earlier in the match's sentence;
- `after`: later in the match's sentence;
- `right_after`: beginning where the match ends ("isn't working | for you");
- `overlap`: sharing at least one character with the match;
- `sentence`: anywhere in the match's sentence.

A sentence ends at `!`, `?`, a line break, or a `.` followed by a space or the end (so "$1.50" and
"8.30" stay inside their sentence). Exclusions are scanned only for drafts where a pattern matched,
so they cost nothing for the drafts that match nothing (most of them).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cerebrus.text.language_codes import LanguageCode
from cerebrus.text.phrases import PhraseSet
from cerebrus.text.tokens import TokenizedText

Position = Literal["before", "after", "right_after", "overlap", "sentence"]
Check = Literal["narration", "promises"]

# What ends a sentence: "!", "?", a line break, or "." before a space or the end ("$1.50" and "8.30" go on).
_SENTENCE_END = re.compile(r"[!?\n]|\.(?=\s|$)")


class Exclusion(BaseModel):
    """One exclusion; its id names it in rules files (merge by id, `enabled = false` turns it off)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    pattern: str = Field(min_length=1)
    applies_to: Check
    position: Position
    # ISO 639-1 code of the texts it applies to; None: every language.
    language: LanguageCode | None = None
    enabled: bool = True


Hit = tuple[int, int]
"""A match as (start, end) offsets in the folded text."""


def excluded(
    exclusions: PhraseSet[Exclusion], text: TokenizedText, hits: Sequence[Hit], language: str | None
) -> set[Hit]:
    """The hits that an exclusion of the set takes back. Only the sentences holding hits are read: an
    exclusion stands in its hit's sentence, and a draft's other sentences would only cost time."""
    if not hits or not exclusions.may_match(text):
        return set()
    folded = text.folded.folded
    sentence_of = _sentences(folded)
    by_sentence: dict[tuple[int, int], list[Hit]] = {}
    for hit in hits:
        by_sentence.setdefault(sentence_of(*hit), []).append(hit)
    taken_back: set[Hit] = set()
    for (begins, ends), in_sentence in by_sentence.items():
        found = [
            (exclusion.position, start, stop)
            for _, exclusion, start, stop in exclusions.scan(text, text.numbers_within(begins, ends))
            if exclusion.language is None or language is None or exclusion.language == language
        ]
        taken_back.update(
            hit
            for hit in in_sentence
            if any(_stands(position, hit, (s, e), folded) for position, s, e in found)
        )
    return taken_back


def _stands(position: Position, hit: Hit, other: Hit, folded: str) -> bool:
    """Whether an exclusion found in the hit's sentence stands where its position asks."""
    start, stop = hit
    other_start, other_stop = other
    if position == "right_after":
        return other_start >= stop and folded[stop:other_start].strip(" ,") == ""
    if position == "overlap":
        return other_start < stop and start < other_stop
    if position == "before":
        return other_stop <= start
    if position == "after":
        return other_start >= stop
    return True


def spans_sentences(folded: str, start: int, stop: int) -> bool:
    """Whether folded[start:stop] runs over a sentence end: a pattern's gap may swallow the "!" of
    "sorry for the mix-up! Our system had an error", and a phrase across two sentences is no phrase."""
    return _SENTENCE_END.search(folded, start, stop) is not None


def _sentences(folded: str) -> Callable[[int, int], tuple[int, int]]:
    """The bounds of the sentence holding folded[start:stop], from one pass over the text (each hit
    then costs a binary search, so a draft full of hits is still read in linear time)."""
    ends = [mark.start() for mark in _SENTENCE_END.finditer(folded)]

    def bounds(start: int, stop: int) -> tuple[int, int]:
        before = bisect_left(ends, start)
        after = bisect_left(ends, stop)
        return (ends[before - 1] + 1 if before else 0), (ends[after] if after < len(ends) else len(folded))

    return bounds
