"""A text as whole tokens, for every text check: what a lexicon term or phrase pattern matches.

A token is a run of letters and digits, with internal apostrophes or hyphens (`can't`, `we'll`,
`e-mail`, `555-2580`) and internal dots or commas between digits (`1,950.00`): one token each. Tokens
are read from the folded text (compatibility-normalised, lower-cased, accents stripped, curly
apostrophes straightened; see `cerebrus.text.folding`), and every token keeps its span in the original text,
so a receipt quotes exactly what was written. See docs/text-matching.md.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import cached_property, lru_cache
from itertools import islice
from typing import NamedTuple

from cerebrus.text.folding import FoldedText
from gradecore.model.vocabulary import Span

# Hyphens that survive folding (U+2010, and U+2011 which folds to it) join like the ASCII one.
_TOKEN = re.compile(r"[^\W_]+(?:(?:['\-\u2010]|(?<=\d)[.,](?=\d))[^\W_]+)*")
# The same tokens in a lower-case ASCII text (most drafts once folded), where the ASCII classes
# run markedly faster than the Unicode ones.
_ASCII_TOKEN = re.compile(r"[a-z0-9]+(?:(?:['\-]|(?<=\d)[.,](?=\d))[a-z0-9]+)*")
_WORD_JOINERS = "'-\u2010"
# What ends a sentence: "!", "?", a line break, or "." before a space or the end ("$1.50" and "8.30" go
# on). No token holds one, so a sentence's tokens are exactly the text's tokens between its ends.
# Written as one character class with a condition after it ("not a `.` before a non-space"): a
# pattern opening with a class is searched for in C, twice as fast as `[!?\n]|\.(?=\s|$)`.
_SENTENCE_END = re.compile(r"[.!?\n](?!(?<=\.)\S)")
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


# --- Contractions, read as written and expanded (docs/text-matching.md) -----------------
# A phrase pattern and a draft are both read with each contraction expanded, so "I am unable to" and
# "I'm unable to" are one reading, as are "cannot", "can not" and "can't". `'s` and `'d` stay as
# written: "it's" is "it is" or "it has", "we'd" is "we would" or "we had", and a wrong guess would
# make a pattern fire on what the draft does not say (they are matched as clitics, see phrases.py).

# Tails read the same after any base: "we'll" = we will, "I'm" = i am, "should've" = should have.
_TAIL_READINGS: dict[str, tuple[str, ...]] = {"m": ("am",), "re": ("are",), "ve": ("have",), "ll": ("will",)}
# Negations whose base changes. "cannot" is one token, so `can` never matches "can't"
# (docs/text-matching.md: a word
# never matches across a contraction) while "can not", "cannot" and "can't" read alike.
_WHOLE_READINGS: dict[str, tuple[str, ...]] = {
    "can't": ("cannot",),
    "won't": ("will", "not"),
    "shan't": ("shall", "not"),
}
# The bases whose `n't` reads as base + not ("isn't" = is not); any other `n't` stays as written.
_NEGATED_BASES = frozenset(
    [
        "do", "does", "did", "is", "was", "are", "were", "has", "have", "had", "could", "would",
        "should", "must", "need", "might",
    ]
)  # fmt: skip
APOSTROPHE_LESS: dict[str, str] = {
    "im": "i'm", "whats": "what's", "dont": "don't", "didnt": "didn't", "doesnt": "doesn't",
    "isnt": "isn't", "wasnt": "wasn't", "youre": "you're", "theyll": "they'll", "youll": "you'll",
    "ive": "i've",
}  # fmt: skip
"""Contractions typed without their apostrophe, read as the contraction: only those whose bare form
is no English word (never well, were, ill, its, shed, hell, wont, cant)."""


@lru_cache(maxsize=4096)
def read_token(token: str) -> tuple[str, ...]:
    """A folded token as read: a contraction expanded (`we'll` -> we, will; `don't` -> do, not;
    `can't` -> cannot; `'ll` alone, as a pattern writes a clitic, -> will), anything else as written."""
    token = APOSTROPHE_LESS.get(token, token)
    if "'" not in token:
        return (token,)
    whole = _WHOLE_READINGS.get(token)
    if whole is not None:
        return whole
    base, _, tail = token.partition("'")
    if tail == "t" and base.endswith("n") and base[:-1] in _NEGATED_BASES:
        return (base[:-1], "not")
    reading = _TAIL_READINGS.get(tail)
    if reading is None:
        return (token,)
    return (base, *reading) if base else reading


def _read_as_written(words: Sequence[str]) -> bool:
    return not any("'" in word or word in APOSTROPHE_LESS or word == "can" for word in words)


Reading = tuple[list[str], list[tuple[int, int]]]
"""Words as read, and for each the tokens [first, stop) of the original sequence it was read from."""


def reading_of(words: Sequence[str]) -> Reading | None:
    """A token sequence with its contractions expanded (see `read_token`) and "can not" read as
    "cannot"; None when it reads as written (most do, and then nothing is built)."""
    if _read_as_written(words):
        return None
    read: list[str] = []
    sources: list[tuple[int, int]] = []
    for index, word in enumerate(words):
        if word == "not" and read and read[-1] == "can" and sources[-1] == (index - 1, index):
            read[-1] = "cannot"
            sources[-1] = (index - 1, index + 1)
            continue
        for part in read_token(word):
            read.append(part)
            sources.append((index, index + 1))
    return read, sources


def read_words(words: Sequence[str]) -> tuple[str, ...]:
    """A pattern's word sequence as read (the same expansion as a draft's)."""
    reading = reading_of(words)
    return tuple(words) if reading is None else tuple(reading[0])


def _written_forms() -> dict[str, list[tuple[str, ...]]]:
    """Each word a contraction reads as, with the written forms (as tokens) that read as it."""
    forms: list[tuple[str, ...]] = [("can", "not")]
    forms.extend((word,) for word in (*APOSTROPHE_LESS, *_WHOLE_READINGS))
    forms.extend((f"{base}n't",) for base in _NEGATED_BASES)
    forms.extend((f"'{tail}",) for tail in _TAIL_READINGS)
    written: dict[str, list[tuple[str, ...]]] = {}
    for form in forms:
        reading = reading_of(form)
        for word in reading[0] if reading is not None else form:
            written.setdefault(word, [(word,)]).append(form)
    return written


def _longest_piece(form: tuple[str, ...]) -> bytes:
    return max((piece for word in form for piece in word_pieces(word)), key=len)


_WRITTEN = _written_forms()
WRITTEN_PIECES: dict[str, frozenset[bytes]] = {
    word: frozenset(_longest_piece(form) for form in forms) for word, forms in _WRITTEN.items()
}
"""For each word a draft may write in another form ("will" as "'ll" or "theyll", "i" inside "im",
"not" inside "don't"): pieces one of which a text holding the word, in any form, holds. A word
without an entry is written as it reads."""


def match_starts(words: frozenset[str]) -> frozenset[str]:
    """The tokens a match beginning with one of `words` (as read) may begin at: the written start of
    each form whose reading begins with it ("can" for "cannot", "won" for "will", "im" for "i"), the
    part before an apostrophe standing for the token's contraction base."""
    return frozenset(
        form[0].split("'", 1)[0] or form[0]
        for word in words
        for form in _WRITTEN.get(word, [(word,)])
        if read_words(form)[0] == word
    )


class TextReading(NamedTuple):
    """A text's tokens as read: the read words, the tokens [first, stop) each was read from (empty when
    every token reads as written), and for each token the read word it begins (None: none does)."""

    words: Sequence[str]
    sources: Sequence[tuple[int, int]]
    firsts: Sequence[int | None]


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
    def sentences(self) -> list[tuple[int, TokenizedText]]:
        """The text's sentences, as (where each begins in the folded text, its own tokens): a phrase
        never runs over a sentence's end, so patterns are matched sentence by sentence, and a sentence
        whose pieces rule every pattern out is never cut into tokens. A text of one sentence is its
        own only sentence."""
        folded = self.folded.folded
        bounds: list[tuple[int, int]] = []
        begins = 0
        for end in _SENTENCE_END.finditer(folded):
            bounds.append((begins, end.start()))
            begins = end.end()
        bounds.append((begins, len(folded)))
        worded = [(begins, ends) for begins, ends in bounds if folded[begins:ends].strip()]
        if len(worded) <= 1:
            return [(0, self)]
        return [
            (begins, TokenizedText(FoldedText(folded[begins:ends], already_folded=True)))
            for begins, ends in worded
        ]

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Every token in order, folded."""
        folded = self.folded.folded
        return tuple((_ASCII_TOKEN if folded.isascii() else _TOKEN).findall(folded))

    @cached_property
    def _starts(self) -> list[int]:
        """Where each token begins in the folded text: every letter or digit belongs to some token, so
        each token is the first occurrence of its text after the previous one."""
        find = self.folded.folded.find
        starts: list[int] = []
        position = 0
        for word in self.words:
            position = find(word, position)
            starts.append(position)
            position += len(word)
        return starts

    @cached_property
    def numbers_of(self) -> dict[str, list[int]]:
        """For each token, and each contraction base (`we` of "we'll"), the numbers of the tokens that
        are it or begin with it: where a pattern starting with that word may begin."""
        numbers: dict[str, list[int]] = {}
        for number, word in enumerate(self.words):
            numbers.setdefault(word, []).append(number)
            if "'" in word:
                numbers.setdefault(word.partition("'")[0], []).append(number)
        return numbers

    @cached_property
    def reading(self) -> TextReading:
        """The whole text read once with its contractions expanded (see `reading_of`), shared by every
        pattern tried on it."""
        words = self.words
        expanded = reading_of(words)
        if expanded is None:
            return TextReading(words, (), range(len(words)))
        read, sources = expanded
        # The read word each token begins; none for the "not" of "can not" (read with "can" as "cannot").
        firsts: list[int | None] = [None] * len(words)
        for index in range(len(sources) - 1, -1, -1):
            firsts[sources[index][0]] = index
        return TextReading(read, sources, firsts)

    def start_of(self, number: int) -> int:
        """Where token `number` begins in the folded text."""
        return self._starts[number]

    def end_of(self, number: int) -> int:
        """Where token `number` ends in the folded text."""
        return self._starts[number] + len(self.words[number])

    def number_at(self, offset: int) -> int | None:
        """The number of the token beginning at this folded-text offset, if one does."""
        starts = self._starts
        number = bisect_left(starts, offset)
        return number if number < len(starts) and starts[number] == offset else None

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
        """Up to `count` tokens from a token start, with their (start, end) in the folded text: read from
        there only, so a look at one place does not cut the whole text."""
        folded = self.folded.folded
        tokens = (_ASCII_TOKEN if folded.isascii() else _TOKEN).finditer(folded, offset)
        bounds = [token.span() for token in islice(tokens, count)]
        return [folded[start:end] for start, end in bounds], bounds

    def starts(self, first: frozenset[str]) -> list[int]:
        """The numbers of the tokens that are one of `first`, or whose contraction base is (`we` for
        "we'll"): where a pattern beginning with one of those words may start."""
        numbers_of = self.numbers_of
        return sorted({number for word in first for number in numbers_of.get(word, ())})

    def span(self, first: int, stop: int) -> Span:
        """The original span of tokens [first, stop)."""
        return self.folded.span(self.start_of(first), self.end_of(stop - 1))
