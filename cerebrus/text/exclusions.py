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

Drafts are matched sentence by sentence (`TokenizedText.sentences`: a sentence ends at `!`, `?`, a
line break, or a `.` followed by a space or the end, so "$1.50" and "8.30" stay inside theirs).
Exclusions are scanned only in a sentence where a pattern matched, so they cost nothing for the
drafts that match nothing (most of them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cerebrus.text.language_codes import LanguageCode
from cerebrus.text.phrases import PhraseSet
from cerebrus.text.tokens import TokenizedText

Position = Literal["before", "after", "right_after", "overlap", "sentence"]
Check = Literal["narration", "promises"]


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
    exclusions: PhraseSet[Exclusion], sentence: TokenizedText, hits: Sequence[Hit], language: str | None
) -> set[Hit]:
    """The hits (matches in this one sentence) that an exclusion of the set takes back: an exclusion
    stands in its hit's sentence, so only the sentences holding hits are ever read for them."""
    if not hits or not exclusions.may_match(sentence):
        return set()
    found = [
        (exclusion.position, start, stop)
        for _, exclusion, start, stop in exclusions.scan(sentence)
        if exclusion.language is None or language is None or exclusion.language == language
    ]
    folded = sentence.folded.folded
    return {hit for hit in hits if any(_stands(position, hit, (s, e), folded) for position, s, e in found)}


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
