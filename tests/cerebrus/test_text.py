"""Folding text for matching while keeping exact offsets into the original; masking codes."""

from __future__ import annotations

import re

import pytest

from cerebrus.text import FoldedText, fold, mask_code, mask_codes


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


def test_masks_keep_only_the_last_two_characters() -> None:
    assert mask_code("4821") == "••21"
    assert mask_codes("codes 4821 and 99#7 and 4821", ["4821", "99#7"]) == "codes ••21 and ••#7 and ••21"
