"""A text as whole tokens, for every text check: what a lexicon term or phrase pattern matches.

A token is a run of letters and digits, with internal apostrophes or hyphens (`can't`, `we'll`,
`e-mail`, `555-2580`) and internal dots or commas between digits (`1,950.00`): one token each. Tokens
are read from the folded text (compatibility-normalised, lower-cased, accents stripped, curly
apostrophes straightened; see `cerebrus.text`), and every token keeps its span in the original text,
so a receipt quotes exactly what was written. See docs/text-matching.md.
"""

from __future__ import annotations

import re
from functools import cached_property

from cerebrus.text import FoldedText
from gradecore.vocabulary import Span

# Hyphens that survive folding (U+2010, and U+2011 which folds to it) join like the ASCII one.
_TOKEN = re.compile(r"[^\W_]+(?:(?:['\-\u2010]|(?<=\d)[.,](?=\d))[^\W_]+)*")
# A contraction's base: `we'll` -> `we` (then the clitic `'ll` is left for a pattern to consume).
_BASE = re.compile(r"^([^']+)'")
# Pieces: the folded text's UTF-8 bytes cut at every byte that is not an ASCII letter or digit. Every
# token is made of whole pieces, so "the text holds a token equal to W" implies "the text holds W's
# first piece": a necessary condition, tested with set operations on pieces that take a few
# microseconds to cut (bytes.translate + split run in C), where the token regex takes tens.
_PIECE_CUT = bytes.maketrans(
    bytes(range(256)), bytes(c if c < 128 and chr(c).isalnum() else 0x20 for c in range(256))
)


def tokens_of(text: str) -> list[str]:
    """The folded tokens of a text (for rule terms: the same tokenizer as the drafts)."""
    return _TOKEN.findall(FoldedText(text).folded)


def word_pieces(word: str) -> list[bytes]:
    """The pieces of a folded word (`e-mail` -> [b"e", b"mail"], `'ll` -> [b"ll"]); none for a word of
    non-ASCII letters only, which the pieces cannot rule out."""
    return word.encode().translate(_PIECE_CUT).split()


def first_piece(word: str) -> bytes | None:
    """The first piece of a folded word, or None when it has none."""
    pieces = word_pieces(word)
    return pieces[0] if pieces else None


def split_clitic(token: str) -> tuple[str, str] | None:
    """`we'll` -> (`we`, `'ll`); None for a token without an apostrophe."""
    match = _BASE.match(token)
    return (match.group(1), token[match.end() - 1 :]) if match else None


class TokenizedText:
    """A text's tokens, worked out once and shared by every check that reads the text.

    Most texts are only asked whether some pattern could occur at all: `pieces` answers that with a
    few C-level passes; the tokens themselves are cut only when a pattern may match.
    """

    def __init__(self, text: FoldedText | str) -> None:
        self.folded = text if isinstance(text, FoldedText) else FoldedText(text)

    @property
    def original(self) -> str:
        return self.folded.original

    @cached_property
    def pieces(self) -> frozenset[bytes]:
        """The text's pieces (see _PIECE_CUT): what the pattern pre-filters test, before any token is cut."""
        return frozenset(self.folded.folded.encode().translate(_PIECE_CUT).split())

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Every token in order, folded."""
        return tuple(_TOKEN.findall(self.folded.folded))

    @cached_property
    def bounds(self) -> tuple[tuple[int, int], ...]:
        """Each token's (start, end) in the folded text."""
        return tuple(match.span() for match in _TOKEN.finditer(self.folded.folded))

    @cached_property
    def positions(self) -> dict[str, list[int]]:
        """Token (and contraction base) -> the token indices where it stands, in order."""
        index: dict[str, list[int]] = {}
        for position, word in enumerate(self.words):
            index.setdefault(word, []).append(position)
            if "'" in word and (pair := split_clitic(word)):
                index.setdefault(pair[0], []).append(position)
        return index

    def span(self, first: int, stop: int) -> Span:
        """The original span of tokens [first, stop)."""
        bounds = self.bounds
        return self.folded.span(bounds[first][0], bounds[stop - 1][1])

    def token_at_offset(self, offset: int) -> int:
        """The index of the first token starting at or after a folded-text offset (len(words) if none)."""
        for position, (start, _) in enumerate(self.bounds):
            if start >= offset:
                return position
        return len(self.words)
