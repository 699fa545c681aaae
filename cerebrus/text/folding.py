"""Case- and accent-insensitive text matching that can always point back at the original draft.

Every text check matches against a folded copy of the draft (NFKD, combining marks stripped,
lower-cased, letters such as ø or ß spelt plainly, typographic apostrophes unified) and reports spans
in the ORIGINAL draft, so a quoted receipt is always an exact substring of what Clara sent. The
anonymizer (smith/sweep/) folds names with the same function: one rule for "the same word, typed
with or without its accents".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from gradecore.model.vocabulary import Span

# Curly quotes and primes fold to the ASCII apostrophe so "we’ll" matches a rule written as "we'll".
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'"})
# Letters Unicode does not decompose into a base letter and a mark, but that people drop when they type
# without accents (Søren → Soren, Łukasz → Lukasz, Straße → Strasse): folded like an accent.
_UNDECOMPOSED = {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i"}
_LOWER_FOLDS = str.maketrans(
    {**_UNDECOMPOSED, "\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'"}
)


def fold(text: str) -> str:
    """The folded form of a text (no offsets kept): for rule terms and patterns."""
    return FoldedText(text).folded


def strip_accents(text: str) -> str:
    """Accents removed, case kept: safe on regular-expression sources (escapes are ASCII)."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_APOSTROPHES)


# How many distinct characters the fold table keeps (drafts use a few hundred): bounded, so a text
# holding every Unicode character does not grow it by a hundred megabytes. Past the bound, a character
# is folded again each time it is met: slower for such a text, never wrong.
_FOLD_TABLE_SIZE = 8192


def _fold_char(char: str) -> str:
    """One character folded (NFKD, combining marks dropped, lower case, undecomposed letters spelt
    plainly, apostrophes unified)."""
    pieces: list[str] = []
    for part in unicodedata.normalize("NFKD", char):
        if unicodedata.combining(part):
            continue
        pieces.extend(low for low in part.lower() if not unicodedata.combining(low))
    return "".join(pieces).translate(_LOWER_FOLDS)


class _FoldTable(dict[int, str]):
    """str.translate table folding one character at a time, filled on first sight of a character."""

    def __missing__(self, codepoint: int) -> str:
        char = chr(codepoint)
        folded = _fold_char(char)
        if len(self) < _FOLD_TABLE_SIZE:
            self[codepoint] = folded
        # The two sets only ever hold characters of these (fixed, rare) kinds, so they stay bounded.
        if len(folded) != 1:
            _IRREGULAR.add(char)
        # Replacing this character by its fold, anywhere in a text, is safe when what it folds to is
        # lower case and folds to itself (then a later replacement or lower() cannot change it).
        if any(piece.lower() != piece or _fold_char(piece) != piece for piece in folded):
            _UNSETTLED.add(char)
        return folded


_FOLD = _FoldTable()
# Characters whose folded form is not exactly one character (ligatures, lone combining marks): only
# texts holding one of them need an offset map.
_IRREGULAR: set[str] = set()
# Characters whose fold is not a fixed point of folding and lower-casing (see _FoldTable).
_UNSETTLED: set[str] = set()


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_ASCII_BYTES = bytes(range(128))
# Folding works on str; these encode any str, lone surrogates included (which other text may hold).
_UTF8, _ANY_CHAR = "utf-8", "surrogatepass"
_FEW_DISTINCT = 64


def _fold_ascii(text: str) -> str:
    # The only ASCII character the apostrophe table folds is the backtick.
    lowered = text.lower()
    return lowered.translate(_APOSTROPHES) if "`" in lowered else lowered


def _fold_mixed(text: str) -> str:
    """Folding character by character, with the ASCII stretches lower-cased in one go: the same
    result as text.translate(_FOLD), several times faster on mostly-ASCII text (Spanish drafts)."""
    # A Spanish draft holds a handful of distinct accented characters: replace each by its fold
    # everywhere, then lower-case the whole text in one go (its ASCII letters; every fold is lower
    # case already). Exact when every fold is settled, and no capital sigma, whose lower case depends
    # on its neighbours, survives the replacements (it folds to a small sigma).
    # The distinct non-ASCII characters: the text's UTF-8 without its ASCII bytes is exactly their
    # encodings, back to back (C-level passes, several times cheaper than a regular expression).
    chars = set(text.encode(_UTF8, _ANY_CHAR).translate(None, _ASCII_BYTES).decode(_UTF8, _ANY_CHAR))
    # One replace per distinct character: fast for a handful, quadratic for a text holding thousands.
    if len(chars) <= _FEW_DISTINCT:
        folds = [(char, _FOLD[ord(char)]) for char in chars]  # folding first records which are unsettled
        if _UNSETTLED.isdisjoint(chars):
            for char, folded in folds:
                text = text.replace(char, folded)
            if text.isascii():
                return _fold_ascii(text)
            # Folds left beyond ASCII (`¡`, `¿`) are lower case already: lower-case the ASCII letters
            # alone, as bytes (str.lower looks every character up in the Unicode tables; the same
            # result here, several times faster).
            lowered = text.encode(_UTF8, _ANY_CHAR).lower().decode(_UTF8, _ANY_CHAR)
            return lowered.translate(_APOSTROPHES) if "`" in lowered else lowered
    parts: list[str] = []
    position = 0
    for run in _NON_ASCII.finditer(text):
        parts.append(_fold_ascii(text[position : run.start()]))
        parts.append(run.group().translate(_FOLD))
        position = run.end()
    parts.append(_fold_ascii(text[position:]))
    return "".join(parts)


class FoldedText:
    """A text and its folded copy, with a map from each folded character to its original offset.

    The map is built only when a span is asked for: most texts are only searched, and most matches
    are in ASCII texts, whose folded copy keeps every offset.
    """

    __slots__ = ("_origin", "folded", "original")

    def __init__(self, original: str, *, already_folded: bool = False) -> None:
        """`already_folded`: the text is a stretch of another text's folded copy (a sentence of it),
        so it is its own fold and keeps every offset."""
        self.original = original
        self._origin: list[int] | None = None
        if already_folded:
            self.folded = original
        elif original.isascii():
            # Lower-casing ASCII keeps every offset: no map needed (the fast, common path, where
            # _fold_ascii is inlined: a function call costs about as much as the lowering itself).
            lowered = original.lower()
            self.folded = lowered.translate(_APOSTROPHES) if "`" in lowered else lowered
        else:
            self.folded = _fold_mixed(original)

    def _origins(self) -> list[int] | None:
        """None when folding kept every offset (ASCII, accents that fold 1:1 like é → e, a text that is
        its own fold)."""
        if self._origin is None and self.folded is not self.original and not self.original.isascii():
            if _IRREGULAR.isdisjoint(self.original):
                return None
            origin: list[int] = []
            for index, char in enumerate(self.original):
                origin.extend([index] * len(_FOLD[ord(char)]))
            self._origin = origin
        return self._origin

    def span(self, start: int, end: int) -> Span:
        """The original span covering folded characters [start, end)."""
        origin = self._origins()
        if origin is None:
            return Span(start=start, end=end)
        if start >= end:
            position = origin[start] if start < len(origin) else len(self.original)
            return Span(start=position, end=position)
        first = origin[start]
        stop = origin[end - 1] + 1
        # Extend over characters that folded away entirely (a lone combining mark after the match).
        while stop < len(self.original) and not _FOLD[ord(self.original[stop])]:
            stop += 1
        return Span(start=first, end=stop)

    def quote(self, span: Span) -> str:
        return self.original[span.start : span.end]

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[tuple[Span, str]]:
        """Each non-empty match of a pattern over the folded text, as (original span, original quote)."""
        for match in pattern.finditer(self.folded):
            if match.end() > match.start():
                span = self.span(match.start(), match.end())
                yield span, self.quote(span)
