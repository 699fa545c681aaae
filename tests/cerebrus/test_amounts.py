"""Reading money amounts and numbers in every usual format."""

from __future__ import annotations

import pytest

from cerebrus.amounts import money_in, number_written, parse_amount, parse_number
from cerebrus.text import FoldedText


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
    ("written", "mark", "value"),
    [
        ("1,950.00", ".", 1950),
        ("1.950", ",", 1950),
        ("1.950,00", ",", 1950),
        ("2.555,00", ",", 2555),
        ("1.950", ".", 1.95),  # the language decides: en reads `.` as the decimal mark
        ("1,950", ",", 1.95),  # and es reads `,` as one
        ("1,95", ",", 1.95),
        ("1.950,00", ".", 1950),  # not en-formatted: read by its shape
        ("1,950.00", ",", 1950),
        ("100,000", ".", 100000),
        ("1,950", None, 1950),  # no known language: read by its shape
    ],
)
def test_parse_amount_uses_the_languages_decimal_mark(written: str, mark: str | None, value: float) -> None:
    assert parse_amount(written, mark) == value


@pytest.mark.parametrize("text", ["1050 sq ft", "unit 1050", "50 bucks", "$ in 2 days", "Dec 1, 2026"])
def test_only_a_currency_marker_makes_money(text: str) -> None:
    assert money_in(FoldedText(text)) == []


def test_money_in_reads_with_the_given_decimal_mark() -> None:
    assert [m.value for m in money_in(FoldedText("1.950 dólares y $1.950,00"), ",")] == [1950, 1950]
    assert [m.value for m in money_in(FoldedText("$1,950.00 or 1.950 dollars"), ".")] == [1950, 1.95]
