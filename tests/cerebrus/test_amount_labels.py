"""The label matcher's look beside an amount (docs/amounts.md): what
"right after" allows, and that its C-level screen never rules out a label `label_after` would find."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cerebrus.amount_labels import label_matcher
from cerebrus.text import fold
from tests.profiles import examples

KEYS = ("rent_1br", "rent_2br", "application_fee", "admin_fee", "security_deposit", "pet_deposit", "pet_rent")
MATCHER = label_matcher(KEYS, {})


def _after(text: str) -> tuple[tuple[str, ...], str] | None:
    """The keys and folded label text right after the text's `$1`, or None."""
    folded = fold(text)
    end = folded.index("$1") + 2
    pairing = MATCHER.label_after(folded, end)
    return None if pairing is None else (pairing.keys, folded[pairing.start : pairing.end])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a $1 admin fee", (("admin_fee",), "admin fee")),
        ("$1 one-time non-refundable admin fee", (("admin_fee",), "admin fee")),
        ("$1 per month for the pet rent", (("pet_rent",), "pet rent")),
        ("$1 pet deposit", (("pet_deposit",), "pet deposit")),  # the longest label wins
        ("$1 deposit", (("security_deposit",), "deposit")),
        ("$1 de depósito", (("security_deposit",), "deposito")),
        ("$1 mensual de renta de mascota", (("pet_rent",), "renta de mascota")),
        ("$1/2-bedroom", (("rent_2br",), "2-bedroom")),
        ("$1 Application  Fee", (("application_fee",), "application  fee")),
    ],
)
def test_the_label_right_after_an_amount(text: str, expected: tuple[tuple[str, ...], str]) -> None:
    assert _after(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "$1, admin fee",
        "$1 (admin fee)",
        "$1\nadmin fee",
        "$1. Admin fee",
        "$1 and the admin fee",
        "$1 monthly rent",  # bare "rent" is no label
        "$1 admin",  # half a label
        "$1 a a a a a a a admin fee",  # more fillers than the look reads
    ],
)
def test_nothing_but_fillers_spaces_and_slashes_may_stand_between(text: str) -> None:
    assert _after(text) is None


WORDS = st.sampled_from(
    ["a", "an", "the", "per", "month", "one-time", "de", "admin", "fee", "pet", "rent", "deposit",
     "2-bedroom", "2", "bedroom", "and", "included", "application", "renta", "mascota", "adminfee"]
)  # fmt: skip
GAPS = st.sampled_from([" ", "  ", "/", " / ", "\t", ", ", "\n", "(", "-", ""])


@settings(max_examples=examples(400))
@given(st.lists(st.tuples(GAPS, WORDS), max_size=9))
def test_the_screen_never_rules_out_a_label_after(pieces: list[tuple[str, str]]) -> None:
    folded = fold("$1" + "".join(gap + word for gap, word in pieces))
    if MATCHER.label_after(folded, 2) is not None:
        assert MATCHER.may_have_label_after(folded, 2)


def test_a_ledger_without_labels_has_nothing_after() -> None:
    empty = label_matcher((), {})
    assert not empty.may_have_label_after("$1 admin fee", 2)
    assert empty.label_after("$1 admin fee", 2) is None
