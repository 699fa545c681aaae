"""Reading money amounts and numbers in every usual format."""

from __future__ import annotations

import pytest

from cerebrus.amounts.mentions import money_in, number_written, parse_number
from cerebrus.text.folding import FoldedText


@pytest.mark.parametrize(
    ("written", "value"),
    [("1,950", 1950), ("1950.00", 1950), ("1.950", 1950), ("1.950,00", 1950), ("45", 45), ("19,5", 19.5)],
)
def test_parse_number(written: str, value: float) -> None:
    assert parse_number(written) == value


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("$1,950", [(1950, "$1,950")]),
        ("$1950.00 total", [(1950, "$1950.00")]),
        ("1,950 dollars", [(1950, "1,950 dollars")]),
        ("1.950 dólares", [(1950, "1.950 dólares")]),
        ("USD 1950", [(1950, "USD 1950")]),
        ("$1,950 dollars", [(1950, "$1,950 dollars")]),
        ("unit 12B, 3 rooms, 9 AM", []),
        ("a$5", []),
    ],
)
def test_money_in(text: str, found: list[tuple[float, str]]) -> None:
    assert [(m.value, m.quote) for m in money_in(FoldedText(text))] == found


@pytest.mark.parametrize("text", ["1850", "1,850", "$1,850.00", "rent: 1.850/mo", "[1850]"])
def test_number_written_in_usual_formats(text: str) -> None:
    assert number_written(1850, text)


@pytest.mark.parametrize("text", ["18500", "11850", "1,850.5", "185"])
def test_number_written_is_exact(text: str) -> None:
    assert not number_written(1850, text)


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("1,950.00", 1950),  # en
        ("1.950,00", 1950),  # es
        ("2.555,00", 2555),
        ("1.950", 1950),  # three digits after a separator are thousands in either language
        ("1,450", 1450),  # as written in Spanish drafts too: "1,450 dólares"
        ("1,95", 1.95),
        ("1.5", 1.5),
        ("100,000", 100000),
        ("1.234.567,89", 1234567.89),
    ],
)
def test_parse_number_reads_en_and_es_formatting(written: str, value: float) -> None:
    assert parse_number(written) == value


@pytest.mark.parametrize("text", ["1050 sq ft", "unit 1050", "50 bucks", "$ in 2 days", "Dec 1, 2026"])
def test_only_a_currency_marker_makes_money(text: str) -> None:
    assert money_in(FoldedText(text)) == []


def test_money_in_reads_en_and_es_formatting_alike() -> None:
    text = FoldedText("1.950 dólares, $1.950,00, $1,950.00, 1,950 dollars, US$1950")
    assert [m.value for m in money_in(text)] == [1950] * 5
