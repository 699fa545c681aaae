"""Phrase patterns: a small token-level pattern language, compiled once, matched in linear time.

A pattern is a sequence of elements separated by spaces (see docs/text-matching.md):

- `word`: one token, matched whole (case- and accent-insensitively); `'ll`, `'m`, `'re`... is a
  clitic, the tail of a contraction: `we {future}` matches "we'll" when `{future}` lists `'ll`;
- `(a | b c | {slot})`: alternatives, each a sequence of words and slot names;
- `{slot}`: a named vocabulary from the rules (`{trade}`, `{future}`, `{visit}`...);
- any of those followed by `?`: optional;
- `[m-n]` or `[m-n {slot}]`: a gap of m to n tokens (at most MAX_GAP), optionally only tokens of
  a single-word vocabulary.

A word never matches inside a token or across a contraction: `can` matches neither "can't" nor
"cannot". Matching memoises (element, token, pending clitic), so a text is matched in time linear in
its length whatever the pattern's gaps and options; only tokens that can start a match are tried.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cerebrus.text import fold
from cerebrus.tokens import TokenizedText, split_clitic, word_pieces

MAX_GAP = 8
# A group expands to the product of its slots' entries: past this, a pattern is surely a mistake.
MAX_ALTERNATIVES = 5000

_LEXEME = re.compile(
    r"\s*(?:(?P<punct>[()|?])|(?P<gap>\[[^\]]*\])|(?P<slot>\{[^}]*\})|(?P<word>[^\s()|?\[\]{}]+)|(?P<bad>\S))"
)
_GAP = re.compile(r"^\[\s*(\d+)\s*-\s*(\d+)\s*(?:tokens?)?\s*(?:\{\s*([\w.-]+)\s*\})?\s*\]$")
_SLOT = re.compile(r"^\{\s*([\w.-]+)\s*\}$")
_ONE_TOKEN = re.compile(r"^'?[^\W_]+(?:(?:['\-\u2010]|(?<=\d)[.,](?=\d))[^\W_]+)*$")

# Words in nearly every English or Spanish draft: a condition made of them rules out nothing.
_COMMON = frozenset(
    b"a an the and or to of in on for is are be was will have has our your you we i it this that "
    b"with at by from el la los las un una de y en que no mi su".split()
)


Words = tuple[str, ...]
T = TypeVar("T")


class PatternError(ValueError):
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
    # Substrings at least one of which every matching text holds (from the pattern's most telling
    # condition: "api" rather than "the"); a text holding none is ruled out by a few C-level substring
    # searches. Empty: the pattern cannot be ruled out that way.
    gates: tuple[str, ...]
    # The most tokens a match can cover: matching at a place reads only that many tokens from it.
    reach: int

    def may_occur(self, folded: str) -> bool:
        if not self.gates:
            return True
        # A plain loop, not any(generator): it runs for every draft and usually finds nothing.
        for gate in self.gates:  # noqa: SIM110
            if gate in folded:
                return True
        return False

    def longest_prefix(self, words: Sequence[str]) -> int:
        """How many of `words` the longest match starting at the first of them covers, or -1."""
        return _Matcher(self.elements, words).longest(0, 0, None)

    def finditer(self, text: TokenizedText) -> Iterator[tuple[int, int]]:
        """Non-overlapping matches, leftmost first and longest, as (start, end) offsets in the folded
        text. Only the few tokens after each place a first word stands are cut, never the whole text."""
        folded = text.folded.folded
        places: set[int] = set()
        for word in self.first_words:
            offset = folded.find(word)
            while offset >= 0:
                places.add(offset)
                offset = folded.find(word, offset + 1)
        covered = 0
        for offset in sorted(places):
            if offset < covered or not text.starts_token(offset):
                continue
            words, bounds = text.window(offset, self.reach)
            stop = _Matcher(self.elements, words).longest(0, 0, None)
            if stop > 0:
                covered = bounds[stop - 1][1]
                yield offset, covered


class _Matcher:
    """The longest match from (element, token, pending clitic), memoised: each state is worked out
    once per text, so gaps and options cannot make matching exponential."""

    __slots__ = ("elements", "memo", "words")

    def __init__(self, elements: tuple[Element, ...], words: Sequence[str]) -> None:
        self.elements = elements
        self.words = words
        self.memo: dict[tuple[int, int, str | None], int] = {}

    def longest(self, index: int, position: int, pending: str | None) -> int:
        key = (index, position, pending)
        known = self.memo.get(key)
        if known is not None:
            return known
        if index == len(self.elements):
            # A contraction's tail left unconsumed means the last word matched only part of a token.
            best = position if pending is None else -1
        else:
            element = self.elements[index]
            if isinstance(element, Choice):
                best = self._choice(element, index, position, pending)
            else:
                best = self._gap(element, index, position, pending)
        self.memo[key] = best
        return best

    def _choice(self, element: Choice, index: int, position: int, pending: str | None) -> int:
        best = self.longest(index + 1, position, pending) if element.optional else -1
        if pending is not None:
            candidates = element.by_first.get(pending, ())
        elif position < len(self.words):
            token = self.words[position]
            candidates = element.by_first.get(token, ())
            if "'" in token and (pair := split_clitic(token)):
                candidates = (*candidates, *element.by_first.get(pair[0], ()))
        else:
            return best
        for alternative in candidates:
            consumed = _consume(alternative, self.words, position, pending)
            if consumed is not None:
                best = max(best, self.longest(index + 1, *consumed))
        return best

    def _gap(self, gap: Gap, index: int, position: int, pending: str | None) -> int:
        # A gap is always followed by a required choice (patterns cannot end in a gap, and an optional
        # choice after a gap is rare): only the places where it can begin are worth a look.
        following = self.elements[index + 1]
        after = following if isinstance(following, Choice) and not following.optional else None
        best = -1
        if gap.least == 0 and (after is None or self._can_begin(after, position, pending)):
            best = self.longest(index + 1, position, pending)
        count = 0
        words = self.words
        while count < gap.most:
            if pending is not None:
                # A contraction's tail ("'s" of "system's") is one gap token when the gap allows it.
                if gap.allowed is not None and pending not in gap.allowed:
                    break
                pending = None
            else:
                if position >= len(words) or (gap.allowed is not None and words[position] not in gap.allowed):
                    break
                position += 1
            count += 1
            if count >= gap.least and (after is None or self._can_begin(after, position, pending)):
                best = max(best, self.longest(index + 1, position, pending))
        return best

    def _can_begin(self, element: Choice, position: int, pending: str | None) -> bool:
        """Whether one of a choice's alternatives can begin here (its first word is the clitic left
        over, the token, or the token's contraction base)."""
        if pending is not None:
            return pending in element.by_first
        if position >= len(self.words):
            return False
        token = self.words[position]
        if token in element.by_first:
            return True
        return "'" in token and (pair := split_clitic(token)) is not None and pair[0] in element.by_first


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


# --- compiling ------------------------------------------------------------------------------------


def compile_phrase(source: str, slots: Mapping[str, Sequence[str]]) -> Phrase:
    """Parse a pattern against the rules' slot vocabularies; PatternError names what is wrong."""
    lexemes = _lex(source)
    elements: list[Element] = []
    index = 0
    while index < len(lexemes):
        kind, value = lexemes[index]
        index += 1
        element: Element
        if kind == "gap":
            element = _gap(value, slots)
        elif kind == "slot":
            element = _choice([[_slot_entries(value, slots)]], optional=False)
        elif kind == "word":
            element = _choice([[[(_word(value),)]]], optional=False)
        elif value == "(":
            group, index = _group(lexemes, index, slots)
            element = _choice(group, optional=False)
        else:
            raise PatternError(f"unexpected {value!r} in {source!r}")
        if index < len(lexemes) and lexemes[index] == ("punct", "?"):
            if isinstance(element, Gap):
                raise PatternError(f"a gap cannot be optional (it may already be empty) in {source!r}")
            element = Choice(element.alternatives, True, element.by_first)
            index += 1
        elements.append(element)
    return _finish(source, tuple(elements))


def _lex(source: str) -> list[tuple[str, str]]:
    lexemes: list[tuple[str, str]] = []
    for match in _LEXEME.finditer(source):
        kind = match.lastgroup
        if kind is None:
            continue
        if kind == "bad":
            raise PatternError(f"unexpected {match.group(kind)!r} in {source!r}")
        lexemes.append((kind, match.group(kind)))
    if not lexemes:
        raise PatternError("the pattern is empty")
    return lexemes


def _word(raw: str) -> str:
    word = fold(raw)
    if not _ONE_TOKEN.match(word):
        raise PatternError(f"{raw!r} is not one token")
    return word


def _phrase_words(entry: str, where: str) -> Words:
    words = tuple(_word(raw) for raw in entry.split())
    if not words:
        raise PatternError(f"{where} has an empty entry")
    return words


def _slot_entries(lexeme: str, slots: Mapping[str, Sequence[str]]) -> list[Words]:
    match = _SLOT.match(lexeme)
    if not match:
        raise PatternError(f"bad slot name {lexeme!r}")
    name = match.group(1)
    if name not in slots:
        raise PatternError(f"unknown slot {{{name}}} (define it under slots)")
    entries = [_phrase_words(entry, f"slot {{{name}}}") for entry in slots[name]]
    if not entries:
        raise PatternError(f"slot {{{name}}} is empty")
    return entries


def _group(
    lexemes: list[tuple[str, str]], index: int, slots: Mapping[str, Sequence[str]]
) -> tuple[list[list[list[Words]]], int]:
    """The alternatives of a `( ... )` group: each a list of parts, each part a list of options."""
    alternatives: list[list[list[Words]]] = [[]]
    while index < len(lexemes):
        kind, value = lexemes[index]
        index += 1
        if value == ")" and kind == "punct":
            if any(not parts for parts in alternatives):
                raise PatternError("a group has an empty alternative")
            return alternatives, index
        if value == "|" and kind == "punct":
            alternatives.append([])
        elif kind == "word":
            alternatives[-1].append([(_word(value),)])
        elif kind == "slot":
            alternatives[-1].append(_slot_entries(value, slots))
        elif kind == "gap":
            raise PatternError("a gap cannot stand inside a group")
        else:
            raise PatternError(f"unexpected {value!r} inside a group (groups do not nest)")
    raise PatternError("a group is not closed: missing ')'")


def _choice(alternatives: list[list[list[Words]]], *, optional: bool) -> Choice:
    """Every alternative's parts multiplied out into plain token sequences."""
    expanded: dict[Words, None] = {}
    for parts in alternatives:
        for combination in itertools.product(*parts):
            expanded[tuple(word for piece in combination for word in piece)] = None
            if len(expanded) > MAX_ALTERNATIVES:
                raise PatternError(f"a group expands to more than {MAX_ALTERNATIVES} alternatives")
    by_first: dict[str, list[Words]] = {}
    for words in expanded:
        by_first.setdefault(words[0], []).append(words)
    return Choice(tuple(expanded), optional, {k: tuple(v) for k, v in by_first.items()})


def _gap(lexeme: str, slots: Mapping[str, Sequence[str]]) -> Gap:
    match = _GAP.match(lexeme)
    if not match:
        raise PatternError(f"bad gap {lexeme!r} (write [0-4] or [0-4 {{slot}}])")
    least, most, name = int(match.group(1)), int(match.group(2)), match.group(3)
    if least > most or most > MAX_GAP or most == 0:
        raise PatternError(f"bad gap {lexeme!r}: need 0 <= m <= n <= {MAX_GAP}, n > 0")
    allowed: frozenset[str] | None = None
    if name is not None:
        entries = _slot_entries("{" + name + "}", slots)
        if any(len(words) != 1 for words in entries):
            raise PatternError(f"gap vocabulary {{{name}}} must hold single words")
        allowed = frozenset(words[0] for words in entries)
    return Gap(least, most, allowed)


def _finish(source: str, elements: tuple[Element, ...]) -> Phrase:
    if isinstance(elements[0], Gap) or isinstance(elements[-1], Gap):
        raise PatternError(f"a pattern cannot start or end with a gap: {source!r}")
    if all(isinstance(e, Gap) or e.optional for e in elements):
        raise PatternError(f"every element is optional, so {source!r} could match nothing")
    first: set[str] = set()
    for element in elements:
        if isinstance(element, Gap):
            raise PatternError(f"a gap cannot follow only optional elements: {source!r}")
        for words in element.alternatives:
            if words[0].startswith("'"):
                raise PatternError(f"a pattern cannot begin with the clitic {words[0]!r}: {source!r}")
            first.add(words[0])
        if not element.optional:
            break
    reach = sum(
        max(len(words) for words in e.alternatives) if isinstance(e, Choice) else e.most for e in elements
    )
    return Phrase(source, elements, frozenset(first), _gates(_required(elements)), reach)


def _gates(required: tuple[frozenset[bytes], ...]) -> tuple[str, ...]:
    """The most telling condition's pieces as substrings, minus those holding another ("tech"
    covers "technician")."""
    if not required:
        return ()
    keys = {piece.decode() for piece in max(required, key=_telling)}
    return tuple(sorted(k for k in keys if not any(o != k and o in k for o in keys)))


def _telling(pieces: frozenset[bytes]) -> tuple[bool, int, int]:
    """How well a condition rules texts out: no common word in it, then long pieces, then few."""
    return (pieces.isdisjoint(_COMMON), min(map(len, pieces)), -len(pieces))


def _required(elements: tuple[Element, ...]) -> tuple[frozenset[bytes], ...]:
    """Per non-optional element, one piece of each alternative: the longest uncommon one of its words'
    pieces (every piece of every word must be in a matching text; a long one is the most telling, and a
    clitic's counts too: "'ll" is there only when some token ends in it). An element with an
    alternative that has no piece at all adds no condition."""
    required: list[frozenset[bytes]] = []
    for element in elements:
        if isinstance(element, Gap) or element.optional:
            continue
        pieces: set[bytes] = set()
        for alternative in element.alternatives:
            own = [piece for word in alternative for piece in word_pieces(word)]
            if not own:
                break
            pieces.add(max(own, key=lambda piece: (piece not in _COMMON, len(piece))))
        else:
            required.append(frozenset(pieces))
    # The smallest sets first: they tend to rule a text out soonest.
    return tuple(sorted(required, key=len))


# --- sets of patterns ------------------------------------------------------------------------------


class PhraseSet(Generic[T]):
    """Compiled phrases with what each stands for: a text holding none of their gates is dismissed by
    a few substring searches, and each phrase is tried only where its first words stand."""

    def __init__(self, entries: Iterable[tuple[Phrase, T]]) -> None:
        self.entries = tuple(entries)
        # Entries by the words a match can begin with (for a match at a given token).
        by_word: dict[str, list[int]] = {}
        for number, (phrase, _) in enumerate(self.entries):
            for word in phrase.first_words:
                by_word.setdefault(word, []).append(number)
        self._by_word = by_word
        self._reach = max((phrase.reach for phrase, _ in self.entries), default=0)
        # Every phrase's gates in one list (minus those holding another): a text holding none of them
        # matches no phrase of the set. None: some phrase cannot be ruled out by gates.
        keys = {gate for phrase, _ in self.entries for gate in phrase.gates}
        ungated = any(not phrase.gates for phrase, _ in self.entries)
        self._gates = (
            None if ungated else tuple(sorted(k for k in keys if not any(o != k and o in k for o in keys)))
        )

    def __bool__(self) -> bool:
        return bool(self.entries)

    def may_match(self, text: TokenizedText) -> bool:
        if self._gates is None:
            return True
        folded = text.folded.folded
        # A plain loop, not any(generator): it runs over every draft and usually finds nothing.
        for gate in self._gates:  # noqa: SIM110
            if gate in folded:
                return True
        return False

    def scan(self, text: TokenizedText) -> list[tuple[Phrase, T, int, int]]:
        """Every entry's matches in the text, as (phrase, what it stands for, start, end) offsets in the
        folded text (`text.folded.span` maps them to the original), in entry order."""
        if not self.may_match(text):
            return []
        folded = text.folded.folded
        hits: list[tuple[Phrase, T, int, int]] = []
        for phrase, payload in self.entries:
            if phrase.may_occur(folded):
                hits.extend((phrase, payload, start, stop) for start, stop in phrase.finditer(text))
        return hits

    def starting_at(self, text: TokenizedText, offset: int) -> Iterator[tuple[Phrase, T, int]]:
        """The entries that match at the token starting at this folded-text offset, each with the
        offset where its match ends."""
        words, bounds = text.window(offset, self._reach)
        if not words:
            return
        token = words[0]
        numbers = set(self._by_word.get(token, ()))
        if "'" in token and (pair := split_clitic(token)):
            numbers.update(self._by_word.get(pair[0], ()))
        for number in sorted(numbers):
            phrase, payload = self.entries[number]
            stop = phrase.longest_prefix(words)
            if stop > 0:
                yield phrase, payload, bounds[stop - 1][1]
