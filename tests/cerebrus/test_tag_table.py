"""TagTable: each tag worked out once and found again; bounded, and correct after starting afresh."""

from __future__ import annotations

from cerebrus.tag_table import TagTable
from cerebrus.text.language import primary


def test_a_tag_is_worked_out_once_and_then_found_again() -> None:
    asked: list[str] = []

    def lowered(tag: str) -> str:
        asked.append(tag)
        return tag.lower()

    table = TagTable(lowered)
    assert [table["es-MX"], table["es-MX"], table["EN"]] == ["es-mx", "es-mx", "en"]
    assert asked == ["es-MX", "EN"]


def test_a_full_table_starts_afresh_and_still_answers_right() -> None:
    table = TagTable(str.upper, limit=2)
    assert (table["a"], table["b"]) == ("A", "B")
    assert table["c"] == "C"
    assert dict(table) == {"c": "C"}  # cleared when full, then the new tag kept
    assert table["a"] == "A"


def test_primary_subtags_are_lower_cased_whatever_the_tag() -> None:
    assert [primary(tag) for tag in ("es-MX", "EN-us", "en", "es-419")] == ["es", "en", "en", "es"]
