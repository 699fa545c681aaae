"""A text as whole tokens, for every text check: what a lexicon term or phrase pattern matches.

A token is a run of letters and digits, with internal apostrophes or hyphens (`can't`, `we'll`,
`e-mail`, `555-2580`) and internal dots or commas between digits (`1,950.00`): one token each. Tokens
are read from the folded text (compatibility-normalised, lower-cased, accents stripped, curly
apostrophes straightened; see `cerebrus.text`), and every token keeps its span in the original text,
so a receipt quotes exactly what was written. See docs/text-matching.md.
"""

from __future__ import annotations

import re

from cerebrus.lazy import lazy
from cerebrus.text import FoldedText
from gradecore.vocabulary import Span

# Hyphens that survive folding (U+2010, and U+2011 which folds to it) join like the ASCII one.
_TOKEN = re.compile(r"[^\W_]+(?:(?:['\-\u2010]|(?<=\d)[.,](?=\d))[^\W_]+)*")
# The same tokens in a lower-case ASCII text (most drafts once folded), where the ASCII classes
# run markedly faster than the Unicode ones.
_ASCII_TOKEN = re.compile(r"[a-z0-9]+(?:(?:['\-]|(?<=\d)[.,](?=\d))[a-z0-9]+)*")
_WORD_JOINERS = "'-\u2010"
# How many characters a window reads per token wanted, at first (it reads more if that falls short).
WINDOW_CHARS_PER_TOKEN = 10
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

    @lazy
    def pieces(self) -> frozenset[bytes]:
        """The text's pieces (see _PIECE_CUT): what the pattern pre-filters test, before any token is cut."""
        return frozenset(self.folded.folded.encode().translate(_PIECE_CUT).split())

    @lazy
    def words(self) -> tuple[str, ...]:
        """Every token in order, folded."""
        folded = self.folded.folded
        return tuple((_ASCII_TOKEN if folded.isascii() else _TOKEN).findall(folded))

    def starts_token(self, offset: int) -> bool:
        """Whether a token begins at this offset of the folded text (not inside a word, not after an
        internal apostrophe, hyphen, or a dot or comma between digits)."""
        folded = self.folded.folded
        if offset >= len(folded) or not folded[offset].isalnum():
            return False
        if offset == 0:
            return True
        before = folded[offset - 1]
        if before.isalnum():
            return False
        if offset >= 2 and folded[offset - 2].isalnum():
            if before in _WORD_JOINERS:
                return False
            if before in ".," and folded[offset - 2].isdigit() and folded[offset].isdigit():
                return False
        return True

    def window(self, offset: int, count: int) -> tuple[list[str], list[tuple[int, int]]]:
        """Up to `count` tokens from a token start, with their (start, end) in the folded text."""
        words = self.window_words(offset, count)
        bounds: list[tuple[int, int]] = []
        find = self.folded.folded.find
        position = offset
        for word in words:
            start = find(word, position)
            position = start + len(word)
            bounds.append((start, position))
        return words, bounds

    def window_words(self, offset: int, count: int) -> list[str]:
        """Up to `count` tokens from a token start (`window` without their places: a matcher needs
        the places of the few tokens a match covers, found afterwards by `end_of`)."""
        folded = self.folded.folded
        pattern = _ASCII_TOKEN if folded.isascii() else _TOKEN
        # Read a stretch likely to hold `count` tokens (one C-level findall); a token reaching the
        # stretch's end may be cut short, so it counts only when more tokens follow it or the text ends.
        size = WINDOW_CHARS_PER_TOKEN * count
        while True:
            end = offset + size
            words: list[str] = pattern.findall(folded, offset, end)
            if end >= len(folded):
                return words[:count]
            if len(words) > count:
                return words[:count]
            size *= 2

    def end_of(self, offset: int, words: list[str], count: int) -> int:
        """Where the first `count` of `words` (read by `window_words` from `offset`) end in the folded
        text: every letter or digit belongs to some token, so each token is the first occurrence of its
        text after the previous one."""
        find = self.folded.folded.find
        position = offset
        for word in words[:count]:
            position = find(word, position) + len(word)
        return position

    def starts(self, first: frozenset[str]) -> list[int]:
        """The indices of the tokens that are one of `first`, or whose contraction base is (`we` for
        "we'll"): where a pattern beginning with one of those words may start."""
        words = self.words
        found = [index for index, word in enumerate(words) if word in first]
        if "'" in self.folded.folded:
            bases = [i for i, word in enumerate(words) if "'" in word and word.split("'", 1)[0] in first]
            if bases:
                found = sorted({*found, *bases})
        return found

    def _bounds(self, count: int) -> list[tuple[int, int]]:
        """The (start, end) in the folded text of at least the first `count` tokens, found as needed:
        every letter or digit belongs to some token, so each token is the first occurrence of its
        text after the previous one (one C-level find per token, only up to the tokens asked for)."""
        bounds: list[tuple[int, int]] = self.__dict__.setdefault("_found_bounds", [])
        if len(bounds) < count:
            folded = self.folded.folded
            find = folded.find
            position = bounds[-1][1] if bounds else 0
            for word in self.words[len(bounds) : count]:
                start = find(word, position)
                position = start + len(word)
                bounds.append((start, position))
        return bounds

    def span(self, first: int, stop: int) -> Span:
        """The original span of tokens [first, stop)."""
        bounds = self._bounds(stop)
        return self.folded.span(bounds[first][0], bounds[stop - 1][1])
