"""Folding text for matching while keeping exact offsets into the original; masking codes."""

from __future__ import annotations

import re

import pytest

from cerebrus.text import folding as text_module
from cerebrus.text.folding import FoldedText, fold


@pytest.mark.parametrize(
    ("original", "needle", "quote"),
    [
        ("Código DE error", "codigo de error", "Código DE error"),
        ("Co\u0301digo de error", "codigo", "Co\u0301digo"),  # decomposed accent: the mark is kept
        ("Le ﬁchier: SISTEMA", "sistema", "SISTEMA"),  # a ligature expands before the match
        ("ße Straße SYSTEM", "system", "SYSTEM"),
        ("İstanbul office", "office", "office"),  # İ lower-cases to two characters
        ("we’ll send", "we'll send", "we’ll send"),
    ],
)
def test_spans_map_back_to_the_original_text(original: str, needle: str, quote: str) -> None:
    folded = FoldedText(original)
    ((span, found),) = list(folded.finditer(re.compile(re.escape(needle))))
    assert found == quote == original[span.start : span.end]


def test_fold_is_case_and_accent_insensitive() -> None:
    assert fold("Dólares ÁÉÍÓÚ ñ") == "dolares aeiou n"


def test_a_text_with_thousands_of_distinct_characters_folds_right_and_leaves_the_table_bounded() -> None:
    # Every character once (here 20,000 CJK ideographs and accented Latin): the fold table must not
    # keep them all, and what it folds past its bound is still folded exactly.
    text = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 20_000)) + "ÉTÉ Ǆ ﬁ"
    folded = FoldedText(text).folded

    assert folded == "".join(text_module._fold_char(char) for char in text)
    assert folded.endswith("ete dz fi")
    assert len(text_module._FOLD) <= text_module._FOLD_TABLE_SIZE


def test_letters_typed_without_their_accents_fold_to_the_plain_spelling() -> None:
    # The anonymizer finds a name however it is typed with this folding (Søren = Soren = SØREN).
    assert fold("Søren ŁUKASZ Straße Æsir Œuvre Đorđe") == "soren lukasz strasse aesir oeuvre dorde"
    ((span, quote),) = list(FoldedText("Gruß an Søren").finditer(re.compile("soren")))
    assert quote == "Søren" and (span.start, span.end) == (8, 13)


@pytest.mark.parametrize(
    "original",
    [
        "¡Hola SAM! ¿Cómo está? Año",  # folds left beyond ASCII (¡, ¿) next to ASCII capitals
        "¡Mañana` A LAS 9!",  # a backtick in a text that stays beyond ASCII
        "ΣΟΦΙΑ ¡Sí!",  # capital sigma: folds to a small one, whatever its neighbours
        "Café \ud800 ¡OK!",  # a lone surrogate (other text than drafts may hold one)
        "Straße ¡ÆSIR! \u2019Tis",  # undecomposed letters and a curly apostrophe
    ],
)
def test_a_text_beyond_ascii_folds_as_its_characters_fold_one_by_one(original: str) -> None:
    assert fold(original) == "".join(text_module._fold_char(char) for char in original)
