"""Phrase patterns, compiled (see cerebrus.text.phrase_syntax for the language): matched in linear time.

A word never matches inside a token: `can` matches neither "can't" nor "cannot". Texts and patterns
are read with their contractions expanded ("I'm" as "i am", "don't" as "do not", "can't" and "can
not" as "cannot"; `'s` and `'d` as written, matched as clitics; cerebrus.text.tokens), and a match ends
only where a token ends. Matching works element by element on the set of states (token, pending
clitic) reached, so a text is matched in time linear in its length whatever the pattern's gaps and
options; a pattern is tried only where its first words stand, and only on the few tokens a match can
cover (docs/text-matching.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cerebrus.text.tokens import TextReading, TokenizedText, match_starts, reading_of, split_clitic
from gradecore.errors import SmithError

Words = tuple[str, ...]
T = TypeVar("T")


class PatternError(SmithError, ValueError):
    """A phrase pattern that cannot be compiled; the message is one line naming the problem."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One position: any of its alternatives (token sequences), or nothing when optional."""

    alternatives: tuple[Words, ...]
    optional: bool
    # Alternatives by their first word: only those whose first word is the token at hand are tried.
    by_first: Mapping[str, tuple[Words, ...]] = field(compare=False)


@dataclass(frozen=True, slots=True)
class Gap:
    least: int
    most: int
    allowed: frozenset[str] | None


Element = Choice | Gap


@dataclass(frozen=True)
class Phrase:
    """A compiled pattern: its elements and the words a match can begin with."""

    source: str
    elements: tuple[Element, ...]
    first_words: frozenset[str]
    # For each element a match cannot do without, pieces at least one of which a matching text holds
    # (see cerebrus.text.tokens.word_pieces); `key` is the most telling of them ("api" rather than "the").
    # A text lacking them is ruled out by set operations on its pieces. Empty: cannot be ruled out.
    required: tuple[frozenset[bytes], ...]
    key: frozenset[bytes]
    # The most tokens a match can cover (bounded for a rules file, docs/text-matching.md).
    reach: int
    # The tokens a match may begin at (the first words as written: "can" for "cannot", "im" for "i",
    # "won" for the "won't" that reads as "will"); a token also counts when its contraction base is one.
    starts: frozenset[str] = field(init=False, repr=False, compare=False)
    # The elements as the matcher walks them, each gap with the required choice after it: a gap keeps
    # only the places where that choice can begin (patterns cannot end in a gap, and an optional
    # choice after a gap is rare).
    steps: tuple[Step, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", match_starts(self.first_words))
        object.__setattr__(self, "steps", tuple(_steps(self.elements)))

    def may_occur(self, pieces: frozenset[bytes]) -> bool:
        return not any(needed.isdisjoint(pieces) for needed in self.required)

    def longest_prefix(self, words: Sequence[str]) -> int:
        """How many of `words` (tokens as written) the longest match starting at the first of them
        covers, or -1. The words are read with their contractions expanded (tokens.reading_of); a
        match ends only where a token ends ("do" does not match "don't" alone)."""
        reading = reading_of(words)
        if reading is None:
            return _longest(self.steps, words, (), 0)
        read, sources = reading
        stop = _longest(self.steps, read, sources, 0)
        return sources[stop - 1][1] if stop > 0 else stop

    def match_at(self, reading: TextReading, number: int) -> int:
        """Where the longest match beginning at token `number` of a text's reading ends (a token
        number), or -1."""
        first = reading.firsts[number]
        if first is None:
            return -1
        stop = _longest(self.steps, reading.words, reading.sources, first)
        if stop <= first:
            return -1
        return reading.sources[stop - 1][1] if reading.sources else stop

    def finditer(self, text: TokenizedText) -> Iterator[tuple[int, int]]:
        """Non-overlapping matches, leftmost first and longest, as (start, end) offsets in the folded
        text, tried only at the tokens a match can begin at."""
        numbers_of = text.numbers_of
        places = sorted({number for word in self.starts for number in numbers_of.get(word, ())})
        if not places:
            return
        reading = text.reading
        covered = 0
        for number in places:
            if number < covered:
                continue
            stop = self.match_at(reading, number)
            if stop > 0:
                covered = stop
                yield text.start_of(number), text.end_of(stop - 1)


Step = tuple[Element, Choice | None]
"""An element, and for a gap the required choice after it (None: none, or not a gap)."""

State = tuple[int, str | None]
"""Where a match stands between two elements: the next token's index, and the contraction tail the
last word left over (`we` against "we'll" leaves `'ll`), if any."""


def _steps(elements: tuple[Element, ...]) -> Iterator[Step]:
    for element, following in zip(elements, (*elements[1:], None), strict=True):
        if isinstance(element, Gap) and isinstance(following, Choice) and not following.optional:
            yield element, following
        else:
            yield element, None


def _longest(
    steps: tuple[Step, ...], words: Sequence[str], sources: Sequence[tuple[int, int]], start: int
) -> int:
    """Where the longest match of a phrase's steps from `words[start]` ends (a position in `words`), or
    -1. With `sources` (the tokens each word was read from), a match may end only after a token's last
    word: "do" read from "don't" is no match on its own.

    The elements are a sequence (no loops), so the match is worked out element by element: the set
    of states after each element, built from the states before it. A state is reached once per
    element whatever the paths to it, so gaps and options cannot make matching exponential.
    """
    states: set[State] = {(start, None)}
    for element, after in steps:
        if isinstance(element, Choice):
            states = _after_choice(element, words, states)
        else:
            states = _after_gap(element, after, words, states)
        if not states:
            return -1
    # A contraction's tail left unconsumed means the last word matched only part of a token.
    longest = -1
    for position, pending in states:
        if pending is None and position > longest:
            if sources and 0 < position < len(sources) and sources[position][0] < sources[position - 1][1]:
                continue  # inside the words one token reads as
            longest = position
    return longest


def _after_choice(element: Choice, words: Sequence[str], states: set[State]) -> set[State]:
    reached: set[State] = set(states) if element.optional else set()
    by_first = element.by_first
    size = len(words)
    for position, pending in states:
        if pending is not None:
            candidates = by_first.get(pending, ())
        elif position < size:
            token = words[position]
            candidates = by_first.get(token, ())
            if "'" in token and (pair := split_clitic(token)):
                candidates = (*candidates, *by_first.get(pair[0], ()))
        else:
            continue
        for alternative in candidates:
            if pending is None and len(alternative) == 1 and alternative[0] == token:
                # The common case, a one-word alternative that is the whole token, without a call.
                reached.add((position + 1, None))
                continue
            consumed = _consume(alternative, words, position, pending)
            if consumed is not None:
                reached.add(consumed)
    return reached


def _after_gap(gap: Gap, after: Choice | None, words: Sequence[str], states: set[State]) -> set[State]:
    """The states a gap reaches; when a required choice follows it, only those where that choice can
    begin (its first word is the clitic left over, the token, or the token's contraction base)."""
    reached: set[State] = set()
    allowed = gap.allowed
    least = gap.least
    most = gap.most
    size = len(words)
    firsts = after.by_first if after is not None else None
    for position, pending in states:
        count = 0
        while True:
            if count >= least:
                if firsts is None:
                    reached.add((position, pending))
                elif pending is not None:
                    if pending in firsts:
                        reached.add((position, pending))
                elif position < size:
                    token = words[position]
                    if token in firsts or (
                        "'" in token and (pair := split_clitic(token)) and pair[0] in firsts
                    ):
                        reached.add((position, pending))
            if count == most:
                break
            if pending is not None:
                # A contraction's tail ("'s" of "system's") is one gap token when the gap allows it.
                if allowed is not None and pending not in allowed:
                    break
                pending = None
            else:
                if position >= size or (allowed is not None and words[position] not in allowed):
                    break
                position += 1
            count += 1
    return reached


def _consume(
    words: Words, tokens: Sequence[str], position: int, pending: str | None
) -> tuple[int, str | None] | None:
    """Match an alternative's words from `position`: the next position and any contraction tail left
    over (`we` against "we'll" leaves `'ll` for the next word), or None."""
    for word in words:
        if pending is not None:
            if word != pending:
                return None
            pending = None
            continue
        if word[0] == "'" or position >= len(tokens):
            return None
        token = tokens[position]
        if token == word:
            position += 1
        elif token.startswith(word) and token[len(word)] == "'":
            pending = token[len(word) :]
            position += 1
        else:
            return None
    return position, pending


class PhraseSet(Generic[T]):
    """Compiled phrases with what each stands for: a text holding none of their key pieces is
    dismissed by one set operation, and each phrase is tried only where its first words stand."""

    def __init__(self, entries: Iterable[tuple[Phrase, T]]) -> None:
        self.entries = tuple(entries)
        # Entries by the words a match can begin with (for a match at a given token).
        by_word: dict[str, list[int]] = {}
        for number, (phrase, _) in enumerate(self.entries):
            for word in phrase.first_words:
                by_word.setdefault(word, []).append(number)
        self._by_word = by_word
        # Every phrase's key pieces together: a text holding none of them matches no phrase of the
        # set. None: some phrase cannot be ruled out by pieces.
        unkeyed = any(not phrase.key for phrase, _ in self.entries)
        self._keys = None if unkeyed else frozenset().union(*(phrase.key for phrase, _ in self.entries))
        # The entries by their key pieces: a text holding none of an entry's key pieces cannot match
        # it (its key is one of its required piece sets), so only the entries of the pieces the text
        # holds are worth a `may_occur`.
        by_piece: dict[bytes, list[int]] = {}
        for number, (phrase, _) in enumerate(self.entries):
            for piece in phrase.key:
                by_piece.setdefault(piece, []).append(number)
        self._by_piece = {piece: tuple(numbers) for piece, numbers in by_piece.items()}

    def __bool__(self) -> bool:
        return bool(self.entries)

    def may_match(self, text: TokenizedText) -> bool:
        """Whether the text's pieces leave some entry possible (False: no entry can match)."""
        return bool(self._possible(text.pieces))

    def scan(self, text: TokenizedText) -> list[tuple[Phrase, T, int, int]]:
        """Every entry's matches in the text, as (phrase, what it stands for, start, end) offsets in the
        folded text (`text.folded.span` maps them to the original), in entry order."""
        hits: list[tuple[Phrase, T, int, int]] = []
        for number in self._possible(text.pieces):
            phrase, payload = self.entries[number]
            hits.extend((phrase, payload, start, stop) for start, stop in phrase.finditer(text))
        return hits

    def _possible(self, pieces: frozenset[bytes]) -> list[int]:
        """The numbers of the entries a text with these pieces may match (each of their required
        elements has a piece there), in entry order."""
        if self._keys is not None and self._keys.isdisjoint(pieces):
            return []
        return [number for number in self._candidates(pieces) if self.entries[number][0].may_occur(pieces)]

    def _candidates(self, pieces: frozenset[bytes]) -> Sequence[int]:
        """The numbers of the entries a text with these pieces may match, in entry order."""
        if self._keys is None:
            return range(len(self.entries))
        held = self._keys & pieces
        if len(held) == 1:
            return self._by_piece[next(iter(held))]
        return sorted({number for piece in held for number in self._by_piece[piece]})

    def starting_at(self, text: TokenizedText, offset: int) -> Iterator[tuple[Phrase, T, int]]:
        """The entries that match at the token starting at this folded-text offset, each with the
        offset where its match ends."""
        number = text.number_at(offset)
        reading = text.reading
        first = reading.firsts[number] if number is not None else None
        if number is None or first is None:
            return
        token = reading.words[first]
        numbers = set(self._by_word.get(token, ()))
        if "'" in token and (pair := split_clitic(token)):
            numbers.update(self._by_word.get(pair[0], ()))
        for entry in sorted(numbers):
            phrase, payload = self.entries[entry]
            stop = phrase.match_at(reading, number)
            if stop > 0:
                yield phrase, payload, text.end_of(stop - 1)
