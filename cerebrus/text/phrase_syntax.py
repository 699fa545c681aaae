"""The phrase pattern language: a pattern's text compiled against the rules' slot vocabularies.

A pattern is a sequence of elements separated by spaces (see docs/text-matching.md):

- `word`: one token, matched whole (case- and accent-insensitively); `'ll`, `'m`, `'re`... is a
  clitic, the tail of a contraction: `we {future}` matches "we'll" when `{future}` lists `'ll`;
- `(a | b c | {slot})`: alternatives, each a sequence of words and slot names;
- `{slot}`: a named vocabulary from the rules (`{trade}`, `{future}`, `{visit}`...);
- any of those followed by `?`: optional;
- `[m-n]` or `[m-n {slot}]`: a gap of m to n tokens (at most MAX_GAP), optionally only tokens of
  a single-word vocabulary.

A malformed pattern raises PatternError with one line naming the problem.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from cerebrus.text.folding import fold
from cerebrus.text.phrases import Choice, Element, Gap, PatternError, Phrase, Words
from cerebrus.text.tokens import WRITTEN_PIECES, read_token, read_words, word_pieces

MAX_GAP = 8
# A group expands to the product of its slots' entries: past this, a pattern is surely a mistake.
MAX_ALTERNATIVES = 5000
# Bounds that keep matching linear in the text (issue 22): the work at each place a pattern is tried
# grows with its gaps, elements and reach, so a rules file may not make them unbounded.
MAX_GAPS = 6
MAX_ELEMENTS = 32
MAX_REACH = 64  # tokens one match can cover
MAX_PATTERN_CHARS = 1000

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


def compile_phrase(source: str, slots: Mapping[str, Sequence[str]]) -> Phrase:
    """Parse a pattern against the rules' slot vocabularies; PatternError names what is wrong."""
    if len(source) > MAX_PATTERN_CHARS:
        raise PatternError(f"the pattern is {len(source)} characters long; at most {MAX_PATTERN_CHARS}")
    lexemes = _lex(source)
    elements: list[Element] = []
    index = 0
    leading = True  # no required element yet: the pattern may begin here
    while index < len(lexemes):
        kind, value = lexemes[index]
        index += 1
        element: Element
        written: list[list[list[Words]]] = []
        if kind == "gap":
            element = _gap(value, slots)
        elif kind == "slot":
            written = [[_slot_entries(value, slots)]]
        elif kind == "word":
            written = [[[(_word(value),)]]]
        elif value == "(":
            written, index = _group(lexemes, index, slots)
        else:
            raise PatternError(f"unexpected {value!r} in {source!r}")
        if written:
            if leading:
                _no_leading_clitic(written, source)
            element = _choice(written, optional=False)
        if index < len(lexemes) and lexemes[index] == ("punct", "?"):
            if isinstance(element, Gap):
                raise PatternError(f"a gap cannot be optional (it may already be empty) in {source!r}")
            element = Choice(element.alternatives, True, element.by_first)
            index += 1
        elif written:
            leading = False
        elements.append(element)
    return _finish(source, tuple(elements))


def _no_leading_clitic(written: list[list[list[Words]]], source: str) -> None:
    """A clitic as written ("'ll") is the tail of the token before it: a pattern cannot begin with one
    (checked before contractions are read, where "'ll" becomes "will")."""
    for parts in written:
        for words in parts[0]:
            if words[0].startswith("'"):
                raise PatternError(f"a pattern cannot begin with the clitic {words[0]!r}: {source!r}")


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
    """Every alternative's parts multiplied out into plain token sequences, as read (contractions
    expanded: `'m unable to` is `am unable to`, `can't` is `cannot`; see cerebrus.text.tokens)."""
    expanded: dict[Words, None] = {}
    for parts in alternatives:
        for combination in itertools.product(*parts):
            expanded[read_words([word for piece in combination for word in piece])] = None
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
        # As read: a contraction in the vocabulary allows each token it reads as ("'re" allows "are").
        allowed = frozenset(part for words in entries for part in read_token(words[0]))
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
    gaps = sum(1 for element in elements if isinstance(element, Gap))
    if gaps > MAX_GAPS:
        raise PatternError(f"{gaps} gaps in one pattern; at most {MAX_GAPS}")
    if len(elements) > MAX_ELEMENTS:
        raise PatternError(f"{len(elements)} elements in one pattern; at most {MAX_ELEMENTS}")
    if reach > MAX_REACH:
        raise PatternError(f"one match could cover {reach} tokens; at most {MAX_REACH}")
    required = _required(elements)
    key = max(required, key=_telling) if required else frozenset()
    return Phrase(source, elements, frozenset(first), required, key, reach)


def _telling(pieces: frozenset[bytes]) -> tuple[bool, int, int]:
    """How well a condition rules texts out: no common word in it, then long pieces, then few."""
    return (pieces.isdisjoint(_COMMON), min(map(len, pieces)), -len(pieces))


def _required(elements: tuple[Element, ...]) -> tuple[frozenset[bytes], ...]:
    """Per non-optional element, one piece of each alternative: the longest uncommon one of its words'
    pieces (every piece of every word must be in a matching text; a long one is the most telling, and a
    clitic's counts too: "'s" is there only when some token ends in it). A word a draft may write in
    another form ("will" as "'ll", "not" inside "don't", "i" inside "im") counts only when the
    alternative has no other word, through all its written forms' pieces (tokens.WRITTEN_PIECES). An
    element with an alternative that has no piece at all adds no condition."""
    required: list[frozenset[bytes]] = []
    for element in elements:
        if isinstance(element, Gap) or element.optional:
            continue
        pieces: set[bytes] = set()
        for alternative in element.alternatives:
            own = [piece for word in alternative if word not in WRITTEN_PIECES for piece in word_pieces(word)]
            if own:
                pieces.add(max(own, key=lambda piece: (piece not in _COMMON, len(piece))))
                continue
            # Only words a draft may write in other forms: one of a word's written pieces is there.
            written = [WRITTEN_PIECES[word] for word in alternative if word in WRITTEN_PIECES]
            if not written:
                break
            pieces.update(max(written, key=lambda options: min(map(len, options))))
        else:
            required.append(frozenset(pieces))
    # The smallest sets first: they tend to rule a text out soonest.
    return tuple(sorted(required, key=len))
